package org.vfps.config;

import java.net.URI;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The configuration of the VOPRF server ({@code java -jar vfps.jar voprf-server}), loaded by {@link
 * VoprfServerSettings}: section {@code VoprfServer}, plus {@code Grpc__Port}, the {@code
 * Kestrel__Certificates__Default__*} TLS files and {@code Logging__Format}. Validated at load, so a
 * record that exists is one the server can start with; {@link #toString()} holds no secret.
 *
 * @param key the one key this server evaluates with
 * @param maxBatchSize the most blinded elements one call may carry ({@code
 *     VoprfServer__MaxBatchSize})
 * @param port the gRPC port; 0 for any free one ({@code Grpc__Port})
 * @param tls the PEM certificate and key of the listener, when set
 * @param hardening what the server enforces ({@code VoprfServer__Hardening__*})
 * @param authentication how callers prove who they are ({@code VoprfServer__Authentication__*});
 *     enforced only where {@link #authenticates()}
 * @param logging the log line format
 * @param development whether {@code ASPNETCORE_ENVIRONMENT} (else {@code DOTNET_ENVIRONMENT}) is
 *     {@code Development}
 */
public record VoprfServerConfig(
    Key key,
    int maxBatchSize,
    int port,
    TlsConfig tls,
    Hardening hardening,
    Authentication authentication,
    LoggingConfig logging,
    boolean development) {

  /** Where the key comes from ({@code VoprfServer__Key__Source}). */
  public enum KeySource {
    /** RFC 9497 {@code DeriveKeyPair(seed, UTF-8(KeyId))} of {@code VoprfServer__Key__Seed}. */
    SEED,
    /** The base64 secret scalar in the file {@code VoprfServer__Key__FilePath}. */
    FILE,
    /** The base64 secret scalar {@code VoprfServer__Key__Base64}. */
    BASE64,
    /** A random key for this run: development only. */
    EPHEMERAL
  }

  /** How callers authenticate ({@code VoprfServer__Authentication__Mode}). */
  public enum AuthenticationMode {
    /** A TLS client certificate whose thumbprint is allowed. */
    CLIENT_CERTIFICATE,
    /** A bearer JWT of the OIDC provider, for the audience, with the scope. */
    JWT
  }

  /**
   * The server's key, as configured; the server builds the key pair from it.
   *
   * @param keyId the generation name, echoed on every answer; 1-64 of {@code [A-Za-z0-9_-]}
   * @param material for {@link KeySource#SEED} the seed (32 bytes or more, the {@code
   *     DeriveKeyPair} seed; the info is UTF-8 of the key id), for {@link KeySource#FILE} and
   *     {@link KeySource#BASE64} the secret scalar (32 bytes, little-endian, non-zero, below the
   *     group order), for {@link KeySource#EPHEMERAL} empty; never printed
   */
  public record Key(KeySource source, String keyId, byte[] material) {

    public Key {
      Objects.requireNonNull(source, "source");
      Objects.requireNonNull(keyId, "keyId");
      material = material.clone();
    }

    /** The material: a copy. */
    @Override
    public byte[] material() {
      return material.clone();
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Key key
          && source == key.source
          && keyId.equals(key.keyId)
          && MessageDigest.isEqual(material, key.material);
    }

    @Override
    public int hashCode() {
      return Objects.hash(source, keyId, Arrays.hashCode(material));
    }

    @Override
    public String toString() {
      return "Key[source=" + source + ", keyId=" + keyId + "]";
    }
  }

  /**
   * What the server enforces while hardened; with {@code enabled} false (Development only) it
   * serves without authentication or rate limit, and in clear text unless the TLS files are set.
   * {@code enableReflection}, {@code enableDetailedErrors} and {@code maxReceiveMessageSizeBytes}
   * apply either way.
   *
   * @param requireTls the start fails unless the TLS files are set
   * @param requireAuthentication every VOPRF call must authenticate
   * @param enableReflection gRPC server reflection is served
   * @param enableDetailedErrors an internal error's answer carries the exception's message
   * @param maxReceiveMessageSizeBytes the largest request message read; larger is {@code
   *     RESOURCE_EXHAUSTED}
   */
  public record Hardening(
      boolean enabled,
      boolean requireTls,
      boolean requireAuthentication,
      boolean enableReflection,
      boolean enableDetailedErrors,
      int maxReceiveMessageSizeBytes,
      RateLimit rateLimit) {

    public Hardening {
      Objects.requireNonNull(rateLimit, "rateLimit");
    }
  }

  /**
   * A fixed window over all VOPRF calls of the server: at most {@code permitsPerWindow} calls per
   * {@code window}, the rest refused at once.
   */
  public record RateLimit(boolean enabled, int permitsPerWindow, Duration window) {

    public RateLimit {
      Objects.requireNonNull(window, "window");
    }
  }

  /**
   * How callers authenticate.
   *
   * @param allowedThumbprints the client certificates allowed: lower-case hex SHA-1 (40 digits) or
   *     SHA-256 (64 digits) of the DER certificate; unmodifiable
   */
  public record Authentication(AuthenticationMode mode, List<String> allowedThumbprints, Jwt jwt) {

    public Authentication {
      Objects.requireNonNull(mode, "mode");
      allowedThumbprints = List.copyOf(allowedThumbprints);
      Objects.requireNonNull(jwt, "jwt");
    }
  }

  /**
   * The bearer token checks of {@link AuthenticationMode#JWT}.
   *
   * @param authority the OIDC issuer, whose discovery document names the signing keys; empty unless
   *     the mode is JWT
   * @param audience a token's {@code aud} must name it
   * @param requiredScope a token's {@code scope} (space-separated) or {@code scp} must hold it
   */
  public record Jwt(Optional<URI> authority, String audience, String requiredScope) {

    public Jwt {
      Objects.requireNonNull(authority, "authority");
      Objects.requireNonNull(audience, "audience");
      Objects.requireNonNull(requiredScope, "requiredScope");
    }
  }

  public VoprfServerConfig {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(hardening, "hardening");
    Objects.requireNonNull(authentication, "authentication");
    Objects.requireNonNull(logging, "logging");
  }

  /** Whether every VOPRF call must authenticate: hardened, with authentication required. */
  public boolean authenticates() {
    return hardening.enabled() && hardening.requireAuthentication();
  }

  /** Whether the rate limit applies: hardened, with the limit enabled. */
  public boolean rateLimited() {
    return hardening.enabled() && hardening.rateLimit().enabled();
  }
}
