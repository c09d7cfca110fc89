package dev.llmbench.internal.capacity;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.Capacity;
import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/** What a capacity search found, one per deployment searched, for the sweep's reports. */
@API(status = INTERNAL)
public final class CapacityResults {

  private final List<Capacity> found = new ArrayList<>();

  public synchronized void add(Capacity capacity) {
    found.add(capacity);
  }

  public synchronized List<Capacity> all() {
    return List.copyOf(found);
  }
}
