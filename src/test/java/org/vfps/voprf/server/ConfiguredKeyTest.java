package org.vfps.voprf.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.vfps.config.VoprfServerConfig;
import org.vfps.config.VoprfServerConfig.KeySource;
import org.vfps.voprf.ServerKey;

class ConfiguredKeyTest {

  private static final byte[] SEED =
      "a seed of thirty-two bytes, 32!!".getBytes(StandardCharsets.US_ASCII);

  @Test
  void aSeedKeyIsDeriveKeyPairOfTheSeedWithTheKeyIdAsInfo() {
    ServerKey key = ConfiguredKey.of(new VoprfServerConfig.Key(KeySource.SEED, "gen-2", SEED));

    assertThat(key.publicKey())
        .isEqualTo(ServerKey.derive(SEED, "gen-2".getBytes(StandardCharsets.UTF_8)).publicKey())
        .isNotEqualTo(
            ConfiguredKey.of(new VoprfServerConfig.Key(KeySource.SEED, "gen-3", SEED)).publicKey());
  }

  @Test
  void aSecretKeyIsTheScalarsKey() {
    byte[] secret = new byte[32];
    secret[0] = 9;

    assertThat(
            ConfiguredKey.of(new VoprfServerConfig.Key(KeySource.BASE64, "v1", secret)).publicKey())
        .isEqualTo(ServerKey.fromSecret(secret.clone()).publicKey())
        .isEqualTo(
            ConfiguredKey.of(new VoprfServerConfig.Key(KeySource.FILE, "v1", secret)).publicKey());
  }

  @Test
  void anEphemeralKeyIsNewEachTime() {
    VoprfServerConfig.Key ephemeral =
        new VoprfServerConfig.Key(KeySource.EPHEMERAL, "dev", new byte[0]);

    assertThat(ConfiguredKey.of(ephemeral).publicKey())
        .isNotEqualTo(ConfiguredKey.of(ephemeral).publicKey());
  }
}
