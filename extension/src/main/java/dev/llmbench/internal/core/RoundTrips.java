package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.result.RoundTrip;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/** Times round trips of a cheap GET: the network baseline that every TTFT contains once. */
@API(status = INTERNAL)
public final class RoundTrips {

  private RoundTrips() {}

  /**
   * {@code samples} timed GETs of {@code path} after one untimed GET, which opens the connection the way a
   * level's first request finds it open. Empty when the server stops answering the route with 200.
   */
  public static Optional<RoundTrip> measure(OpenAiClient client, String path, int samples) {
    if (samples < 1) return Optional.empty();
    List<Duration> times = new ArrayList<>();
    try {
      if (!answered(client, path)) return Optional.empty();
      for (int i = 0; i < samples; i++) {
        long start = System.nanoTime();
        boolean ok = answered(client, path);
        long elapsed = System.nanoTime() - start;
        if (!ok) return Optional.empty();
        times.add(Duration.ofNanos(elapsed));
      }
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    return Optional.of(new RoundTrip("GET " + path, times));
  }

  private static boolean answered(OpenAiClient client, String path) throws IOException {
    return client.get(path).map(a -> a.status() == 200).orElse(false);
  }
}
