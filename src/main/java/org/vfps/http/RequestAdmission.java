package org.vfps.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import java.util.Set;
import org.vfps.admission.Admission;

/**
 * The HTTP listener's side of admission control, the handler after the body handler: every request
 * but the probes takes a place from {@link Admission} once its body is in, when its work starts, so
 * that a slow sender holds none; it keeps the place until its response has ended (or its connection
 * closed). A request that finds none fails with {@code OVERLOADED}, which the failure handlers
 * answer 503 with {@code Retry-After} (an {@code OperationOutcome} on the FHIR routes, the JSON
 * error body elsewhere).
 */
final class RequestAdmission implements Handler<RoutingContext> {

  /** Answered whatever the load, so that an overloaded replica is not taken for a dead one. */
  private static final Set<String> PROBES = Set.of("/healthz", "/readyz", "/livez");

  private final Admission admission;

  RequestAdmission(Admission admission) {
    this.admission = admission;
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
    rc.addEndHandler(ended -> admission.endRequest());
    rc.next();
  }
}
