package org.vfps.voprf.server;

import io.vertx.core.Future;
import io.vertx.grpc.server.GrpcServerRequest;

/**
 * Who makes a call: the caller's name for the audit line, or a {@link RefusedVoprfCall} with {@code
 * UNAUTHENTICATED} (no or bad credentials), {@code PERMISSION_DENIED} (valid, but not allowed) or
 * {@code UNAVAILABLE} (the credentials cannot be checked now). Called on the call's event loop;
 * never blocks.
 */
interface CallAuthentication {

  /** The caller's name where authentication is off. */
  String ANONYMOUS = "anonymous";

  /** Everyone is {@value #ANONYMOUS}. */
  CallAuthentication OFF = call -> Future.succeededFuture(ANONYMOUS);

  Future<String> caller(GrpcServerRequest<?, ?> call);
}
