package org.vfps.log;

import io.vertx.core.Vertx;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.vfps.config.LoggingConfig;
import org.vfps.error.ServiceException;

/**
 * The WARN lines of the API edges (gRPC, REST, FHIR) about calls they could not serve, each kind
 * throttled to one line per {@value #INTERVAL_SECONDS} s: a call that failed {@code UNAVAILABLE}
 * (the database cannot be reached), and a request the edge cannot read (a broken client, not a
 * user's bad value). The first line of a burst is written at once and names the call; then one line
 * per interval counts the rest, e.g. {@code 6,512 more calls failed UNAVAILABLE in the last 10 s}.
 * One per server, so that each server's first line is its own. Never logs a request's content.
 * Thread-safe.
 *
 * <p>{@link #failed} is the edges' one policy for a failed call: a bug (an unexpected throwable or
 * {@code INTERNAL}) at ERROR with its cause, {@code UNAVAILABLE} throttled here, the client's
 * matter as one line per request ({@link #rejected}) at the level of {@code Logging__ClientErrors}.
 */
public final class EdgeWarnings {

  private static final Logger LOG = LoggerFactory.getLogger(EdgeWarnings.class);
  private static final long INTERVAL_SECONDS = 10;

  private final ThrottledWarning unavailable;
  private final ThrottledWarning malformed;
  private final Level clientErrors;

  /** The warnings of a server running on {@code vertx}, whose timers write the summary lines. */
  public EdgeWarnings(Vertx vertx, LoggingConfig.ClientErrors clientErrors) {
    this(vertx, Duration.ofSeconds(INTERVAL_SECONDS), clientErrors);
  }

  EdgeWarnings(Vertx vertx, Duration interval) {
    this(vertx, interval, LoggingConfig.ClientErrors.DEBUG);
  }

  EdgeWarnings(Vertx vertx, Duration interval, LoggingConfig.ClientErrors clientErrors) {
    this.clientErrors = clientErrors == LoggingConfig.ClientErrors.INFO ? Level.INFO : Level.DEBUG;
    this.unavailable = new ThrottledWarning(vertx, LOG, interval, "calls failed UNAVAILABLE");
    this.malformed = new ThrottledWarning(vertx, LOG, interval, "malformed requests rejected");
  }

  /**
   * A call answered {@code UNAVAILABLE}: names the call, the failure's message and its cause's
   * class (never the cause's message, which may quote a value).
   *
   * @param call e.g. {@code vfps.api.v1.PseudonymService/Create} or {@code POST createPseudonym}
   */
  public void unavailable(String call, ServiceException failure) {
    Throwable cause = failure.getCause();
    unavailable.warn(
        "{} failed: {} ({})",
        call,
        failure.getMessage(),
        cause == null ? "no cause" : cause.getClass().getSimpleName());
  }

  /**
   * Logs a failed call by the policy of every edge, on the edge's own logger: an unexpected
   * throwable at ERROR with its stack trace; a {@link ServiceException} of {@code INTERNAL} at
   * ERROR with its cause; {@code UNAVAILABLE} through {@link #unavailable}; any other code, the
   * client's matter, at debug.
   *
   * @param log the edge's logger
   * @param call e.g. {@code vfps.api.v1.PseudonymService/Create} or {@code POST createPseudonym}
   */
  public void failed(Logger log, String call, Throwable failure) {
    if (!(failure instanceof ServiceException service)) {
      log.error("{} failed unexpectedly", call, failure);
      return;
    }
    switch (service.code()) {
      case INTERNAL -> log.error("{} failed: {}", call, service.getMessage(), service.getCause());
      case UNAVAILABLE -> unavailable(call, service);
      default -> rejected(log, call, service.code().name());
    }
  }

  /**
   * A request that the client's error ended: one line {@code <call> rejected: <outcome>} on the
   * edge's logger, at DEBUG or INFO ({@code Logging__ClientErrors}). The outcome is a status or an
   * error code; never the request's content, the answer's message or a namespace it names, which
   * are the client's text, where a careless client may have put an original value.
   *
   * @param call e.g. {@code vfps.api.v1.PseudonymService/Create} or {@code POST createPseudonym}
   * @param outcome e.g. {@code NOT_FOUND} or {@code 400 INVALID_ARGUMENT}
   */
  public void rejected(Logger log, String call, String outcome) {
    log.atLevel(clientErrors).log("{} rejected: {}", call, outcome);
  }

  /**
   * A request rejected because the edge cannot read it.
   *
   * @param request what was rejected, e.g. {@code gRPC call of vfps.api.v1.NamespaceService/Get}
   * @param problem what is wrong, in words of the service's own (never the client's bytes)
   */
  public void malformed(String request, String problem) {
    malformed.warn("Rejected a malformed {}: {}", request, problem);
  }

  /** Writes the summary lines still pending; at the server's close, before Vert.x closes. */
  public void close() {
    unavailable.close();
    malformed.close();
  }
}
