package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

class EventLoopCallsTest {

  private final Vertx vertx = Vertx.vertx();
  private final Context context = vertx.getOrCreateContext();
  private final EventLoopCalls calls = new EventLoopCalls(context);

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void runsTheCallOnTheEventLoopAndHandsItsResultToTheWorker() {
    String thread =
        calls.await(
            () ->
                Future.succeededFuture(
                    Context.isOnEventLoopThread() + " " + Thread.currentThread().getName()));

    assertThat(thread).startsWith("true vert.x-eventloop-thread-");
  }

  @Test
  void rethrowsAFailureAsItWas() {
    ServiceException refusal = new ServiceException(ErrorCode.NOT_FOUND, "no namespace");

    assertThatThrownBy(() -> calls.await(() -> Future.failedFuture(refusal))).isSameAs(refusal);
  }

  @Test
  void rethrowsWhatTheCallThrowsBeforeItReturnsAFuture() {
    IllegalArgumentException thrown = new IllegalArgumentException("bad");

    assertThatThrownBy(
            () ->
                calls.await(
                    () -> {
                      throw thrown;
                    }))
        .isSameAs(thrown);
  }

  @Test
  void joinUnwrapsTheFailureOfADependentStage() {
    ServiceException refusal = new ServiceException(ErrorCode.UNAVAILABLE, "away");
    CompletableFuture<String> failed = calls.<String>submit(() -> Future.failedFuture(refusal));

    assertThatThrownBy(() -> EventLoopCalls.join(failed.thenApply(value -> value + "!")))
        .isSameAs(refusal);
  }

  @Test
  void anInterruptedWaitSaysSoAndKeepsTheInterrupt() {
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> EventLoopCalls.join(new CompletableFuture<>()))
          .isInstanceOf(EventLoopCalls.Interrupted.class);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
  }
}
