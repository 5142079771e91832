package org.vfps.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/** What a denied call is answered with, and that each denial is counted. */
class AccessTest {

  private final List<Operation> denied = new ArrayList<>();
  private final Access access = new Access(onlyThe(), new Audit(() -> ""), denied::add);

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "NAMESPACE_CREATE|Creating a namespace requires admin access.",
        "NAMESPACE_DELETE|Deleting a namespace requires admin access.",
        "NAMESPACE_GET|Read access to namespace 'ns' is required.",
        "NAMESPACE_LIST_CHILDREN|Read access to namespace 'ns' is required.",
        "PSEUDONYM_CREATE|The caller may not create pseudonyms in this namespace.",
        "PSEUDONYM_DELETE|Withdrawing original values needs both the write and the reverse-lookup"
            + " permission of the namespace: the caller may not create pseudonyms in this"
            + " namespace."
      })
  void aDeniedCallIsPermissionDeniedInTheDotnetServicesWordsForNamespaces(
      Operation operation, String message) {
    assertThatThrownBy(() -> access.check(Caller.anonymous("127.0.0.1"), operation, "ns").await())
        .isInstanceOfSatisfying(
            ServiceException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED);
              assertThat(e.getMessage()).isEqualTo(message);
              assertThat(e.metadata()).containsEntry("namespace", "ns");
            });
    assertThat(denied).containsExactly(operation);
  }

  @Test
  void getAllNeedsNoPermission() {
    access.check(Caller.anonymous("127.0.0.1"), Operation.NAMESPACE_GET_ALL, null).await();

    assertThat(denied).isEmpty();
  }

  @Test
  void aWithdrawalNeedsEveryOneOfItsPermissions() {
    Access writerOnly = new Access(onlyThe(Permission.WRITE), new Audit(() -> ""), denied::add);
    Access both =
        new Access(
            onlyThe(Permission.WRITE, Permission.REVERSE_LOOKUP), new Audit(() -> ""), denied::add);
    Caller caller = Caller.anonymous("127.0.0.1");

    assertThatThrownBy(() -> writerOnly.check(caller, Operation.PSEUDONYM_ANONYMIZE, "ns").await())
        .isInstanceOfSatisfying(
            ServiceException.class,
            e ->
                assertThat(e.getMessage())
                    .endsWith("the caller may not look up original values in this namespace."));
    both.check(caller, Operation.PSEUDONYM_BATCH_DELETE, "ns").await();
    assertThat(denied).containsExactly(Operation.PSEUDONYM_ANONYMIZE);
  }

  @Test
  void aCallerWithoutAnyRightIsRefusedAllButReflectionAndItsOwnTokens() {
    Caller nobody = Caller.anonymous("127.0.0.1");

    assertThatThrownBy(() -> access.entitled(nobody, Operation.PSEUDONYM_CREATE_STREAM).await())
        .isInstanceOfSatisfying(
            ServiceException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED);
              assertThat(e.getMessage()).startsWith("The caller has no right on any namespace");
            });
    assertThatThrownBy(() -> access.entitled(nobody, Operation.NAMESPACE_GET_ALL).await())
        .isInstanceOf(ServiceException.class);
    for (Operation open :
        List.of(
            Operation.REFLECTION,
            Operation.ACCESS_LIST_TOKENS,
            Operation.ACCESS_CREATE_TOKEN,
            Operation.ACCESS_REVOKE_TOKEN,
            Operation.ACCESS_DELETE_TOKEN)) {
      assertThat(access.entitled(nobody, open).await()).as(open.name()).isSameAs(nobody);
    }
    assertThat(denied)
        .containsExactly(Operation.PSEUDONYM_CREATE_STREAM, Operation.NAMESPACE_GET_ALL);

    Access reader = new Access(onlyThe(Permission.READ), new Audit(() -> ""), denied::add);
    assertThat(reader.entitled(nobody, Operation.PSEUDONYM_CREATE_STREAM).await())
        .as("a right anywhere lets it try; the operation's own check decides")
        .isSameAs(nobody);
  }

  /** Permissions that allow exactly these on every namespace. */
  private static Permissions onlyThe(Permission... allowed) {
    Set<Permission> granted = Set.of(allowed);
    return new Permissions() {
      @Override
      public boolean allows(Caller caller, Permission permission, String namespace) {
        return granted.contains(permission);
      }

      @Override
      public Set<String> namespaces(Caller caller, Permission permission) {
        return granted.contains(permission) ? Set.of("*") : Set.of();
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
  }
}
