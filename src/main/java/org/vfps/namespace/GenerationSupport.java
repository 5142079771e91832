package org.vfps.namespace;

import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Which generation methods make new pseudonyms in this deployment. SHA-256 does while {@code
 * Pseudonymization__Sha256__IsEnabled} is true (the default, for the clients of the .NET vfps
 * 1.10); VOPRF does with a VOPRF server ({@code Voprf__Address}). A method that does not is refused
 * for new namespaces and for new original values in existing ones.
 *
 * @param sha256Enabled whether {@link GenerationMethod#SHA256_HEX_ENCODED} makes new pseudonyms
 * @param voprfLength the pseudonym length of {@link GenerationMethod#VOPRF}, which its settings fix
 *     ({@code Voprf__Format}, {@code Voprf__Length}); empty without a VOPRF server, when the method
 *     makes none
 */
public record GenerationSupport(boolean sha256Enabled, OptionalInt voprfLength) {

  /** SHA-256 on, no VOPRF server: the defaults. */
  public static final GenerationSupport DEFAULT = new GenerationSupport(true, OptionalInt.empty());

  public GenerationSupport {
    Objects.requireNonNull(voprfLength, "voprfLength");
  }

  /** Whether the method makes new pseudonyms here. */
  public boolean generates(GenerationMethod method) {
    return switch (method) {
      case SHA256_HEX_ENCODED -> sha256Enabled;
      case VOPRF -> voprfLength.isPresent();
      default -> true;
    };
  }

  /**
   * The one pseudonym length the method can produce here, if it has one: the method's own (UUIDs,
   * SHA-256), or for VOPRF the length its settings give.
   */
  public OptionalInt fixedLength(GenerationMethod method) {
    return method == GenerationMethod.VOPRF ? voprfLength : method.fixedLength();
  }

  /**
   * The failure ({@code FAILED_PRECONDITION}) for a method that makes no new pseudonyms here,
   * naming the setting that makes it so: for SHA-256 the .NET vfps's message (which names it by its
   * number, since 1.22 has no such member) with {@code Pseudonymization__Sha256__IsEnabled}; for
   * VOPRF the missing {@code Voprf__Address}.
   */
  public static ServiceException notSupported(
      GenerationMethod method, Map<String, String> metadata) {
    String message =
        method == GenerationMethod.SHA256_HEX_ENCODED
            ? "The pseudonym generation method '"
                + method.number()
                + "' is no longer supported for creating new pseudonyms:"
                + " Pseudonymization__Sha256__IsEnabled is false."
            : "The pseudonym generation method '"
                + method.dotnetName()
                + "' makes no new pseudonyms here: the setting Voprf__Address (the VOPRF server)"
                + " is missing.";
    return new ServiceException(ErrorCode.FAILED_PRECONDITION, message, metadata);
  }
}
