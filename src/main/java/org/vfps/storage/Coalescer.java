package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.internal.ContextInternal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.vfps.admission.CallDeadline;
import org.vfps.error.ServiceException;

/**
 * Sends requests in batches without waiting for a timer: a request that arrives while nothing is in
 * flight is sent at once (a batch of one); requests that arrive while a batch is in flight queue up
 * and go together as the next batch when it completes. One batch of fewer than {@code sideBySide}
 * requests is in flight at a time; larger ones go at once, beside it and each other, up to {@code
 * maxInFlight}: a batch that large pays for its own round trip, and waiting would only add latency.
 * Batches are bounded in count and in a weight (e.g. bytes) per request; the queue is bounded by a
 * {@link QueueBound}. A request whose call's deadline has passed while it waited (or whose client
 * left) is failed with {@code DEADLINE_EXCEEDED} instead of being sent.
 *
 * <p>Not thread-safe: one instance serves one event loop and is used only on its thread, where the
 * sender's future also completes.
 */
final class Coalescer<R extends Coalescer.Queued> {

  /** A request the coalescer holds. */
  interface Queued {

    /** The deadline of the call the request serves. */
    CallDeadline deadline();

    /** Fails the request, which is not sent. */
    void drop(ServiceException reason);
  }

  /** How many requests may wait; shared by several coalescers when it is a replica's bound. */
  interface QueueBound {

    /** No bound. */
    QueueBound NONE =
        new QueueBound() {
          @Override
          public boolean tryAdd(int count) {
            return true;
          }

          @Override
          public void removed(int count) {}
        };

    /** Takes places for {@code count} more waiting requests; false when they do not fit. */
    boolean tryAdd(int count);

    /** Gives back the places of {@code count} requests that left the queue. */
    void removed(int count);
  }

  private final Function<List<R>, Future<?>> sender;
  private final int maxCount;
  private final ToIntFunction<R> weight;
  private final int maxWeight;
  private final int maxInFlight;
  private final int sideBySide;
  private final QueueBound bound;
  private final ArrayDeque<R> waiting = new ArrayDeque<>();
  private int inFlight;
  private int smallInFlight;

  /**
   * @param sender sends a batch; its future completes when the next batch may go
   * @param maxInFlight how many batches may be in flight at once
   * @param sideBySide the fewest requests of a batch that goes beside a smaller one in flight
   * @param bound how many requests may wait
   */
  Coalescer(
      Function<List<R>, Future<?>> sender,
      int maxCount,
      ToIntFunction<R> weight,
      int maxWeight,
      int maxInFlight,
      int sideBySide,
      QueueBound bound) {
    this.sender = sender;
    this.maxCount = maxCount;
    this.weight = weight;
    this.maxWeight = maxWeight;
    this.maxInFlight = maxInFlight;
    this.sideBySide = sideBySide;
    this.bound = bound;
  }

  /**
   * A promise whose listeners run on the context of the caller (the call the request serves), not
   * on the context of the batch that happens to complete it, so that the caller's next steps see
   * their own call's {@link CallDeadline}.
   */
  static <T> Promise<T> promise() {
    ContextInternal context = ContextInternal.current();
    return context == null ? Promise.promise() : context.promise();
  }

  /** Queues the request and sends a batch if a slot is free; false when the queue is full. */
  boolean submit(R request) {
    if (!bound.tryAdd(1)) {
      return false;
    }
    waiting.add(request);
    sendNext();
    return true;
  }

  /**
   * Queues the requests in their order and sends as many batches as free slots allow; false, and
   * none queued, when they do not fit in the queue.
   */
  boolean submitAll(List<R> requests) {
    if (!bound.tryAdd(requests.size())) {
      return false;
    }
    waiting.addAll(requests);
    while (mayStartBatch()) {
      sendNext();
    }
    return true;
  }

  private boolean mayStartBatch() {
    return !waiting.isEmpty()
        && inFlight < maxInFlight
        && (smallInFlight == 0 || waiting.size() >= sideBySide);
  }

  private void sendNext() {
    if (!mayStartBatch()) {
      return;
    }
    long now = System.nanoTime();
    List<R> batch = new ArrayList<>(Math.min(waiting.size(), maxCount));
    List<R> passed = null;
    int taken = 0;
    int total = 0;
    while (!waiting.isEmpty() && batch.size() < maxCount && total < maxWeight) {
      R request = waiting.poll();
      taken++;
      if (request.deadline().passed(now)) {
        if (passed == null) {
          passed = new ArrayList<>();
        }
        passed.add(request);
        continue;
      }
      total += weight.applyAsInt(request);
      batch.add(request);
    }
    bound.removed(taken);
    if (!batch.isEmpty()) {
      send(batch);
    }
    if (passed != null) {
      // after the batch went out: a failure's listeners may submit again
      passed.forEach(request -> request.drop(CallDeadline.exceeded()));
      sendNext();
    }
  }

  private void send(List<R> batch) {
    boolean small = batch.size() < sideBySide;
    inFlight++;
    if (small) {
      smallInFlight++;
    }
    Future<?> sent;
    try {
      sent = sender.apply(batch);
    } catch (RuntimeException e) {
      sent = Future.failedFuture(e);
    }
    sent.onComplete(
        done -> {
          inFlight--;
          if (small) {
            smallInFlight--;
          }
          sendNext();
        });
  }
}
