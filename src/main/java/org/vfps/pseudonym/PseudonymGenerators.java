package org.vfps.pseudonym;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.Namespace;

/** Looks up the shared generator of each {@link GenerationMethod}. */
public final class PseudonymGenerators {

  private static final Map<GenerationMethod, PseudonymGenerator> BY_METHOD = buildAll();

  private PseudonymGenerators() {}

  /**
   * Returns the thread-safe generator shared by all callers for {@code method}; {@link
   * GenerationMethod#UNSPECIFIED} gets the base64url one.
   */
  public static PseudonymGenerator forMethod(GenerationMethod method) {
    return BY_METHOD.get(Objects.requireNonNull(method, "method"));
  }

  /**
   * How many characters the core of a pseudonym has (prefix and suffix aside) for {@code length}:
   * the length for the hex, Base62 and Base32 methods, the fixed length of SHA-256 and the UUIDs,
   * and for Base64URL the unpadded encoding of the 8 header bytes and {@code length} random bytes.
   * VOPRF's length is fixed by its settings, not here: its {@code length} is returned. The admin
   * UI's Length hint ({@code methods.js}, {@code coreCharacters}) mirrors this rule.
   */
  public static int coreLength(GenerationMethod method, int length) {
    return switch (method) {
      case UNSPECIFIED, SECURE_RANDOM_BASE64URL_ENCODED ->
          Math.ceilDiv((SecureRandomBase64UrlGenerator.HEADER_BYTES + length) * 4, 3);
      case SHA256_HEX_ENCODED, UUID4, UUID7 -> method.fixedLength().orElseThrow();
      case FULL_RANDOM_HEX_ENCODED, FULL_RANDOM_BASE62_ENCODED, FULL_RANDOM_BASE32_ENCODED, VOPRF ->
          length;
      // the drawn characters; the check digit and the delimiters are the format's
      case X_SECURE_RANDOM_ALPHABET -> length;
    };
  }

  /**
   * How many different cores the method's generator makes for {@code length}: the size of the space
   * its random cores are drawn from (the random part only, as a lower bound), 1 for SHA-256, whose
   * core depends on the original value alone. Infinite where it exceeds a double.
   */
  public static double distinctCores(GenerationMethod method, int length) {
    return switch (method) {
      // the 8-byte header (host hash, uptime) is not counted: the random bytes alone
      case UNSPECIFIED, SECURE_RANDOM_BASE64URL_ENCODED -> Math.pow(256, length);
      case SHA256_HEX_ENCODED -> 1;
      // version and variant take 6 of the 128 bits
      case UUID4 -> Math.pow(2, 122);
      // 74 random bits beside the millisecond timestamp
      case UUID7 -> Math.pow(2, 74);
      case FULL_RANDOM_HEX_ENCODED -> Math.pow(16, length);
      case FULL_RANDOM_BASE62_ENCODED -> Math.pow(62, length);
      case FULL_RANDOM_BASE32_ENCODED -> Math.pow(32, length);
      // derived from the original value, as SHA-256
      case VOPRF -> 1;
      // the alphabet is the namespace's: see AlphabetFormat.distinctPseudonyms
      case X_SECURE_RANDOM_ALPHABET -> Double.POSITIVE_INFINITY;
    };
  }

  /**
   * How many distinct pseudonyms the namespace's settings make (prefix and suffix add none): its
   * format's {@link org.vfps.alphabet.AlphabetFormat#distinctPseudonyms()} for the alphabet method,
   * {@link #distinctCores} of its method and length for every other. The one rule that the
   * collision policy, the capacity that {@code NamespaceService.Get} shows and the capacity gauge
   * share.
   */
  public static double distinctPseudonyms(Namespace namespace) {
    return namespace.alphabetFormat() != null
        ? namespace.alphabetFormat().distinctPseudonyms()
        : distinctCores(namespace.generationMethod(), (int) namespace.pseudonymLength());
  }

  /**
   * Stands in for the alphabet method, whose namespaces draw from their own {@link
   * org.vfps.alphabet.AlphabetFormat}: {@link GeneratedCandidates} asks the format.
   */
  private static final class NamespaceFormatGenerator implements PseudonymGenerator {
    @Override
    public String generate(String originalValue, int length) {
      throw new IllegalStateException("the alphabet method draws from its namespace's format");
    }
  }

  /**
   * Stands in for the VOPRF client this service does not have yet; {@link
   * org.vfps.namespace.GenerationSupport} keeps every call away from it.
   */
  private static final class NoVoprfGenerator implements PseudonymGenerator {
    @Override
    public String generate(String originalValue, int length) {
      throw new IllegalStateException("no VOPRF server is configured");
    }
  }

  private static Map<GenerationMethod, PseudonymGenerator> buildAll() {
    PseudonymGenerator base64Url = SecureRandomBase64UrlGenerator.forLocalHost();
    Map<GenerationMethod, PseudonymGenerator> generators = new EnumMap<>(GenerationMethod.class);
    for (GenerationMethod method : GenerationMethod.values()) {
      generators.put(
          method,
          switch (method) {
            case UNSPECIFIED, SECURE_RANDOM_BASE64URL_ENCODED -> base64Url;
            case SHA256_HEX_ENCODED -> new Sha256HexGenerator();
            case UUID4 -> new Uuid4Generator();
            case UUID7 -> new Uuid7Generator();
            case FULL_RANDOM_HEX_ENCODED -> new RandomHexGenerator();
            case FULL_RANDOM_BASE62_ENCODED -> new RandomBase62Generator();
            case FULL_RANDOM_BASE32_ENCODED -> new RandomBase32Generator();
            case VOPRF -> new NoVoprfGenerator();
            case X_SECURE_RANDOM_ALPHABET -> new NamespaceFormatGenerator();
          });
    }
    return Collections.unmodifiableMap(generators);
  }
}
