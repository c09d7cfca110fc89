package dev.llmbench.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * A host folder or file mounted in the container, written as {@code docker run -v} takes it:
 * {@code /host/path:/container/path} or with {@code :ro} (read-only) or {@code :rw} after it.
 */
record Bind(String hostPath, String containerPath, boolean readOnly) {

  /** @throws IllegalArgumentException saying what would be accepted */
  public static Bind parse(String text) {
    String[] parts = text.split(":", -1);
    boolean mode = parts.length == 3 && (parts[2].equals("ro") || parts[2].equals("rw"));
    if ((parts.length == 2 || mode) && !parts[0].isBlank() && parts[1].startsWith("/")) {
      return new Bind(parts[0], parts[1], mode && parts[2].equals("ro"));
    }
    throw new IllegalArgumentException("'" + text + "' is not a mount; write HOST_PATH:/container/path, optionally "
        + "with :ro, e.g. /data/hf:/root/.cache/huggingface");
  }

  public static List<Bind> parseAll(List<String> texts) {
    List<Bind> binds = new ArrayList<>();
    for (String t : texts) binds.add(parse(t));
    return binds;
  }

  @Override
  public String toString() {
    return hostPath + ":" + containerPath + (readOnly ? ":ro" : "");
  }
}
