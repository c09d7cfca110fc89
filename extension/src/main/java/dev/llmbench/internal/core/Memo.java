package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * Values derived from one result (its JSON, its charts, its findings), computed once however many
 * reports ask for them. Lives and dies with the result it belongs to.
 *
 * <p>A cache, never a store: each value is a function of its key and of the result, so whichever asks first
 * computes it, and a read can never come too early and pin a default. State that is written and read later
 * belongs to whoever writes it (a feature, a listener).
 */
@API(status = INTERNAL)
public final class Memo {

  private final ConcurrentHashMap<Object, Object> values = new ConcurrentHashMap<>();

  /** The value for {@code key}, computed on first use; {@code compute} may itself ask this memo for others. */
  @SuppressWarnings("unchecked")
  public <T> T get(Object key, Supplier<T> compute) {
    Object known = values.get(key);
    if (known != null) return (T) known;
    // Not computeIfAbsent: a value derived from others (the JSON from the peak rate) would update the map
    // from inside its own update. Two threads may both compute; the first value stays.
    Object value = compute.get();
    Object previous = values.putIfAbsent(key, value);
    return (T) (previous != null ? previous : value);
  }
}
