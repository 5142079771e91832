package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.vfps.namespace.GenerationMethod;

class SecureRandomBase64UrlGeneratorTest {

  private final PseudonymGenerator generator = new SecureRandomBase64UrlGenerator("vfps-0");

  @ParameterizedTest
  @CsvSource({"1, 12", "8, 22", "16, 32", "32, 54", "64, 96"})
  void outputIsUnpaddedBase64UrlOfLengthPlusEightBytes(int length, int expectedChars) {
    String value = generator.generate("test", length);

    assertThat(value).hasSize(expectedChars).matches("^[A-Za-z0-9_-]*$");
    assertThat(decode(value)).hasSize(length + 8);
  }

  @Test
  void twoCallsGiveDifferentValues() {
    assertThat(generator.generate("test", 32)).isNotEqualTo(generator.generate("test", 32));
  }

  @Test
  void firstFourBytesAreTheHostNameHash() throws NoSuchAlgorithmException {
    byte[] decoded = decode(generator.generate("test", 32));

    assertThat(Arrays.copyOf(decoded, 4)).isEqualTo(Arrays.copyOf(sha256("vfps-0"), 4));
  }

  @Test
  void sharedGeneratorHashesTheLocalHostName() throws NoSuchAlgorithmException {
    PseudonymGenerator shared =
        PseudonymGenerators.forMethod(GenerationMethod.SECURE_RANDOM_BASE64URL_ENCODED);
    byte[] expected = Arrays.copyOf(sha256(SecureRandomBase64UrlGenerator.localHostName()), 4);

    assertThat(Arrays.copyOf(decode(shared.generate("test", 16)), 4)).isEqualTo(expected);
  }

  @Test
  void headerIsTheSameAcrossCalls() {
    byte[] first = decode(generator.generate("test", 16));
    byte[] second = decode(generator.generate("test", 16));

    assertThat(Arrays.copyOf(second, 4)).isEqualTo(Arrays.copyOf(first, 4));
  }

  @Test
  void bytesFourToEightAreTheMillisecondsSinceBootLittleEndian() {
    int before = (int) (System.nanoTime() / 1_000_000L);
    byte[] decoded = decode(generator.generate("test", 16));
    int after = (int) (System.nanoTime() / 1_000_000L);

    int tick = ByteBuffer.wrap(decoded, 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    // subtraction keeps the comparison right across the 32-bit wrap-around of the counter
    assertThat(tick - before).isNotNegative();
    assertThat(after - tick).isNotNegative();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1})
  void rejectsLengthBelowOne(int length) {
    assertThatIllegalArgumentException().isThrownBy(() -> generator.generate("test", length));
  }

  private static byte[] decode(String value) {
    return Base64.getUrlDecoder().decode(value);
  }

  private static byte[] sha256(String value) throws NoSuchAlgorithmException {
    return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
  }
}
