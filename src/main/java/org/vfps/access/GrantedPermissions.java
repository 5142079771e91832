package org.vfps.access;

import io.vertx.core.Future;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.vfps.config.AuthorizationConfig;

/**
 * Authorization on: the configured rules ({@code Authorization__NamespaceRules}) and the database
 * grants together. An admin role allows everything, except to a service-account token's caller,
 * which is never an admin and has its account's grants only; any other caller has the union of the
 * rules and grants its roles and verified e-mail address match. Nothing is inherited down the
 * namespace tree, and nothing denies. Thread-safe.
 */
final class GrantedPermissions implements Permissions {

  private final RolePermissions rules;
  private final AccessSnapshots snapshots;

  GrantedPermissions(AuthorizationConfig config, AccessSnapshots snapshots) {
    this.rules = new RolePermissions(config);
    this.snapshots = snapshots;
  }

  @Override
  public Future<Void> fresh() {
    Future<AccessSnapshot> fresh = snapshots.fresh();
    return fresh.succeeded() ? Future.succeededFuture() : fresh.mapEmpty();
  }

  @Override
  public boolean allows(Caller caller, Permission permission, String namespace) {
    if (caller.serviceAccount() != null) {
      return snapshots.kept().allows(caller, permission, namespace);
    }
    return rules.allows(caller, permission, namespace)
        || snapshots.kept().allows(caller, permission, namespace);
  }

  @Override
  public boolean holdsAnyRight(Caller caller) {
    if (caller.serviceAccount() != null) {
      return snapshots.kept().holdsAnyRight(caller);
    }
    return rules.holdsAnyRight(caller) || snapshots.kept().holdsAnyRight(caller);
  }

  @Override
  public Set<String> namespaces(Caller caller, Permission permission) {
    Set<String> granted = snapshots.kept().namespaces(caller, permission);
    if (caller.serviceAccount() != null) {
      return Set.copyOf(granted);
    }
    Set<String> byRules = rules.namespaces(caller, permission);
    if (granted.contains(AuthorizationConfig.ANY_NAMESPACE)
        || byRules.contains(AuthorizationConfig.ANY_NAMESPACE)) {
      return Set.of(AuthorizationConfig.ANY_NAMESPACE);
    }
    Set<String> all = new TreeSet<>(granted);
    all.addAll(byRules);
    return Collections.unmodifiableSet(all);
  }

  @Override
  public List<String> roles(Permission permission, String namespace) {
    Set<String> roles = new TreeSet<>(rules.roles(permission, namespace));
    roles.addAll(snapshots.kept().roles(permission, namespace));
    return List.copyOf(roles);
  }

  @Override
  public RoleModel model() {
    return rules.model();
  }
}
