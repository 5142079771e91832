package org.vfps.voprf.server;

import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.vfps.config.VoprfServerConfig;
import org.vfps.config.VoprfServerSettings;

/**
 * A VOPRF server inside the test JVM, on its own Vert.x, configured as the server process is (the
 * environment-variable-style keys through {@link VoprfServerSettings}). By default: Development,
 * hardening off (clear text, no authentication, no rate limit), a fixed seed ({@link #SEED}), key
 * id {@link #KEY_ID}, any free port. Close it after use.
 */
public final class TestVoprfServer implements AutoCloseable {

  /** The default test seed: base64 of 32 fixed bytes. */
  public static final String SEED =
      Base64.getEncoder()
          .encodeToString("vfps VOPRF test seed, 32 bytes!!".getBytes(StandardCharsets.US_ASCII));

  /** The default key id. */
  public static final String KEY_ID = "test-key";

  private final Vertx vertx;
  private final VoprfServer server;

  private TestVoprfServer(Vertx vertx, VoprfServer server) {
    this.vertx = vertx;
    this.server = server;
  }

  /** The default settings, to start from and change. */
  public static Map<String, String> defaults() {
    Map<String, String> settings = new HashMap<>();
    settings.put("ASPNETCORE_ENVIRONMENT", "Development");
    settings.put("VoprfServer__Hardening__IsEnabled", "false");
    settings.put("VoprfServer__Key__Source", "Seed");
    settings.put("VoprfServer__Key__Seed", SEED);
    settings.put("VoprfServer__Key__KeyId", KEY_ID);
    settings.put("Grpc__Port", "0");
    return settings;
  }

  /** A server with the default settings. */
  public static TestVoprfServer start() {
    return start(Map.of());
  }

  /** A server with the default settings and the seed (base64 of 32+ bytes) and key id given. */
  public static TestVoprfServer start(String seedBase64, String keyId) {
    return start(Map.of("VoprfServer__Key__Seed", seedBase64, "VoprfServer__Key__KeyId", keyId));
  }

  /**
   * A server with the default settings overlaid by {@code settings} (keys as environment variables,
   * e.g. {@code VoprfServer__MaxBatchSize}); waits at most 20 s for it to listen.
   *
   * @throws org.vfps.config.ConfigException when a setting is invalid
   */
  public static TestVoprfServer start(Map<String, String> settings) {
    Map<String, String> environment = defaults();
    environment.putAll(settings);
    VoprfServerConfig config = VoprfServerSettings.read(environment, Optional.empty()).config();
    Vertx vertx = Vertx.vertx();
    try {
      VoprfServer server = VoprfServer.start(vertx, config).timeout(20, TimeUnit.SECONDS).await();
      return new TestVoprfServer(vertx, server);
    } catch (RuntimeException e) {
      vertx.close().await();
      throw e;
    }
  }

  /** The port it listens on, on all interfaces (connect to 127.0.0.1). */
  public int port() {
    return server.port();
  }

  /** Its serialized public key, 32 bytes. */
  public byte[] publicKey() {
    return server.publicKey();
  }

  /** Its key id. */
  public String keyId() {
    return server.keyId();
  }

  /** The server itself. */
  public VoprfServer server() {
    return server;
  }

  @Override
  public void close() {
    try {
      server.close().await();
    } finally {
      vertx.close().await();
    }
  }
}
