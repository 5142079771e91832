package org.vfps.voprf.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.net.URI;
import java.text.Normalizer;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.vfps.config.VoprfConfig;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

class VoprfGeneratorTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  /** A config of a server that is never reached, with the normalization given. */
  private static VoprfConfig unreached(Optional<Normalizer.Form> normalization) {
    VoprfConfig off = VoprfConfig.off();
    return new VoprfConfig(
        Optional.of(URI.create("http://127.0.0.1:9")),
        Optional.empty(),
        Optional.empty(),
        true,
        off.maxBatchSize(),
        true,
        off.format(),
        off.length(),
        normalization,
        off.timeout(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty());
  }

  @Test
  void twoSpellingsAreOneInputExactlyWhenTheyNormalizeAlike() {
    VoprfGenerator nfc = VoprfGenerator.start(vertx, unreached(Optional.of(Normalizer.Form.NFC)));
    VoprfGenerator none = VoprfGenerator.start(vertx, unreached(Optional.empty()));

    assertThat(nfc.sameInput("Jos\u00e9", "Jose\u0301")).isTrue();
    assertThat(nfc.sameInput("Jos\u00e9", "Jos\u00e9")).isTrue();
    assertThat(nfc.sameInput("Jos\u00e9", "jos\u00e9")).isFalse();
    assertThat(nfc.sameInput("\ufb01", "fi")).as("NFC is no compatibility form").isFalse();
    assertThat(none.sameInput("Jos\u00e9", "Jose\u0301")).isFalse();
    nfc.close().await();
    none.close().await();
  }

  @Test
  void aValueBeyondTheProtocolsLengthIsInvalidBeforeAnyCall() {
    // a server that is never reached: the value is refused before any call
    VoprfGenerator generator =
        VoprfGenerator.start(vertx, unreached(VoprfConfig.off().normalization()));

    Throwable failure = generator.derive(List.of("ok", "x".repeat(65_536))).cause();

    assertThat(failure).isInstanceOf(ServiceException.class);
    assertThat(((ServiceException) failure).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(failure.getMessage())
        .isEqualTo(
            "The value is 65536 bytes of UTF-8; the VOPRF protocol frames lengths as uint16, so"
                + " at most 65535 can be pseudonymized.");
    generator.close().await();
  }
}
