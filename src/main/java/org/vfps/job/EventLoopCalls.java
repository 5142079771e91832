package org.vfps.job;

import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * The bridge between a job's worker thread and the event loop its calls run on: the pseudonym
 * service and the repositories answer with {@link Future}s on an event loop, while a job runs on a
 * worker thread that may block.
 */
final class EventLoopCalls {

  private final Context context;

  /** Calls run on {@code context}, an event loop's. */
  EventLoopCalls(Context context) {
    this.context = context;
  }

  /**
   * The call's result, waited for on this (worker) thread; the call runs on the event loop. A
   * failure is rethrown as it was; an interrupted wait throws {@link Interrupted}.
   */
  <T> T await(Supplier<Future<T>> call) {
    return join(submit(call));
  }

  /** Sends the call on the event loop; its result arrives there. */
  <T> CompletableFuture<T> submit(Supplier<Future<T>> call) {
    CompletableFuture<T> result = new CompletableFuture<>();
    context.runOnContext(
        ignored -> {
          try {
            call.get()
                .onComplete(
                    done -> {
                      if (done.succeeded()) {
                        result.complete(done.result());
                      } else {
                        result.completeExceptionally(done.cause());
                      }
                    });
          } catch (RuntimeException e) {
            result.completeExceptionally(e);
          }
        });
    return result;
  }

  /**
   * The result, waited for on this thread; a failure is rethrown as it was, an interrupted wait
   * throws {@link Interrupted}.
   */
  static <T> T join(CompletableFuture<T> result) {
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Interrupted();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      while (cause instanceof CompletionException && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(cause);
    }
  }

  /** The worker's thread was interrupted: its replica stops at once. */
  static final class Interrupted extends RuntimeException {
    Interrupted() {
      super("interrupted", null, false, false);
    }
  }
}
