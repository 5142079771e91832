package org.vfps.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.vfps.config.AuthorizationConfig;
import org.vfps.config.AuthorizationConfig.NamespaceRule;

/** The configured rules and the database grants together, decided on one snapshot. */
class GrantedPermissionsTest {

  private static final Instant NOW = Instant.parse("2026-12-02T00:00:00Z");

  private static Grant grant(String namespace, GranteeType type, String grantee, int flags) {
    return new Grant(
        UUID.randomUUID(),
        namespace,
        type,
        grantee,
        (flags & 1) != 0,
        (flags & 2) != 0,
        (flags & 4) != 0,
        NOW,
        NOW);
  }

  private static Permissions permissions(List<Grant> grants) {
    AccessSnapshot snapshot = new AccessSnapshot(grants, List.of());
    AccessSnapshots snapshots =
        new AccessSnapshots(() -> Future.succeededFuture(snapshot), Duration.ofMinutes(1));
    snapshots.fresh().await();
    return Permissions.of(
        new AuthorizationConfig(
            true,
            Optional.empty(),
            "",
            "roles",
            true,
            List.of("vfps-admin"),
            List.of(new NamespaceRule("study", List.of("rule-reader"), List.of(), List.of())),
            List.of(),
            new AuthorizationConfig.SignIn("", "", true),
            Duration.ofSeconds(30),
            AuthorizationConfig.AccessTokens.DISABLED),
        snapshots);
  }

  private static Caller person(String email, String... roles) {
    return new Caller(
        CallerId.sub("someone"),
        Set.of(roles),
        "127.0.0.1",
        Caller.Credential.PROVIDER_TOKEN,
        email,
        null,
        null,
        null);
  }

  private static Caller serviceAccount(String name) {
    return new Caller(
        CallerId.serviceAccount(name),
        Set.of(),
        "127.0.0.1",
        Caller.Credential.ACCESS_TOKEN,
        null,
        name,
        name,
        "token");
  }

  @Test
  void rulesAndGrantsAddUp() {
    Permissions permissions =
        permissions(List.of(grant("study", GranteeType.ROLE, "grant-writer", 2)));
    Caller both = person(null, "rule-reader", "grant-writer");

    assertThat(permissions.allows(both, Permission.READ, "study")).isTrue();
    assertThat(permissions.allows(both, Permission.WRITE, "study")).isTrue();
    assertThat(permissions.allows(both, Permission.REVERSE_LOOKUP, "study")).isFalse();
    assertThat(permissions.allows(both, Permission.WRITE, "other")).isFalse();
    assertThat(permissions.namespaces(both, Permission.READ)).containsExactly("study");
  }

  @Test
  void aGrantOfEveryNamespaceCoversNamespacesNotYetMade() {
    Permissions permissions =
        permissions(List.of(grant(null, GranteeType.EMAIL, "ada@example.org", 1)));

    assertThat(permissions.allows(person("ada@example.org"), Permission.READ, "made-later"))
        .isTrue();
    assertThat(permissions.namespaces(person("ada@example.org"), Permission.READ))
        .containsExactly("*");
    assertThat(permissions.allows(person(null), Permission.READ, "made-later")).isFalse();
  }

  @Test
  void aServiceAccountHasItsOwnGrantsOnlyAndIsNeverAnAdmin() {
    Permissions permissions =
        permissions(
            List.of(
                grant("study", GranteeType.SERVICE_ACCOUNT, "pseudonymizer", 2),
                grant("study", GranteeType.ROLE, "pseudonymizer", 4)));

    assertThat(permissions.allows(serviceAccount("pseudonymizer"), Permission.WRITE, "study"))
        .isTrue();
    assertThat(
            permissions.allows(serviceAccount("pseudonymizer"), Permission.REVERSE_LOOKUP, "study"))
        .isFalse();
    assertThat(permissions.allows(serviceAccount("pseudonymizer"), Permission.ADMIN, null))
        .isFalse();
    // a person whose role is named like the account does not get the account's grant
    assertThat(permissions.allows(person(null, "pseudonymizer"), Permission.WRITE, "study"))
        .isFalse();
    assertThat(permissions.allows(person(null, "vfps-admin"), Permission.ADMIN, null)).isTrue();
  }

  @Test
  void aCallerHoldsAnyRightByARuleAGrantOrAnAdminRoleAndByNothingElse() {
    Permissions permissions =
        permissions(
            List.of(
                grant("study", GranteeType.ROLE, "grant-writer", 2),
                grant(null, GranteeType.EMAIL, "ada@example.org", 4),
                grant("study", GranteeType.SERVICE_ACCOUNT, "pseudonymizer", 1),
                grant("study", GranteeType.ROLE, "empty-grant", 0)));

    assertThat(permissions.holdsAnyRight(person(null, "rule-reader"))).isTrue();
    assertThat(permissions.holdsAnyRight(person(null, "grant-writer"))).isTrue();
    assertThat(permissions.holdsAnyRight(person("ada@example.org"))).isTrue();
    assertThat(permissions.holdsAnyRight(person(null, "vfps-admin"))).isTrue();
    assertThat(permissions.holdsAnyRight(serviceAccount("pseudonymizer"))).isTrue();

    assertThat(permissions.holdsAnyRight(person(null))).isFalse();
    assertThat(permissions.holdsAnyRight(person("bob@example.org", "staff", "empty-grant")))
        .isFalse();
    assertThat(permissions.holdsAnyRight(serviceAccount("unknown"))).isFalse();
    // a service account's token never has the rights of roles, not even an admin role's name
    assertThat(permissions.holdsAnyRight(serviceAccount("vfps-admin"))).isFalse();
  }
}
