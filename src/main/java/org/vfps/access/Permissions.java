package org.vfps.access;

import io.vertx.core.Future;
import java.util.List;
import java.util.Set;
import org.vfps.config.AuthorizationConfig;

/** The permission rules: whether a caller has a permission on a namespace. Thread-safe. */
public interface Permissions {

  /** Authorization off: every caller has every permission, as an admin has. */
  Permissions EVERYONE =
      new Permissions() {
        @Override
        public boolean allows(Caller caller, Permission permission, String namespace) {
          return true;
        }

        @Override
        public boolean holdsAnyRight(Caller caller) {
          return true;
        }

        @Override
        public Set<String> namespaces(Caller caller, Permission permission) {
          return Set.of(AuthorizationConfig.ANY_NAMESPACE);
        }

        @Override
        public List<String> roles(Permission permission, String namespace) {
          return List.of();
        }

        @Override
        public RoleModel model() {
          return RoleModel.EMPTY;
        }
      };

  /**
   * Completes once the decisions below are current (the database grants read again where they may
   * be out of date); fails {@code UNAVAILABLE} when they cannot be. At once for rules that never
   * change.
   */
  default Future<Void> fresh() {
    return Future.succeededFuture();
  }

  /**
   * Whether the caller has the permission on the namespace ({@code namespace} is ignored for {@link
   * Permission#ADMIN}).
   */
  boolean allows(Caller caller, Permission permission, String namespace);

  /**
   * Whether the caller has any permission at all: is an admin, or may read, write or look up on at
   * least one namespace. Answered from the rules and the kept grants, however old (see {@link
   * #fresh()}); the edges refuse a caller without any right before it takes a place.
   */
  default boolean holdsAnyRight(Caller caller) {
    if (allows(caller, Permission.ADMIN, null)) {
      return true;
    }
    for (Permission permission : Permission.values()) {
      if (permission != Permission.ADMIN && !namespaces(caller, permission).isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Where the caller has a namespace permission ({@code READ}, {@code WRITE}, {@code
   * REVERSE_LOOKUP}): {@code *} alone when on every namespace (an admin, or a role of a {@code *}
   * rule), else the names of the rules that grant it to one of its roles; unmodifiable. For the
   * admin UI's hints; decisions go through {@link #allows}.
   */
  Set<String> namespaces(Caller caller, Permission permission);

  /**
   * The roles that have a namespace permission on the namespace by the rules (its own and those of
   * {@code *}), distinct and sorted; the admin roles, which have every permission, are not listed.
   */
  List<String> roles(Permission permission, String namespace);

  /** The admin roles and rules as configured; {@link RoleModel#EMPTY} when authorization is off. */
  RoleModel model();

  /**
   * The rules of {@code config} with the database grants of {@code snapshots}: {@link #EVERYONE}
   * when authorization is off.
   */
  static Permissions of(AuthorizationConfig config, AccessSnapshots snapshots) {
    return config.enabled() ? new GrantedPermissions(config, snapshots) : EVERYONE;
  }
}
