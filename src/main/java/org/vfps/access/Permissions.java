package org.vfps.access;

import org.vfps.config.AuthorizationConfig;

/** The permission rules: whether a caller has a permission on a namespace. Thread-safe. */
public interface Permissions {

  /** Authorization off: every caller has every permission, as an admin has. */
  Permissions EVERYONE = (caller, permission, namespace) -> true;

  /**
   * Whether the caller has the permission on the namespace ({@code namespace} is ignored for {@link
   * Permission#ADMIN}).
   */
  boolean allows(Caller caller, Permission permission, String namespace);

  /** The rules of {@code config}: {@link #EVERYONE} when authorization is off. */
  static Permissions of(AuthorizationConfig config) {
    return config.enabled() ? new RolePermissions(config) : EVERYONE;
  }
}
