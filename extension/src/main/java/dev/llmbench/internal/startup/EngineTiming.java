package dev.llmbench.internal.startup;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * A duration the engine printed itself, such as vLLM's {@code Loading weights took 12.34 seconds}.
 *
 * @param what what took that long, in the engine's words ({@code loading weights}, {@code torch.compile})
 * @param took the duration as printed
 */
@API(status = INTERNAL)
public record EngineTiming(String what, Duration took) {

  @Override
  public String toString() {
    return what + " " + PhaseHistory.seconds(took);
  }
}
