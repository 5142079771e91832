package org.vfps.config;

import static org.vfps.config.ConfigLoader.bool;
import static org.vfps.config.ConfigLoader.invalid;
import static org.vfps.config.ConfigLoader.optionalPath;
import static org.vfps.config.ConfigLoader.port;
import static org.vfps.config.ConfigLoader.positiveInt;
import static org.vfps.config.ConfigLoader.positiveTimeSpan;
import static org.vfps.config.ConfigLoader.timeSpan;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The listeners' sections: ports and request bodies ({@code Http:*}, {@code Grpc:*}, {@code
 * MetricsPort}), connection timeouts ({@code HostOptions:ShutdownTimeout} too), admission control
 * ({@code Admission:*}) and TLS ({@code Kestrel:Certificates:Default:*}).
 */
final class ServerSettings {

  private ServerSettings() {}

  static ConnectionConfig connections(FlatSettings settings) {
    return new ConnectionConfig(
        timeSpan(settings, "Http:RequestHeadersTimeout"),
        timeSpan(settings, "Http:IdleTimeout"),
        timeSpan(settings, "Grpc:RequestHeadersTimeout"),
        timeSpan(settings, "Grpc:MaxConnectionIdle"),
        timeSpan(settings, "Grpc:KeepAliveTime"),
        timeSpan(settings, "Grpc:KeepAliveTimeout"),
        timeSpan(settings, "Grpc:MaxConnectionAge"),
        timeSpan(settings, "HostOptions:ShutdownTimeout"));
  }

  static AdmissionConfig admission(FlatSettings settings) {
    int total = positiveInt(settings, "Admission:MaxConcurrentRequests");
    int perCaller =
        share(settings, "Admission:MaxConcurrentRequestsPerCaller", total, "MaxConcurrentRequests");
    return new AdmissionConfig(
        total,
        perCaller,
        share(
            settings,
            "Admission:MaxOpenStreamsPerCaller",
            perCaller,
            "MaxConcurrentRequestsPerCaller"),
        timeSpan(settings, "Admission:StreamIdleTimeout"),
        positiveInt(settings, "Admission:MaxQueuedWrites"),
        positiveInt(settings, "Admission:MaxReplyBytes"),
        timeSpan(settings, "Http:RequestTimeout"));
  }

  /**
   * A caller's share of {@code whole}, the value of the key {@code Admission:<of>}: from 1 to it,
   * or a quarter of it when blank.
   */
  private static int share(FlatSettings settings, String key, int whole, String of) {
    String value = settings.required(key);
    if (value.isBlank()) {
      return AdmissionConfig.quarterOf(whole);
    }
    String digits = value.strip();
    if (!digits.matches("[0-9]{1,10}")
        || Long.parseLong(digits) < 1
        || Long.parseLong(digits) > whole) {
      throw invalid(
          key,
          value,
          "is not from 1 to Admission__" + of + " (" + whole + "), nor empty for a quarter of it");
    }
    return Integer.parseInt(digits);
  }

  static ServerConfig server(FlatSettings settings) {
    return new ServerConfig(
        port(settings, "Http:Port"),
        port(settings, "Grpc:Port"),
        port(settings, "MetricsPort"),
        bool(settings, "Grpc:Reflection:IsEnabled"),
        positiveInt(settings, "Http:MaxRequestBodyBytes"),
        trustedProxies(settings, "Http:TrustedProxies"));
  }

  private static TrustedProxies trustedProxies(FlatSettings settings, String key) {
    String value = settings.required(key);
    try {
      return TrustedProxies.parse(value);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(FlatSettings.environmentName(key) + ": " + e.getMessage());
    }
  }

  /** Both files or neither; an encrypted key (Kestrel's {@code Password}) is refused. */
  static TlsConfig tls(FlatSettings settings) {
    String prefix = "Kestrel:Certificates:Default:";
    Optional<Path> certificate = optionalPath(settings, prefix + "Path");
    Optional<Path> key = optionalPath(settings, prefix + "KeyPath");
    if (certificate.isPresent() != key.isPresent()) {
      String missing = certificate.isPresent() ? TlsConfig.KEY_PATH : TlsConfig.CERTIFICATE_PATH;
      String set = certificate.isPresent() ? TlsConfig.CERTIFICATE_PATH : TlsConfig.KEY_PATH;
      throw new ConfigException(
          missing + ": missing (" + set + " is set; TLS needs the certificate and its key)");
    }
    if (!settings.required(prefix + "Password").isEmpty()) {
      // never quote it: it is a secret
      throw new ConfigException(
          FlatSettings.environmentName(prefix + "Password")
              + ": encrypted private keys are not supported; give an unencrypted PEM key in "
              + TlsConfig.KEY_PATH
              + " and leave the password empty");
    }
    return new TlsConfig(certificate, key, positiveTimeSpan(settings, prefix + "ReloadInterval"));
  }
}
