package org.vfps.auth;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.ServerSSLOptions;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.config.ConfigException;
import org.vfps.config.TimeSpans;
import org.vfps.config.TlsConfig;

/**
 * TLS of the listeners created through {@link #createHttpServer}: the certificate and key of the
 * {@link TlsConfig}, replaced without a restart when the files change.
 *
 * <p>Every reload interval the two files are read again (following symbolic links anew, so the
 * directory swap by which Kubernetes updates a mounted Secret is seen) and compared with the bytes
 * in use. New content that is a certificate with its own key is installed on every listener for the
 * connections that follow; open connections keep theirs. New content that is not (a file half
 * written, a key of another certificate) is logged once as a WARN and read again at the next check,
 * while the listeners keep the last good certificate. Thread-safe.
 */
public final class ServerTls {

  private static final Logger LOG = LoggerFactory.getLogger(ServerTls.class);
  private static final ServerTls OFF = new ServerTls(null, null, null);

  private final Vertx vertx;
  private final TlsConfig config;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();
  private volatile TlsCertificate current;
  // touched only by the checks, which run one at a time on the timer's event loop
  private boolean checking;
  private String reportedProblem;

  private record Listener(HttpServer server, ServerSSLOptions sslOptions) {}

  private ServerTls(Vertx vertx, TlsConfig config, TlsCertificate certificate) {
    this.vertx = vertx;
    this.config = config;
    this.current = certificate;
  }

  /** Plaintext listeners. */
  public static ServerTls off() {
    return OFF;
  }

  /**
   * Reads and checks the files of {@code config} and logs the certificate; blocking. Returns {@link
   * #off()} when TLS is not configured.
   *
   * @throws ConfigException naming the setting when a file is missing or unreadable, is not PEM, or
   *     the key does not belong to the certificate
   */
  public static ServerTls load(Vertx vertx, TlsConfig config) {
    if (!config.enabled()) {
      return OFF;
    }
    TlsCertificate certificate;
    try {
      certificate = TlsCertificate.parse(vertx, TlsCertificate.Pem.read(config));
    } catch (TlsCertificate.Unusable e) {
      throw new ConfigException(e.getMessage());
    }
    LOG.info(
        "TLS on for gRPC and HTTP (metrics stay plain): certificate {} from {}; the files are"
            + " checked for changes every {}",
        certificate.describe(),
        config.certificatePath().orElseThrow(),
        TimeSpans.format(config.reloadInterval()));
    warnUnlessValid(certificate);
    return new ServerTls(vertx, config, certificate);
  }

  /** Whether the listeners speak TLS. */
  public boolean enabled() {
    return current != null;
  }

  /**
   * A server with {@code options}, plus TLS with the current certificate when it is on; ALPN (for
   * h2) as {@code options} ask. Reloaded certificates reach the server once it listens.
   */
  public HttpServer createHttpServer(Vertx vertx, HttpServerOptions options) {
    TlsCertificate certificate = current;
    if (certificate == null) {
      return vertx.createHttpServer(options);
    }
    HttpServerOptions secured =
        new HttpServerOptions(options).setSsl(true).setKeyCertOptions(certificate.keyCertOptions());
    HttpServer server = vertx.createHttpServer(secured);
    listeners.add(new Listener(server, secured.getSslOptions().copy()));
    return server;
  }

  /**
   * Starts checking the files every reload interval; call once, when every listener listens. Does
   * nothing when TLS is off. The checks end when Vert.x closes.
   */
  public void startReloading() {
    if (!enabled()) {
      return;
    }
    vertx.setPeriodic(
        config.reloadInterval().toMillis(),
        id -> {
          if (!checking) {
            checking = true;
            checkFiles().onComplete(done -> checking = false);
          }
        });
  }

  /** Reads the files and installs what changed; never fails. */
  private Future<Void> checkFiles() {
    TlsCertificate installed = current;
    return vertx
        .executeBlocking(
            () -> {
              TlsCertificate.Pem pem = TlsCertificate.Pem.read(config);
              return installed.readFrom(pem)
                  ? Optional.<TlsCertificate>empty()
                  : Optional.of(TlsCertificate.parse(vertx, pem));
            })
        .compose(
            changed -> {
              if (changed.isEmpty()) {
                reportedProblem = null;
                return Future.succeededFuture();
              }
              return install(changed.get());
            })
        .recover(this::keepCurrent);
  }

  private Future<Void> install(TlsCertificate next) {
    return Future.all(
            listeners.stream()
                .map(
                    listener ->
                        listener
                            .server()
                            .updateSSLOptions(
                                listener
                                    .sslOptions()
                                    .copy()
                                    .setKeyCertOptions(next.keyCertOptions())))
                .toList())
        .map(
            updated -> {
              TlsCertificate previous = current;
              current = next;
              reportedProblem = null;
              LOG.info(
                  "TLS certificate replaced: now {} (was serial {})",
                  next.describe(),
                  previous.serial());
              warnUnlessValid(next);
              return null;
            });
  }

  private Future<Void> keepCurrent(Throwable failure) {
    String problem =
        failure instanceof TlsCertificate.Unusable
            ? failure.getMessage()
            : "the new certificate was not installed (" + failure + ")";
    if (!problem.equals(reportedProblem)) {
      reportedProblem = problem;
      LOG.warn(
          "The TLS files changed but are not used: {}. The listeners keep the certificate {}; the"
              + " files are read again every {}",
          problem,
          current.describe(),
          TimeSpans.format(config.reloadInterval()));
    }
    return Future.succeededFuture();
  }

  private static void warnUnlessValid(TlsCertificate certificate) {
    if (!certificate.validAt(Instant.now())) {
      LOG.warn(
          "The TLS certificate is not valid now (expired or not yet valid), clients will refuse"
              + " it: {}",
          certificate.describe());
    }
  }
}
