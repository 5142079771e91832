package org.vfps.config;

import java.util.Objects;

/**
 * The listeners. A port of 0 lets the operating system pick a free one (useful in tests), except
 * for {@code metricsPort}, where 0 turns the Prometheus listener off.
 *
 * @param httpPort REST, FHIR, probes ({@code Http__Port})
 * @param grpcPort gRPC over h2c ({@code Grpc__Port})
 * @param metricsPort Prometheus {@code /metrics} ({@code MetricsPort}); 0 means off
 * @param grpcReflectionEnabled gRPC server reflection ({@code Grpc__Reflection__IsEnabled})
 * @param httpMaxRequestBodyBytes the largest request body the HTTP listener reads; larger ones are
 *     answered with 413 ({@code Http__MaxRequestBodyBytes})
 * @param trustedProxies the proxies whose forwarding headers the HTTP listener honours ({@code
 *     Http__TrustedProxies})
 */
public record ServerConfig(
    int httpPort,
    int grpcPort,
    int metricsPort,
    boolean grpcReflectionEnabled,
    int httpMaxRequestBodyBytes,
    TrustedProxies trustedProxies) {

  /** The largest TCP port number. */
  static final int MAX_PORT = 65_535;

  public ServerConfig {
    requirePort(httpPort, "httpPort");
    requirePort(grpcPort, "grpcPort");
    requirePort(metricsPort, "metricsPort");
    if (httpMaxRequestBodyBytes < 1) {
      throw new IllegalArgumentException(
          "httpMaxRequestBodyBytes must be positive: " + httpMaxRequestBodyBytes);
    }
    Objects.requireNonNull(trustedProxies, "trustedProxies");
  }

  private static void requirePort(int port, String name) {
    if (port < 0 || port > MAX_PORT) {
      throw new IllegalArgumentException(name + " must be 0-" + MAX_PORT + ": " + port);
    }
  }
}
