package dev.llmbench.launch;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The GPUs a container asks for, written as {@code docker run --gpus} takes them: {@code all}, a count
 * ({@code 2}) or device ids ({@code device=0,1}, or GPU UUIDs). Given to Docker as a device request with
 * the capability {@code gpu}, which the NVIDIA container toolkit serves.
 *
 * @param count     how many GPUs; -1 for all, 0 when {@code deviceIds} name them
 * @param deviceIds the GPUs by index or UUID; empty when {@code count} says how many
 */
record GpuRequest(int count, List<String> deviceIds) {

  public static final GpuRequest NONE = new GpuRequest(0, List.of());
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9-]+");

  public GpuRequest {
    deviceIds = List.copyOf(deviceIds);
  }

  public boolean isNone() {
    return count == 0 && deviceIds.isEmpty();
  }

  /**
   * Reads {@code all}, a positive count, {@code device=0,1}, or an empty text for none.
   *
   * @throws IllegalArgumentException saying what would be accepted
   */
  public static GpuRequest parse(String text) {
    String t = text.strip();
    if (t.isEmpty() || t.equalsIgnoreCase("none")) return NONE;
    if (t.equalsIgnoreCase("all")) return new GpuRequest(-1, List.of());
    if (t.startsWith("device=")) {
      List<String> ids = List.of(t.substring("device=".length()).split(",", -1)).stream().map(String::strip).toList();
      if (ids.stream().allMatch(id -> ID.matcher(id).matches())) return new GpuRequest(0, ids);
    } else if (t.matches("[0-9]+") && t.length() < 5 && Integer.parseInt(t) > 0) {
      return new GpuRequest(Integer.parseInt(t), List.of());
    }
    throw new IllegalArgumentException("'" + text + "' is not a GPU request; write all, a count such as 2, or "
        + "device=0,1 (as docker run --gpus takes them), or leave it empty for none");
  }

  /** As {@code docker run --gpus} takes it. */
  @Override
  public String toString() {
    if (isNone()) return "none";
    if (count < 0) return "all";
    return deviceIds.isEmpty() ? Integer.toString(count) : "device=" + String.join(",", deviceIds);
  }
}
