package org.vfps.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How the listeners treat their connections; a zero duration turns that limit off.
 *
 * @param httpRequestHeadersTimeout a new HTTP connection must send its first complete request head
 *     within this ({@code Http__RequestHeadersTimeout})
 * @param httpIdleTimeout an HTTP connection without a new request for this long is closed ({@code
 *     Http__IdleTimeout})
 * @param grpcRequestHeadersTimeout a new gRPC connection must start its first call within this
 *     ({@code Grpc__RequestHeadersTimeout})
 * @param grpcMaxConnectionIdle a gRPC connection without a new call for this long gets a GOAWAY
 *     ({@code Grpc__MaxConnectionIdle})
 * @param grpcKeepAliveTime a gRPC connection without a new call for this long is pinged ({@code
 *     Grpc__KeepAliveTime})
 * @param grpcKeepAliveTimeout a ping not answered within this closes the connection ({@code
 *     Grpc__KeepAliveTimeout})
 * @param grpcMaxConnectionAge a gRPC connection this old gets a GOAWAY ({@code
 *     Grpc__MaxConnectionAge})
 */
public record ConnectionConfig(
    Duration httpRequestHeadersTimeout,
    Duration httpIdleTimeout,
    Duration grpcRequestHeadersTimeout,
    Duration grpcMaxConnectionIdle,
    Duration grpcKeepAliveTime,
    Duration grpcKeepAliveTimeout,
    Duration grpcMaxConnectionAge) {

  public ConnectionConfig {
    for (Duration duration :
        List.of(
            httpRequestHeadersTimeout,
            httpIdleTimeout,
            grpcRequestHeadersTimeout,
            grpcMaxConnectionIdle,
            grpcKeepAliveTime,
            grpcKeepAliveTimeout,
            grpcMaxConnectionAge)) {
      Objects.requireNonNull(duration);
      if (duration.isNegative()) {
        throw new IllegalArgumentException("connection limits must not be negative");
      }
    }
  }
}
