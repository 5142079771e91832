package org.vfps.access;

import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.vfps.config.AuthorizationConfig;
import org.vfps.config.AuthorizationConfig.NamespaceRule;

/**
 * The .NET service's role model: an admin role allows everything; otherwise a caller has a grant on
 * a namespace when one of its roles is among that grant's roles in a rule for the namespace (exact,
 * case-sensitive name) or for {@code *}. Rules add up; nothing denies. Looking a permission up
 * costs one set lookup per role of the caller.
 */
final class RolePermissions implements Permissions {

  private final Set<String> adminRoles;
  private final Set<String> rightfulRoles;
  private final Map<Permission, Grant> grants = new EnumMap<>(Permission.class);
  private final RoleModel model;

  RolePermissions(AuthorizationConfig config) {
    this.adminRoles = Set.copyOf(config.adminRoles());
    List<NamespaceRule> rules = config.namespaceRules();
    this.model =
        new RoleModel(
            config.adminRoles(),
            rules.stream()
                .map(
                    rule ->
                        new RoleModel.Rule(
                            rule.namespace(),
                            rule.readRoles(),
                            rule.writeRoles(),
                            rule.reverseLookupRoles()))
                .toList());
    grants.put(Permission.READ, Grant.of(rules, NamespaceRule::readRoles));
    grants.put(Permission.WRITE, Grant.of(rules, NamespaceRule::writeRoles));
    grants.put(Permission.REVERSE_LOOKUP, Grant.of(rules, NamespaceRule::reverseLookupRoles));
    Set<String> rightful = new HashSet<>(adminRoles);
    for (NamespaceRule rule : rules) {
      rightful.addAll(rule.readRoles());
      rightful.addAll(rule.writeRoles());
      rightful.addAll(rule.reverseLookupRoles());
    }
    this.rightfulRoles = Set.copyOf(rightful);
  }

  @Override
  public boolean allows(Caller caller, Permission permission, String namespace) {
    Set<String> granted =
        permission == Permission.ADMIN ? Set.of() : grants.get(permission).roles(namespace);
    for (String role : caller.roles()) {
      if (adminRoles.contains(role) || granted.contains(role)) {
        return true;
      }
    }
    return false;
  }

  /** Whether one of the caller's roles is an admin role or in a rule: one set lookup per role. */
  @Override
  public boolean holdsAnyRight(Caller caller) {
    return anyOf(caller, rightfulRoles);
  }

  @Override
  public Set<String> namespaces(Caller caller, Permission permission) {
    Grant grant = grants.get(permission);
    if (anyOf(caller, adminRoles) || (grant != null && anyOf(caller, grant.anyNamespace()))) {
      return Set.of(AuthorizationConfig.ANY_NAMESPACE);
    }
    if (grant == null) {
      return Set.of();
    }
    Set<String> granted = new TreeSet<>();
    grant
        .byNamespace()
        .forEach(
            (namespace, roles) -> {
              if (anyOf(caller, roles)) {
                granted.add(namespace);
              }
            });
    return Collections.unmodifiableSet(granted);
  }

  @Override
  public List<String> roles(Permission permission, String namespace) {
    Grant grant = grants.get(permission);
    return grant == null ? List.of() : List.copyOf(new TreeSet<>(grant.roles(namespace)));
  }

  @Override
  public RoleModel model() {
    return model;
  }

  private static boolean anyOf(Caller caller, Set<String> roles) {
    for (String role : caller.roles()) {
      if (roles.contains(role)) {
        return true;
      }
    }
    return false;
  }

  /** The roles one grant gives, by namespace, with the roles of {@code *} rules in each. */
  private record Grant(Set<String> anyNamespace, Map<String, Set<String>> byNamespace) {

    static Grant of(List<NamespaceRule> rules, Function<NamespaceRule, List<String>> roles) {
      Set<String> any = new HashSet<>();
      for (NamespaceRule rule : rules) {
        if (rule.namespace().equals(AuthorizationConfig.ANY_NAMESPACE)) {
          any.addAll(roles.apply(rule));
        }
      }
      Map<String, Set<String>> byNamespace = new HashMap<>();
      for (NamespaceRule rule : rules) {
        if (!rule.namespace().equals(AuthorizationConfig.ANY_NAMESPACE)) {
          byNamespace
              .computeIfAbsent(rule.namespace(), name -> new HashSet<>(any))
              .addAll(roles.apply(rule));
        }
      }
      byNamespace.replaceAll((name, granted) -> Set.copyOf(granted));
      return new Grant(Set.copyOf(any), Map.copyOf(byNamespace));
    }

    Set<String> roles(String namespace) {
      return namespace == null ? anyNamespace : byNamespace.getOrDefault(namespace, anyNamespace);
    }
  }
}
