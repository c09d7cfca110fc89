package dev.llmbench.internal.client;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.concurrent.CompletableFuture;
import org.apiguardian.api.API;

/**
 * Sends POSTs and reads their answers into {@link RequestTrace}s. A request is never sent twice: a failure
 * after the request may have left is reported, not retried. The future never completes exceptionally; a
 * failed request is a trace with a {@link StreamFailure}.
 */
@API(status = INTERNAL)
public interface StreamTransport extends AutoCloseable {

  CompletableFuture<RequestTrace> send(StreamRequest request);

  /** Fails every request still running with {@link StreamFailure.Cause#CANCELLED}. */
  void cancelAll();

  /** Requests sent and not yet finished. */
  int inFlight();

  @Override
  void close();
}
