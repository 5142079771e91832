package org.vfps.voprf.server;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.TrustOptions;
import io.vertx.grpc.health.HealthService;
import io.vertx.grpc.reflection.ReflectionService;
import io.vertx.grpc.server.GrpcProtocol;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerOptions;
import java.util.concurrent.TimeUnit;
import org.vfps.api.voprf.v1.VoprfServiceGrpcService;
import org.vfps.audit.AuditChain;
import org.vfps.auth.ServerTls;
import org.vfps.config.ConfigException;
import org.vfps.config.VoprfServerConfig;
import org.vfps.voprf.ServerKey;

/**
 * The running VOPRF server: one gRPC listener (HTTP/2; TLS when the Kestrel certificate files are
 * set, reloaded as vfps reloads them) serving {@code vfps.voprf.v1.VoprfService}, {@code
 * grpc.health.v1.Health} and, when enabled, server reflection.
 *
 * <p>Health answers {@code SERVING} for {@code ""} and {@code vfps.voprf.v1.VoprfService} without
 * authentication, so a probe needs no credentials (over TLS it still needs TLS; Kubernetes' gRPC
 * probe speaks clear text only, so with TLS use an exec probe such as {@code grpcurl -insecure}).
 * Reflection needs no authentication either; it is off by default.
 *
 * <p>With client certificates, the TLS handshake asks for a certificate but accepts any (and none);
 * each VOPRF call then checks the certificate's thumbprint, and one not allowed, or none, is
 * answered {@code UNAUTHENTICATED}. The handshake still proves the client holds the certificate's
 * key.
 */
public final class VoprfServer {

  private static final long SHUTDOWN_MILLIS = 5_000;

  private final HttpServer server;
  private final VoprfServerConfig config;
  private final ServerTls tls;
  private final ServerKey key;
  private final AuditChain auditChain;
  private final Vertx vertx;

  private VoprfServer(
      Vertx vertx,
      HttpServer server,
      VoprfServerConfig config,
      ServerTls tls,
      ServerKey key,
      AuditChain auditChain) {
    this.vertx = vertx;
    this.auditChain = auditChain;
    this.server = server;
    this.tls = tls;
    this.key = key;
    this.config = config;
  }

  /**
   * Starts the server on {@code vertx}; the future fails with a {@link ConfigException} when a TLS
   * file is unusable, or with the listener's failure (a port in use). With JWTs, it listens once
   * the first load of the provider's keys was tried; their refresh ends with Vert.x. Logs nothing
   * of the key.
   */
  public static Future<VoprfServer> start(Vertx vertx, VoprfServerConfig config) {
    return vertx
        .executeBlocking(() -> ServerTls.load(vertx, config.tls()))
        .compose(
            tls ->
                authentication(vertx, config)
                    .compose(authentication -> listen(vertx, config, tls, authentication)));
  }

  private static Future<CallAuthentication> authentication(Vertx vertx, VoprfServerConfig config) {
    if (!config.authenticates()) {
      return Future.succeededFuture(CallAuthentication.OFF);
    }
    return switch (config.authentication().mode()) {
      case CLIENT_CERTIFICATE ->
          Future.succeededFuture(
              new ClientCertificates(config.authentication().allowedThumbprints()));
      case JWT -> JwtBearer.start(vertx, config.authentication().jwt(), !config.development());
    };
  }

  private static Future<VoprfServer> listen(
      Vertx vertx, VoprfServerConfig config, ServerTls tls, CallAuthentication authentication) {
    VoprfServerConfig.Hardening hardening = config.hardening();
    ServerKey key = ConfiguredKey.of(config.key());
    AuditChain auditChain = AuditChain.start(config.logging().auditChain());
    boolean clientCertificates = authentication instanceof ClientCertificates;
    GrpcServer grpc =
        GrpcServer.server(
            vertx,
            new GrpcServerOptions()
                .removeEnabledProtocol(GrpcProtocol.TRANSCODING)
                .setMaxMessageSize(hardening.maxReceiveMessageSizeBytes()));
    grpc.addService(
        new VoprfGrpcService(
            vertx,
            key,
            config.key().keyId(),
            config.maxBatchSize(),
            hardening.maxReceiveMessageSizeBytes(),
            authentication,
            config.rateLimited()
                ? new FixedWindowRateLimit(
                    hardening.rateLimit().permitsPerWindow(),
                    hardening.rateLimit().window(),
                    System::nanoTime)
                : null,
            hardening.enableDetailedErrors(),
            auditChain));
    grpc.addService(
        HealthService.create(vertx)
            .register(VoprfServiceGrpcService.SERVICE_NAME, () -> Future.succeededFuture(true)));
    if (hardening.enableReflection()) {
      grpc.addService(ReflectionService.v1());
    }
    HttpServerOptions options =
        new HttpServerOptions().setPort(config.port()).setHost("0.0.0.0").setUseAlpn(true);
    if (clientCertificates) {
      options
          .setClientAuth(ClientAuth.REQUEST)
          .setTrustOptions(TrustOptions.wrap(ClientCertificates.ACCEPT_ANY));
    }
    HttpServer server = tls.createHttpServer(vertx, options).requestHandler(grpc);
    return server
        .listen()
        .map(
            listening -> {
              tls.startReloading();
              return new VoprfServer(vertx, listening, config, tls, key, auditChain);
            })
        .onFailure(failure -> auditChain.close());
  }

  /** Whether it listens over TLS. */
  public boolean tls() {
    return tls.enabled();
  }

  /** The port it listens on (the one chosen when configured as 0). */
  public int port() {
    return server.actualPort();
  }

  /** The key id echoed on every answer. */
  public String keyId() {
    return config.key().keyId();
  }

  /** The serialized public key, 32 bytes: a copy. */
  public byte[] publicKey() {
    return key.publicKey();
  }

  /**
   * Stops taking calls; the calls in flight get up to 5 s to finish. Then the audit trail's last
   * checkpoint is written.
   */
  public Future<Void> close() {
    return server
        .shutdown(SHUTDOWN_MILLIS, TimeUnit.MILLISECONDS)
        .eventually(
            () ->
                vertx.executeBlocking(
                    () -> {
                      auditChain.close();
                      return null;
                    }));
  }
}
