package org.vfps.storage;

import io.vertx.core.Future;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Sends requests in batches without waiting for a timer: a request that arrives while nothing is in
 * flight is sent at once (a batch of one); requests that arrive while a batch is in flight queue up
 * and go together as the next batch when it completes. Batches are bounded in count and in a weight
 * (e.g. bytes) per request.
 *
 * <p>Not thread-safe: one instance serves one event loop and is used only on its thread, where the
 * sender's future also completes.
 */
final class Coalescer<R> {

  private final Function<List<R>, Future<?>> sender;
  private final int maxCount;
  private final ToIntFunction<R> weight;
  private final int maxWeight;
  private final int maxInFlight;
  private final ArrayDeque<R> waiting = new ArrayDeque<>();
  private int inFlight;

  /**
   * @param sender sends a batch; its future completes when the next batch may go
   * @param maxInFlight how many batches may be in flight at once
   */
  Coalescer(
      Function<List<R>, Future<?>> sender,
      int maxCount,
      ToIntFunction<R> weight,
      int maxWeight,
      int maxInFlight) {
    this.sender = sender;
    this.maxCount = maxCount;
    this.weight = weight;
    this.maxWeight = maxWeight;
    this.maxInFlight = maxInFlight;
  }

  void submit(R request) {
    waiting.add(request);
    sendNext();
  }

  /** Queues the requests in their order and sends as many batches as free slots allow. */
  void submitAll(List<R> requests) {
    waiting.addAll(requests);
    while (!waiting.isEmpty() && inFlight < maxInFlight) {
      sendNext();
    }
  }

  private void sendNext() {
    if (waiting.isEmpty() || inFlight >= maxInFlight) {
      return;
    }
    List<R> batch = new ArrayList<>(Math.min(waiting.size(), maxCount));
    int total = 0;
    while (!waiting.isEmpty() && batch.size() < maxCount && total < maxWeight) {
      R request = waiting.poll();
      total += weight.applyAsInt(request);
      batch.add(request);
    }
    inFlight++;
    Future<?> sent;
    try {
      sent = sender.apply(batch);
    } catch (RuntimeException e) {
      sent = Future.failedFuture(e);
    }
    sent.onComplete(
        done -> {
          inFlight--;
          sendNext();
        });
  }
}
