package org.vfps.namespace;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import org.vfps.error.ConstantNumbers;

/**
 * How a namespace generates the core of its pseudonyms. The numbers are the wire and database
 * values of the .NET vfps ({@code PseudonymGenerationMethod}); the .NET names are what its
 * configuration ({@code Init__v1__Namespaces__N__PseudonymGenerationMethod}) uses.
 */
public enum GenerationMethod {
  /** Stored as 0 and generated like {@link #SECURE_RANDOM_BASE64URL_ENCODED}. */
  UNSPECIFIED(0, "Unspecified", 0),
  SECURE_RANDOM_BASE64URL_ENCODED(1, "SecureRandomBase64UrlEncoded", 0),
  SHA256_HEX_ENCODED(2, "Sha256HexEncoded", 64),
  UUID4(3, "Uuid4", 36),
  UUID7(4, "Uuid7", 36),
  FULL_RANDOM_HEX_ENCODED(5, "FullRandomHexEncoded", 0),
  FULL_RANDOM_BASE62_ENCODED(6, "FullRandomBase62Encoded", 0),
  FULL_RANDOM_BASE32_ENCODED(7, "FullRandomBase32Encoded", 0),
  /**
   * Derived from the original value with the key of a VOPRF server: {@link GenerationSupport} says
   * whether one is configured, and the fixed length its settings give, so none is declared here.
   */
  VOPRF(8, "Voprf", 0),
  /**
   * An extension of this service: characters drawn from the alphabet of the namespace's {@link
   * Namespace#alphabetFormat()}, with its check digit and groups. The .NET vfps cannot serve it.
   */
  X_SECURE_RANDOM_ALPHABET(1000, "XSecureRandomAlphabet", 0);

  private static final String PROTO_PREFIX = "PSEUDONYM_GENERATION_METHOD_";
  private static final GenerationMethod[] BY_NUMBER = values();
  private static final ConstantNumbers<GenerationMethod> NUMBERS =
      new ConstantNumbers<>(BY_NUMBER, GenerationMethod::number);

  private final int number;
  private final String dotnetName;
  private final int fixedLength;

  GenerationMethod(int number, String dotnetName, int fixedLength) {
    this.number = number;
    this.dotnetName = dotnetName;
    this.fixedLength = fixedLength;
  }

  /** The enum number on the wire and in the {@code pseudonym_generation_method} column. */
  public int number() {
    return number;
  }

  /** The member name of the .NET enum, e.g. {@code SecureRandomBase64UrlEncoded}. */
  public String dotnetName() {
    return dotnetName;
  }

  /** The one core length this method can produce, if it has one (UUIDs 36, SHA-256 64). */
  public OptionalInt fixedLength() {
    return fixedLength == 0 ? OptionalInt.empty() : OptionalInt.of(fixedLength);
  }

  /**
   * Whether the pseudonym is a function of the original value (SHA-256, VOPRF): such a value has
   * exactly one pseudonym.
   */
  public boolean derivedFromOriginalValue() {
    return this == SHA256_HEX_ENCODED || this == VOPRF;
  }

  /** The method with this number, or empty for a number no method has. */
  public static Optional<GenerationMethod> fromNumber(int number) {
    return NUMBERS.constantOf(number);
  }

  /**
   * Parses configuration text: the .NET name ({@code Uuid4}), the proto name with or without its
   * {@code PSEUDONYM_GENERATION_METHOD_} prefix, or the number; names are case-insensitive.
   */
  public static Optional<GenerationMethod> parse(String text) {
    String trimmed = text.trim();
    if (!trimmed.isEmpty() && trimmed.chars().allMatch(Character::isDigit)) {
      return trimmed.length() > 9 ? Optional.empty() : fromNumber(Integer.parseInt(trimmed));
    }
    String upper = trimmed.toUpperCase(Locale.ROOT);
    String bare = upper.startsWith(PROTO_PREFIX) ? upper.substring(PROTO_PREFIX.length()) : upper;
    for (GenerationMethod method : BY_NUMBER) {
      if (method.name().equals(bare) || method.dotnetName.equalsIgnoreCase(trimmed)) {
        return Optional.of(method);
      }
    }
    return Optional.empty();
  }
}
