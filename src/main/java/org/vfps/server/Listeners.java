package org.vfps.server;

import io.vertx.core.Deployable;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.net.BindException;
import java.util.Iterator;
import java.util.List;

/** Deploys the verticles of one listener and waits for them to listen. */
final class Listeners {

  /** One verticle instance per event loop, as Vert.x sizes its event loop pool. */
  static final int PER_EVENT_LOOP = VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE;

  private Listeners() {}

  /**
   * Deploys {@code verticles} as the instances of one deployment and yields them once they listen;
   * a port another process holds fails it with a {@link StartupException} that names the port and
   * its key.
   */
  static <V extends Deployable> Future<List<V>> deploy(
      Vertx vertx, String listener, String key, int port, List<V> verticles) {
    // the supplier is asked once per instance, on this thread
    Iterator<V> instances = verticles.iterator();
    return vertx
        .deployVerticle(instances::next, new DeploymentOptions().setInstances(verticles.size()))
        .recover(
            failure ->
                Future.failedFuture(
                    isBindFailure(failure) ? portInUse(listener, key, port) : failure))
        .map(deployed -> verticles);
  }

  /** The refusal of a start whose {@code listener} cannot have {@code port}: no stack trace. */
  static StartupException portInUse(String listener, String key, int port) {
    return new StartupException(
        "The "
            + listener
            + " port "
            + port
            + " is in use by another process; stop it or set "
            + key
            + " to a free port",
        // no stack trace: a port in use is the operator's matter, not a bug
        null);
  }

  /** Whether {@code failure} or one of its causes is a port another process holds. */
  static boolean isBindFailure(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof BindException
          || String.valueOf(cause.getMessage()).contains("Address already in use")) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }
}
