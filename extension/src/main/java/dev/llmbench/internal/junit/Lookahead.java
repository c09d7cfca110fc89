package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Iterator;
import java.util.NoSuchElementException;
import org.apiguardian.api.API;

/**
 * An iterator that makes each element only when asked for it, so that the next can depend on how the last one
 * ended: a search's next probe on the last probe's verdict (JUnit runs one test-template invocation before it asks
 * for the next, as junit-pioneer's retrying tests rely on).
 *
 * @param <T> the elements
 */
@API(status = INTERNAL)
public abstract class Lookahead<T> implements Iterator<T> {

  private T upcoming;

  /** {@return the next element, or null when there is none} Called once per element, when it is needed. */
  protected abstract T advance();

  @Override
  public final boolean hasNext() {
    if (upcoming == null) upcoming = advance();
    return upcoming != null;
  }

  @Override
  public final T next() {
    if (!hasNext()) throw new NoSuchElementException();
    T next = upcoming;
    upcoming = null;
    return next;
  }
}
