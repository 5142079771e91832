package org.vfps.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How to reach the PostgreSQL server, from the Npgsql connection string in {@code
 * ConnectionStrings__PostgreSQL} and the {@code PG*} environment fallbacks. {@link #toString()}
 * masks the password.
 *
 * @param host the first configured host
 * @param port 1-65535
 * @param database the database name
 * @param user the user name
 * @param password nullable: none configured
 * @param maxPoolSize the most connections the pool opens, at least 1
 * @param connectTimeout how long to wait for a connection; zero means no limit
 * @param sslMode whether and how to use TLS
 * @param applicationName reported to the server as {@code application_name}; nullable
 */
public record ConnectionSettings(
    String host,
    int port,
    String database,
    String user,
    String password,
    int maxPoolSize,
    Duration connectTimeout,
    SslMode sslMode,
    String applicationName) {

  /** The SSL modes of Npgsql and libpq. */
  public enum SslMode {
    DISABLE,
    ALLOW,
    PREFER,
    REQUIRE,
    VERIFY_CA,
    VERIFY_FULL
  }

  public ConnectionSettings {
    requireText(host, "host");
    if (port < 1 || port > ServerConfig.MAX_PORT) {
      throw new IllegalArgumentException("port must be 1-" + ServerConfig.MAX_PORT + ": " + port);
    }
    requireText(database, "database");
    requireText(user, "user");
    if (maxPoolSize < 1) {
      throw new IllegalArgumentException("maxPoolSize must be at least 1: " + maxPoolSize);
    }
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    if (connectTimeout.isNegative()) {
      throw new IllegalArgumentException("connectTimeout must not be negative");
    }
    Objects.requireNonNull(sslMode, "sslMode");
  }

  @Override
  public String toString() {
    return "ConnectionSettings[host="
        + host
        + ", port="
        + port
        + ", database="
        + database
        + ", user="
        + user
        + ", password="
        + (password == null ? "(none)" : "****")
        + ", maxPoolSize="
        + maxPoolSize
        + ", connectTimeout="
        + connectTimeout
        + ", sslMode="
        + sslMode
        + ", applicationName="
        + applicationName
        + "]";
  }

  private static void requireText(String value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isBlank()) {
      throw new IllegalArgumentException(name + " must not be blank");
    }
  }
}
