package org.vfps.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.vfps.config.AuthorizationConfig;
import org.vfps.config.AuthorizationConfig.NamespaceRule;

/** The .NET service's role model, rule by rule. */
class RolePermissionsTest {

  private static final Permissions RULES =
      new RolePermissions(
          new AuthorizationConfig(
              true,
              Optional.empty(),
              "",
              "roles",
              true,
              List.of("vfps-admin"),
              List.of(
                  new NamespaceRule(
                      "Study", List.of("study-read"), List.of("study-write"), List.of("study-rl")),
                  new NamespaceRule("Study", List.of("also-read"), List.of(), List.of()),
                  new NamespaceRule("*", List.of("all-read"), List.of(), List.of("all-rl"))),
              List.of(),
              new AuthorizationConfig.SignIn("", "", true),
              Duration.ofSeconds(30),
              AuthorizationConfig.AccessTokens.DISABLED));

  private static Caller caller(String... roles) {
    return new Caller("someone", Set.of(roles), "127.0.0.1");
  }

  private static boolean allows(Caller caller, Permission permission, String namespace) {
    return RULES.allows(caller, permission, namespace);
  }

  @Test
  void anAdminRoleAllowsEverythingEverywhere() {
    Caller admin = caller("unrelated", "vfps-admin");
    for (Permission permission : Permission.values()) {
      assertThat(allows(admin, permission, "Study")).isTrue();
      assertThat(allows(admin, permission, "elsewhere")).isTrue();
    }
  }

  @Test
  void theThreeGrantsAreIndependent() {
    assertThat(allows(caller("study-read"), Permission.READ, "Study")).isTrue();
    assertThat(allows(caller("study-read"), Permission.WRITE, "Study")).isFalse();
    assertThat(allows(caller("study-read"), Permission.REVERSE_LOOKUP, "Study")).isFalse();
    assertThat(allows(caller("study-write"), Permission.WRITE, "Study")).isTrue();
    assertThat(allows(caller("study-write"), Permission.READ, "Study")).isFalse();
    assertThat(allows(caller("study-rl"), Permission.REVERSE_LOOKUP, "Study")).isTrue();
    assertThat(allows(caller("study-rl"), Permission.READ, "Study")).isFalse();
    assertThat(allows(caller("study-read", "study-write"), Permission.ADMIN, null)).isFalse();
  }

  @Test
  void namespacesMatchExactlyAndCaseSensitively() {
    assertThat(allows(caller("study-read"), Permission.READ, "study")).isFalse();
    assertThat(allows(caller("study-read"), Permission.READ, "Study ")).isFalse();
    assertThat(allows(caller("study-read"), Permission.READ, "Other")).isFalse();
  }

  @Test
  void rulesAddUpAndTheWildcardRuleCountsForEveryNamespace() {
    assertThat(allows(caller("also-read"), Permission.READ, "Study")).isTrue();
    assertThat(allows(caller("all-read"), Permission.READ, "Study")).isTrue();
    assertThat(allows(caller("all-read"), Permission.READ, "anything")).isTrue();
    assertThat(allows(caller("all-rl"), Permission.REVERSE_LOOKUP, "Study")).isTrue();
    // a wildcard read does not grant write
    assertThat(allows(caller("all-read"), Permission.WRITE, "anything")).isFalse();
  }

  @Test
  void aCallerWithoutRolesMayDoNothingAndEveryoneMayDoEverythingWhenOff() {
    for (Permission permission : Permission.values()) {
      assertThat(allows(caller(), permission, "Study")).isFalse();
      assertThat(Permissions.EVERYONE.allows(caller(), permission, "Study")).isTrue();
    }
  }

  @Test
  void theNamespacesOfAPermissionAreTheRulesThatGrantItOrAllOfThem() {
    assertThat(RULES.namespaces(caller("study-read", "unrelated"), Permission.READ))
        .containsExactly("Study");
    assertThat(RULES.namespaces(caller("study-read"), Permission.WRITE)).isEmpty();
    assertThat(RULES.namespaces(caller("all-read", "study-read"), Permission.READ))
        .containsExactly("*");
    assertThat(RULES.namespaces(caller("all-read"), Permission.WRITE)).isEmpty();
    assertThat(RULES.namespaces(caller("vfps-admin"), Permission.REVERSE_LOOKUP))
        .containsExactly("*");
    assertThat(RULES.namespaces(caller("vfps-admin"), Permission.ADMIN)).containsExactly("*");
    assertThat(RULES.namespaces(caller("study-read"), Permission.ADMIN)).isEmpty();
    assertThat(Permissions.EVERYONE.namespaces(caller(), Permission.WRITE)).containsExactly("*");
  }

  @Test
  void theRolesOfANamespaceAreItsRulesAndTheWildcardRulesSortedAndDistinct() {
    assertThat(RULES.roles(Permission.READ, "Study"))
        .containsExactly("all-read", "also-read", "study-read");
    assertThat(RULES.roles(Permission.REVERSE_LOOKUP, "Study"))
        .containsExactly("all-rl", "study-rl");
    assertThat(RULES.roles(Permission.READ, "elsewhere")).containsExactly("all-read");
    assertThat(RULES.roles(Permission.WRITE, "elsewhere")).isEmpty();
  }

  @Test
  void theModelIsTheConfigurationAsWritten() {
    RoleModel model = RULES.model();
    assertThat(model.adminRoles()).containsExactly("vfps-admin");
    assertThat(model.rules())
        .extracting(RoleModel.Rule::namespace)
        .containsExactly("Study", "Study", "*");
    assertThat(model.rules().get(2).reverseLookupRoles()).containsExactly("all-rl");
    assertThat(Permissions.EVERYONE.model()).isEqualTo(RoleModel.EMPTY);
  }
}
