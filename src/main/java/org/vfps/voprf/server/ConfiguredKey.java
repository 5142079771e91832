package org.vfps.voprf.server;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import org.vfps.config.VoprfServerConfig;
import org.vfps.voprf.ServerKey;

/** The key pair of a configured key: derived from the seed, read from the secret, or random. */
final class ConfiguredKey {

  private ConfiguredKey() {}

  /**
   * {@code DeriveKeyPair(seed, UTF-8(keyId))} for a seed, the secret's key pair for a secret, a
   * random key for an ephemeral one.
   */
  static ServerKey of(VoprfServerConfig.Key key) {
    byte[] material = key.material();
    try {
      return switch (key.source()) {
        case SEED -> ServerKey.derive(material, key.keyId().getBytes(StandardCharsets.UTF_8));
        case FILE, BASE64 -> ServerKey.fromSecret(material);
        case EPHEMERAL -> ServerKey.random(new SecureRandom());
      };
    } finally {
      Arrays.fill(material, (byte) 0);
    }
  }
}
