package org.vfps.http;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.Set;
import org.vfps.admission.Admission;
import org.vfps.admission.CallDeadline;
import org.vfps.admission.ReplyBytes;

/**
 * The HTTP listener's side of admission control and deadlines, the handler after the body handler:
 * every request but the probes takes a place from {@link Admission} once its body is in, when its
 * work starts, so that a slow sender holds none; it keeps the place until its response has ended
 * (or its connection closed). A request that finds none fails with {@code OVERLOADED}, which the
 * failure handlers answer 503 with {@code Retry-After} (an {@code OperationOutcome} on the FHIR
 * routes, the JSON error body elsewhere).
 *
 * <p>An admitted request gets a {@link CallDeadline} of {@code Http__RequestTimeout} on its
 * context, as a gRPC call gets one from its {@code grpc-timeout}: the storage does not start work
 * for it once the deadline has passed, and at the deadline a request still unanswered fails with
 * {@code DEADLINE_EXCEEDED} (504), or, when its answer has begun (a streamed list), is broken off.
 * The handlers that answer later find the response ended and leave it. Costs one timer per request.
 *
 * <p>An admitted request also gets its {@link ReplyBytes} on its context: the storage reserves in
 * them the rows it reads for the reply (a lookup that outgrows {@code Admission__MaxReplyBytes}
 * fails with {@code OVERLOADED}, answered 503 as above), and they are given back when the response
 * has ended or the connection closed.
 */
final class RequestAdmission implements Handler<RoutingContext> {

  /** Answered whatever the load, so that an overloaded replica is not taken for a dead one. */
  private static final Set<String> PROBES = Set.of("/healthz", "/readyz", "/livez");

  private final Admission admission;
  private final long timeoutMillis;

  /**
   * @param timeout the deadline of each request from its admission; zero for none
   */
  RequestAdmission(Admission admission, Duration timeout) {
    this.admission = admission;
    this.timeoutMillis = timeout.isZero() ? 0 : Math.max(1, timeout.toMillis());
  }

  @Override
  public void handle(RoutingContext rc) {
    if (PROBES.contains(rc.normalizedPath())) {
      rc.next();
      return;
    }
    if (!admission.tryStartRequest()) {
      rc.fail(Admission.overloaded(Admission.Limit.CONCURRENT_REQUESTS));
      return;
    }
    CallDeadline deadline =
        CallDeadline.begin(
            Vertx.currentContext(),
            System.nanoTime(),
            timeoutMillis == 0 ? -1 : timeoutMillis * 1_000_000);
    ReplyBytes bytes = ReplyBytes.begin(Vertx.currentContext(), admission);
    long timer = timeoutMillis == 0 ? -1 : rc.vertx().setTimer(timeoutMillis, at -> expire(rc));
    rc.addEndHandler(
        ended -> {
          if (timer >= 0) {
            rc.vertx().cancelTimer(timer);
          }
          // answered or left: whatever is still queued for the request goes unsent
          deadline.abandon();
          bytes.release();
          admission.endRequest();
        });
    rc.next();
  }

  /** Answers a request whose deadline has passed, unless it has been answered. */
  private static void expire(RoutingContext rc) {
    HttpServerResponse response = rc.response();
    if (response.ended() || response.closed()) {
      return;
    }
    if (response.headWritten()) {
      // a streamed answer: a reset tells the client it is incomplete
      response.reset();
      return;
    }
    rc.fail(CallDeadline.exceeded());
  }

  /** Whether the request was answered already, at its deadline: a later answer is dropped. */
  static boolean answered(RoutingContext rc) {
    return rc.response().ended();
  }
}
