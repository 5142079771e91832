package org.vfps.http;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.vfps.access.Caller;
import org.vfps.admission.Admission;
import org.vfps.admission.CallDeadline;
import org.vfps.admission.ReplyBytes;

/**
 * The HTTP listener's side of admission control and deadlines. A handler after the body handler
 * gives every request but the probes its deadline and its reply bytes once its body is in; the
 * request takes its place from {@link Admission} later, once its caller is authenticated and
 * entitled ({@link #admit}, which {@link Authentication} calls), as a place of that caller, so that
 * neither a slow sender nor a caller without valid credentials or without any right holds one. It
 * keeps the place until its response has ended (or its connection closed). A request that finds
 * none, the replica's or its caller's share, fails with {@code OVERLOADED}, which the failure
 * handlers answer 503 with {@code Retry-After} (an {@code OperationOutcome} on the FHIR routes, the
 * JSON error body elsewhere). What never authenticates (the API docs, the admin UI's pages and
 * sign-in, the FHIR metadata) takes no place.
 *
 * <p>A request gets a {@link CallDeadline} of {@code Http__RequestTimeout} on its context, as a
 * gRPC call gets one from its {@code grpc-timeout}: the storage does not start work for it once the
 * deadline has passed, and at the deadline a request still unanswered fails with {@code
 * DEADLINE_EXCEEDED} (504), or, when its answer has begun (a streamed list), is broken off. The
 * handlers that answer later find the response ended and leave it. Costs one timer per request.
 *
 * <p>A request also gets its {@link ReplyBytes} on its context: the storage reserves in them the
 * rows it reads for the reply (a lookup that outgrows {@code Admission__MaxReplyBytes} fails with
 * {@code OVERLOADED}, answered 503 as above), and they are given back when the response has ended
 * or the connection closed.
 */
final class RequestAdmission implements Handler<RoutingContext> {

  /** Answered whatever the load, so that an overloaded replica is not taken for a dead one. */
  private static final Set<String> PROBES = Set.of("/healthz", "/readyz", "/livez");

  /** Where a request's {@link Place} is kept. */
  private static final String PLACE = "vfps.admission.place";

  private final Admission admission;
  private final long timeoutMillis;

  /**
   * @param timeout the deadline of each request once its body is in; zero for none
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
    CallDeadline deadline =
        CallDeadline.begin(
            Vertx.currentContext(),
            System.nanoTime(),
            timeoutMillis == 0 ? -1 : timeoutMillis * 1_000_000);
    ReplyBytes bytes = ReplyBytes.begin(Vertx.currentContext(), admission);
    long timer = timeoutMillis == 0 ? -1 : rc.vertx().setTimer(timeoutMillis, at -> expire(rc));
    Place place = new Place();
    rc.put(PLACE, place);
    rc.addEndHandler(
        ended -> {
          if (timer >= 0) {
            rc.vertx().cancelTimer(timer);
          }
          // answered or left: whatever is still queued for the request goes unsent
          deadline.abandon();
          bytes.release();
          place.end();
        });
    rc.next();
  }

  /**
   * Takes the request's place in {@link Admission} as a place of {@code caller}, once; fails with
   * {@code OVERLOADED} when there is none, and with {@code DEADLINE_EXCEEDED} when the request has
   * ended already (its answer is not sent anyway).
   */
  Future<Caller> admit(RoutingContext rc, Caller caller) {
    Place place = rc.get(PLACE);
    return place.admit(caller);
  }

  /** The place of one request, taken once its caller is known; used on the request's context. */
  private final class Place {

    /** The key of the caller whose place the request holds; null while it holds none. */
    private Object holder;

    private boolean ended;

    Future<Caller> admit(Caller caller) {
      if (ended) {
        return Future.failedFuture(CallDeadline.exceeded());
      }
      if (holder == null) {
        Object key = caller.admissionKey();
        Optional<Admission.Limit> refusal = admission.tryStartRequest(key);
        if (refusal.isPresent()) {
          return Future.failedFuture(Admission.overloaded(refusal.get()));
        }
        holder = key;
      }
      return Future.succeededFuture(caller);
    }

    void end() {
      ended = true;
      if (holder != null) {
        admission.endRequest(holder);
        holder = null;
      }
    }
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
