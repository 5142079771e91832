package org.vfps.pseudonym;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import org.vfps.namespace.GenerationMethod;

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
          });
    }
    return Collections.unmodifiableMap(generators);
  }
}
