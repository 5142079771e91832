package org.vfps.access;

import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
  private final Map<Permission, Grant> grants = new EnumMap<>(Permission.class);

  RolePermissions(AuthorizationConfig config) {
    this.adminRoles = Set.copyOf(config.adminRoles());
    List<NamespaceRule> rules = config.namespaceRules();
    grants.put(Permission.READ, Grant.of(rules, NamespaceRule::readRoles));
    grants.put(Permission.WRITE, Grant.of(rules, NamespaceRule::writeRoles));
    grants.put(Permission.REVERSE_LOOKUP, Grant.of(rules, NamespaceRule::reverseLookupRoles));
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
