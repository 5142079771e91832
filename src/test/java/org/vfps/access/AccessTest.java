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
        return Set.of();
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
