package org.vfps.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.PlainHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * An OIDC provider inside the test JVM: discovery and JWKS served by a Vert.x HTTP server on a port
 * fixed at construction (so a service can be pointed at it before it starts), RSA and EC signing
 * keys that the tests rotate, and tokens signed with nimbus-jose-jwt, the bad ones included. Not
 * started until {@link #start()}.
 */
public final class TestOidcProvider implements AutoCloseable {

  /** The audience the service is configured with. */
  public static final String AUDIENCE = "vfps";

  private final Vertx vertx = Vertx.vertx();
  private final int port;
  private final AtomicInteger keyRequests = new AtomicInteger();
  private volatile RSAKey signingKey = rsaKey();
  private volatile ECKey ecKey = ecKey();
  private HttpServer server;

  public TestOidcProvider() {
    try (ServerSocket socket = new ServerSocket(0)) {
      this.port = socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The issuer, which is also the authority to configure ({@code http}, so set the service's {@code
   * Authorization__RequireHttpsMetadata=false}).
   */
  public String issuer() {
    return "http://127.0.0.1:" + port + "/realms/test";
  }

  /** Serves discovery and keys; blocks until it listens. */
  public TestOidcProvider start() {
    server =
        vertx
            .createHttpServer()
            .requestHandler(
                request -> {
                  String path = request.path();
                  if (path.equals("/realms/test/.well-known/openid-configuration")) {
                    request
                        .response()
                        .putHeader("content-type", "application/json")
                        .end(
                            new JsonObject()
                                .put("issuer", issuer())
                                .put("jwks_uri", issuer() + "/protocol/openid-connect/certs")
                                .put("token_endpoint", issuer() + "/protocol/openid-connect/token")
                                .encode());
                  } else if (path.equals("/realms/test/protocol/openid-connect/certs")) {
                    keyRequests.incrementAndGet();
                    request
                        .response()
                        .putHeader("content-type", "application/json")
                        .end(publishedKeys().toString());
                  } else {
                    request.response().setStatusCode(404).end();
                  }
                });
    server.listen(port, "127.0.0.1").await();
    return this;
  }

  /** Stops serving; the port stays reserved for {@link #start()}. */
  public void stop() {
    server.close().await();
  }

  /** How many times the key set was fetched. */
  public int keyRequests() {
    return keyRequests.get();
  }

  /**
   * Replaces both signing keys with new ones (new key ids); the old ones are no longer published.
   */
  public void rotate() {
    signingKey = rsaKey();
    ecKey = ecKey();
  }

  /** A token for the subject with the roles, signed RS256, valid for five minutes. */
  public String token(String subject, String... roles) {
    return token(claims(subject, roles).build());
  }

  /** A token with these claims, signed RS256 with the current key. */
  public String token(JWTClaimsSet claims) {
    return sign(claims, JWSAlgorithm.RS256, signingKey.getKeyID(), rsaSigner(signingKey));
  }

  /** A token with changed claims, e.g. {@code c -> c.expirationTime(...)}. */
  public String token(String subject, UnaryOperator<JWTClaimsSet.Builder> change) {
    return token(change.apply(claims(subject, "vfps-admin")).build());
  }

  /** A token signed ES256 with the current EC key. */
  public String ecToken(String subject, String... roles) {
    try {
      return sign(
          claims(subject, roles).build(),
          JWSAlgorithm.ES256,
          ecKey.getKeyID(),
          new ECDSASigner(ecKey));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A token signed by a key the provider never published, under a key id it does not know. */
  public String tokenOfAnUnknownKey(String subject, String... roles) {
    RSAKey stranger = rsaKey();
    return sign(
        claims(subject, roles).build(),
        JWSAlgorithm.RS256,
        stranger.getKeyID(),
        rsaSigner(stranger));
  }

  /** An unsigned token ({@code alg: none}). */
  public String unsignedToken(String subject, String... roles) {
    return new PlainJWT(new PlainHeader(), claims(subject, roles).build()).serialize();
  }

  /**
   * A token signed HS256 with the provider's public RSA key as the HMAC secret, under its key id:
   * the key confusion attack.
   */
  public String hmacTokenWithThePublicKey(String subject, String... roles) {
    try {
      byte[] publicKey = signingKey.toRSAPublicKey().getEncoded();
      return sign(
          claims(subject, roles).build(),
          JWSAlgorithm.HS256,
          signingKey.getKeyID(),
          new MACSigner(publicKey));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The claims of a good token: issuer, audience, subject, roles, five minutes of validity. */
  public JWTClaimsSet.Builder claims(String subject, String... roles) {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder()
        .issuer(issuer())
        .audience(AUDIENCE)
        .subject(subject)
        .issueTime(Date.from(now))
        .expirationTime(Date.from(now.plusSeconds(300)))
        .claim("roles", List.of(roles));
  }

  @Override
  public void close() {
    vertx.close().await();
  }

  private JWKSet publishedKeys() {
    List<JWK> keys = List.of(signingKey.toPublicJWK(), ecKey.toPublicJWK());
    return new JWKSet(keys);
  }

  private static String sign(
      JWTClaimsSet claims, JWSAlgorithm algorithm, String keyId, JWSSigner signer) {
    SignedJWT jwt =
        new SignedJWT(
            new JWSHeader.Builder(algorithm).keyID(keyId).type(JOSEObjectType.JWT).build(), claims);
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    return jwt.serialize();
  }

  private static JWSSigner rsaSigner(RSAKey key) {
    try {
      return new RSASSASigner(key);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static RSAKey rsaKey() {
    try {
      return new RSAKeyGenerator(2048)
          .keyID("rsa-" + UUID.randomUUID())
          .keyUse(KeyUse.SIGNATURE)
          .algorithm(JWSAlgorithm.RS256)
          .generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ECKey ecKey() {
    try {
      return new ECKeyGenerator(Curve.P_256)
          .keyID("ec-" + UUID.randomUUID())
          .keyUse(KeyUse.SIGNATURE)
          .algorithm(JWSAlgorithm.ES256)
          .generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }
}
