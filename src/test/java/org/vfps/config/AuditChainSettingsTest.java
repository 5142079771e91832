package org.vfps.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Audit__CheckpointEvery}, {@code Audit__CheckpointInterval} and {@code
 * Audit__SigningKeyFile}: the key file is read at load, and whatever is wrong with it stops the
 * start naming the setting.
 */
class AuditChainSettingsTest {

  @TempDir Path dir;

  @Test
  void theDefaultsChainWithoutCheckpoints() {
    AuditChainConfig chain = ConfigLoader.load(Map.of()).logging().auditChain();

    assertThat(chain.checkpointEvery()).isEqualTo(1_000);
    assertThat(chain.checkpointInterval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(chain.signingKey()).isEmpty();
  }

  @Test
  void anOwnerOnlyEd25519KeyIsRead() throws Exception {
    Path key = keyFile(ed25519Pem(), "rw-------");

    AuditChainConfig chain =
        ConfigLoader.load(
                Map.of(
                    "Audit__SigningKeyFile", key.toString(),
                    "Audit__CheckpointEvery", "50",
                    "Audit__CheckpointInterval", "00:00:10"))
            .logging()
            .auditChain();

    assertThat(chain.signingKey())
        .hasValueSatisfying(k -> assertThat(k.getAlgorithm()).isIn("EdDSA", "Ed25519"));
    assertThat(chain.checkpointEvery()).isEqualTo(50);
    assertThat(chain.checkpointInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(chain.toString()).doesNotContain("PRIVATE");
  }

  @Test
  void aMissingKeyFileStopsTheStart() {
    assertRefused(dir.resolve("missing.pem").toString(), "does not exist");
  }

  @Test
  void aKeyFileOthersMayReadStopsTheStart() throws Exception {
    assertRefused(keyFile(ed25519Pem(), "rw-r-----").toString(), "others than its owner");
    assertRefused(keyFile(ed25519Pem(), "rw----r--").toString(), "others than its owner");
  }

  @Test
  void anUnreadableKeyFileStopsTheStart() throws Exception {
    Path key = keyFile(ed25519Pem(), "-w-------");
    assumeFalse(Files.isReadable(key), "root reads every file: nothing to refuse");
    assertRefused(key.toString(), "cannot be read");
  }

  @Test
  void aMalformedKeyFileStopsTheStart() throws Exception {
    assertRefused(keyFile("not a key", "rw-------").toString(), "not an Ed25519 private key");
    assertRefused(
        keyFile("-----BEGIN PRIVATE KEY-----\n!!!\n-----END PRIVATE KEY-----\n", "rw-------")
            .toString(),
        "not an Ed25519 private key");
    KeyPair rsa = KeyPairGenerator.getInstance("RSA").generateKeyPair();
    assertRefused(
        keyFile(pem(rsa.getPrivate().getEncoded()), "rw-------").toString(),
        "not an Ed25519 private key");
  }

  @Test
  void checkpointsNeedAPositiveCountAndInterval() {
    assertThatThrownBy(() -> ConfigLoader.load(Map.of("Audit__CheckpointEvery", "0")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("Audit__CheckpointEvery");
    assertThatThrownBy(() -> ConfigLoader.load(Map.of("Audit__CheckpointInterval", "00:00:00")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("Audit__CheckpointInterval");
  }

  private static void assertRefused(String keyFile, String problem) {
    assertThatThrownBy(() -> ConfigLoader.load(Map.of("Audit__SigningKeyFile", keyFile)))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("Audit__SigningKeyFile: " + keyFile)
        .hasMessageContaining(problem);
  }

  private Path keyFile(String content, String permissions) throws Exception {
    Path file = Files.createTempFile(dir, "audit-key", ".pem");
    Files.writeString(file, content, StandardCharsets.US_ASCII);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
    return file;
  }

  private static String ed25519Pem() throws Exception {
    return pem(KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate().getEncoded());
  }

  private static String pem(byte[] pkcs8) {
    return "-----BEGIN PRIVATE KEY-----\n"
        + Base64.getMimeEncoder().encodeToString(pkcs8)
        + "\n-----END PRIVATE KEY-----\n";
  }
}
