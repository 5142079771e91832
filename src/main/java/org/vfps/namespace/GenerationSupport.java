package org.vfps.namespace;

import java.util.Map;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Which generation methods make new pseudonyms in this deployment. SHA-256 does while {@code
 * Pseudonymization__Sha256__IsEnabled} is true (the default, for the clients of the .NET vfps
 * 1.10); VOPRF would with a VOPRF server, which this service does not talk to yet. A method that
 * does not is refused for new namespaces and for new original values in existing ones.
 *
 * @param sha256Enabled whether {@link GenerationMethod#SHA256_HEX_ENCODED} makes new pseudonyms
 * @param voprfEnabled whether {@link GenerationMethod#VOPRF} does
 */
public record GenerationSupport(boolean sha256Enabled, boolean voprfEnabled) {

  /** SHA-256 on, no VOPRF server: the defaults. */
  public static final GenerationSupport DEFAULT = new GenerationSupport(true, false);

  /** Whether the method makes new pseudonyms here. */
  public boolean generates(GenerationMethod method) {
    return switch (method) {
      case SHA256_HEX_ENCODED -> sha256Enabled;
      case VOPRF -> voprfEnabled;
      default -> true;
    };
  }

  /**
   * The failure ({@code FAILED_PRECONDITION}) for a method that makes no new pseudonyms here, with
   * the .NET vfps's message: SHA-256 is named by its number there, since 1.22 has no such member.
   */
  public static ServiceException notSupported(
      GenerationMethod method, Map<String, String> metadata) {
    String named =
        method == GenerationMethod.SHA256_HEX_ENCODED
            ? Integer.toString(method.number())
            : method.dotnetName();
    return new ServiceException(
        ErrorCode.FAILED_PRECONDITION,
        "The pseudonym generation method '"
            + named
            + "' is no longer supported for creating new pseudonyms.",
        metadata);
  }
}
