package org.vfps.namespace;

import java.util.Map;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * The failures that name a namespace which does not exist, built one way for {@link
 * NamespaceService} and the repositories alike.
 */
public final class NamespaceFailures {

  private NamespaceFailures() {}

  /**
   * The failure for a namespace that does not exist, naming it in the message (the .NET vfps's
   * words with the name, as it words a missing parent) and as metadata.
   */
  public static ServiceException notFound(String name) {
    return new ServiceException(
        ErrorCode.NOT_FOUND,
        "The requested pseudonym namespace " + quoted(name) + " does not exist.",
        Map.of("namespace", name));
  }

  /**
   * The failure for a parent namespace that does not exist, with the parent's name as metadata (as
   * the .NET vfps names it in both).
   */
  public static ServiceException parentNotFound(String parentName) {
    return notFound(parentName);
  }

  /** A name in quotes; one longer than any namespace's is described, not repeated. */
  private static String quoted(String name) {
    return TextLimits.fits(name, TextLimits.MAX_NAME_BYTES)
        ? "'" + name + "'"
        : "(a name longer than " + TextLimits.MAX_NAME_BYTES + " bytes)";
  }
}
