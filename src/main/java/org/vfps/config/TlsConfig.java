package org.vfps.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * TLS of the gRPC and HTTP listeners, with the .NET (Kestrel) names: on when both PEM files are
 * set, off when neither is.
 *
 * @param certificatePath the PEM certificate, leaf first, then any intermediates ({@value
 *     #CERTIFICATE_PATH}); empty when TLS is off
 * @param keyPath the PEM private key of the leaf, unencrypted ({@value #KEY_PATH}); empty when TLS
 *     is off
 * @param reloadInterval how often the files are read again to notice a new certificate; positive
 *     ({@value #RELOAD_INTERVAL})
 */
public record TlsConfig(
    Optional<Path> certificatePath, Optional<Path> keyPath, Duration reloadInterval) {

  /** The setting naming the certificate file, as messages name it. */
  public static final String CERTIFICATE_PATH = "Kestrel__Certificates__Default__Path";

  /** The setting naming the private key file, as messages name it. */
  public static final String KEY_PATH = "Kestrel__Certificates__Default__KeyPath";

  /** The setting of the check interval, as messages name it. */
  public static final String RELOAD_INTERVAL = "Kestrel__Certificates__Default__ReloadInterval";

  public TlsConfig {
    Objects.requireNonNull(certificatePath, "certificatePath");
    Objects.requireNonNull(keyPath, "keyPath");
    Objects.requireNonNull(reloadInterval, "reloadInterval");
    if (certificatePath.isPresent() != keyPath.isPresent()) {
      throw new IllegalArgumentException("certificatePath and keyPath go together");
    }
    if (reloadInterval.isNegative() || reloadInterval.isZero()) {
      throw new IllegalArgumentException("reloadInterval must be positive");
    }
  }

  /** Whether the listeners speak TLS. */
  public boolean enabled() {
    return certificatePath.isPresent();
  }
}
