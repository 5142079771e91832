package org.vfps.access;

import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A row of {@code service_accounts}: a machine client whose tokens act with the account's grants
 * only, never as an admin.
 *
 * @param name lower case letters, digits and hyphens ({@link #NAME}); immutable
 * @param description free text; null when none
 * @param createdBy the subject of the admin who created it
 */
public record ServiceAccount(
    String name, String description, String createdBy, Instant createdAt, Instant lastUpdatedAt) {

  /** The .NET vfps's pattern of a name: 2 to 64 characters. */
  public static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}[a-z0-9]");

  public ServiceAccount {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(createdBy, "createdBy");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(lastUpdatedAt, "lastUpdatedAt");
  }
}
