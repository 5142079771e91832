package org.vfps.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Path;
import java.text.Normalizer;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VoprfSettingsTest {

  // RFC 9497 A.1.2's public key
  private static final String KEY_HEX =
      "c803e2cc6b05fc15064549b5920659ca4a77b2cca6f04f6b357009335476ad4e";

  private static VoprfConfig load(Map<String, String> settings) {
    return ConfigLoader.load(settings).voprf();
  }

  private static Map<String, String> server(String... more) {
    Map<String, String> settings = new HashMap<>();
    settings.put("Voprf__Address", "https://vfps-voprf:8081");
    settings.put("Voprf__PublicKey", KEY_HEX);
    for (int i = 0; i < more.length; i += 2) {
      settings.put(more[i], more[i + 1]);
    }
    return settings;
  }

  @Test
  void isOffByDefaultWithUpstreamsDefaults() {
    VoprfConfig config = load(Map.of());

    assertThat(config.enabled()).isFalse();
    assertThat(config).isEqualTo(VoprfConfig.off());
    assertThat(config.pseudonymLength()).isEqualTo(86);
    assertThat(config.normalization()).contains(Normalizer.Form.NFC);
  }

  @Test
  void readsAServerWithItsPinnedKeyInHexOrBase64() {
    VoprfConfig hex = load(server());
    byte[] key = HexFormat.of().parseHex(KEY_HEX);
    VoprfConfig base64 = load(server("Voprf__PublicKey", Base64.getEncoder().encodeToString(key)));
    VoprfConfig base64Url =
        load(
            server(
                "Voprf__PublicKey", Base64.getUrlEncoder().withoutPadding().encodeToString(key)));

    assertThat(hex.enabled()).isTrue();
    assertThat(hex.tls()).isTrue();
    assertThat(hex.address()).contains(URI.create("https://vfps-voprf:8081"));
    assertThat(hex.publicKey()).contains(new VoprfConfig.PublicKeyBytes(key));
    assertThat(base64.publicKey()).isEqualTo(hex.publicKey());
    assertThat(base64Url.publicKey()).isEqualTo(hex.publicKey());
  }

  @Test
  void readsEverySetting() {
    VoprfConfig config =
        load(
            server(
                "Voprf__ExpectedKeyId", "v2",
                "Voprf__MaxBatchSize", "64",
                "Voprf__IncludeKeyIdInPseudonym", "false",
                "Voprf__Format", "hex",
                "Voprf__Length", "16",
                "Voprf__Normalization", "FormKD",
                "Voprf__Timeout", "0.00:00:02",
                "Voprf__Tls__CertificatePath", "/certs/tls.crt",
                "Voprf__Tls__KeyPath", "/certs/tls.key",
                "Voprf__Tls__TrustedCertificatesPath", "/certs/ca.crt",
                "Voprf__BearerTokenPath", "/var/run/token"));

    assertThat(config.expectedKeyId()).contains("v2");
    assertThat(config.maxBatchSize()).isEqualTo(64);
    assertThat(config.includeKeyIdInPseudonym()).isFalse();
    assertThat(config.format()).isEqualTo(VoprfConfig.Format.HEX);
    assertThat(config.pseudonymLength()).isEqualTo(32);
    assertThat(config.normalization()).contains(Normalizer.Form.NFKD);
    assertThat(config.timeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(config.clientCertificatePath()).contains(Path.of("/certs/tls.crt"));
    assertThat(config.clientKeyPath()).contains(Path.of("/certs/tls.key"));
    assertThat(config.trustedCertificatesPath()).contains(Path.of("/certs/ca.crt"));
    assertThat(config.bearerTokenPath()).contains(Path.of("/var/run/token"));
    assertThat(load(server("Voprf__Normalization", "None")).normalization()).isEmpty();
    assertThat(load(server("Voprf__Length", "16")).pseudonymLength()).isEqualTo(22);
  }

  @Test
  void aServerWithoutAPinnedKeyNeedsTheDevelopmentSwitch() {
    Map<String, String> unpinned = server();
    unpinned.remove("Voprf__PublicKey");

    assertThatThrownBy(() -> load(unpinned))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("Voprf__PublicKey: missing");
    unpinned.put("Voprf__AllowUnpinnedPublicKey", "true");
    assertThat(load(unpinned).publicKey()).isEmpty();
  }

  @Test
  void badValuesNameTheirKey() {
    assertRefused(server("Voprf__Address", "vfps-voprf:8081"), "Voprf__Address: ");
    assertRefused(server("Voprf__Address", "grpc://vfps-voprf:8081"), "Voprf__Address: ");
    assertRefused(server("Voprf__Address", "https://vfps-voprf:8081/path"), "Voprf__Address: ");
    assertRefused(server("Voprf__PublicKey", "c803e2cc"), "Voprf__PublicKey: ");
    assertRefused(server("Voprf__PublicKey", "not base64!"), "Voprf__PublicKey: ");
    assertRefused(server("Voprf__ExpectedKeyId", "v.1"), "Voprf__ExpectedKeyId: ");
    assertRefused(server("Voprf__MaxBatchSize", "0"), "Voprf__MaxBatchSize: ");
    assertRefused(server("Voprf__Format", "Base32"), "Voprf__Format: ");
    assertRefused(server("Voprf__Length", "15"), "Voprf__Length: ");
    assertRefused(server("Voprf__Length", "65"), "Voprf__Length: ");
    assertRefused(server("Voprf__Normalization", "NFC"), "Voprf__Normalization: ");
    assertRefused(server("Voprf__Timeout", "0.00:00:00"), "Voprf__Timeout: ");
    assertRefused(server("Voprf__Tls__CertificatePath", "/c.crt"), "Voprf__Tls__KeyPath: missing");
  }

  @Test
  void credentialsAreRefusedOverClearText() {
    assertRefused(
        server("Voprf__Address", "http://voprf:8081", "Voprf__BearerTokenPath", "/token"),
        "Voprf__BearerTokenPath: is for TLS");
    assertRefused(
        server(
            "Voprf__Address", "http://voprf:8081",
            "Voprf__Tls__CertificatePath", "/c.crt",
            "Voprf__Tls__KeyPath", "/c.key"),
        "Voprf__Tls__CertificatePath: is for TLS");
    assertThat(load(server("Voprf__Address", "http://voprf:8081")).tls()).isFalse();
  }

  private static void assertRefused(Map<String, String> settings, String messageStart) {
    assertThatThrownBy(() -> load(settings))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(messageStart);
  }

  @Test
  void thePinnedKeyIsNoSecretButIsComparedByContent() {
    assertThat(load(server()).publicKey().map(Object::toString)).isEqualTo(Optional.of(KEY_HEX));
  }
}
