package org.vfps.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import java.time.Clock;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.vfps.access.Access;
import org.vfps.access.Audit;
import org.vfps.access.Caller;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/** The checks of NamespaceService.create that the ITs cannot reach, on an in-memory repository. */
class NamespaceCreationTest {

  private final InMemoryNamespaces repository = new InMemoryNamespaces();
  private final Caller caller = Caller.anonymous("127.0.0.1");

  private NamespaceService service(GenerationSupport generation) {
    return new NamespaceService(
        repository,
        new NamespaceEvents() {
          @Override
          public void created(String name) {}

          @Override
          public Future<Void> deleted(String name) {
            return Future.succeededFuture();
          }
        },
        Clock.systemUTC(),
        Access.open(new Audit(() -> "")),
        generation);
  }

  private static NamespaceDraft draft(String name, GenerationMethod method, long length) {
    return new NamespaceDraft(
        name, null, method.number(), length, null, null, null, false, null, 0, null);
  }

  private static ServiceException failure(Future<?> future) {
    try {
      future.await();
    } catch (ServiceException e) {
      return e;
    }
    throw new AssertionError("the future succeeded");
  }

  @Test
  void withAVoprfServerMultiplePseudonymsStillCannotBeCombinedWithVoprf() {
    NamespaceDraft multiple =
        new NamespaceDraft(
            "voprf",
            null,
            GenerationMethod.VOPRF.number(),
            86,
            null,
            null,
            null,
            true,
            null,
            0,
            null);

    ServiceException refused =
        failure(service(new GenerationSupport(true, OptionalInt.of(86))).create(caller, multiple));

    assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(refused.getMessage())
        .isEqualTo(
            "The 'Voprf' pseudonym generation method derives the pseudonym from the original"
                + " value, so a value has exactly one pseudonym. It cannot be combined with"
                + " allowing multiple pseudonyms per original value.");
  }

  @Test
  void aSeedOfARefusedMethodIsNoErrorWhileItsNamespaceExists() {
    NamespaceDraft seed = draft("hashed", GenerationMethod.SHA256_HEX_ENCODED, 64);
    service(GenerationSupport.DEFAULT).createIfAbsent(seed).await();
    NamespaceService withoutSha256 = service(new GenerationSupport(false, OptionalInt.empty()));

    assertThat(withoutSha256.createIfAbsent(seed).await()).isFalse();
    ServiceException refused =
        failure(
            withoutSha256.createIfAbsent(
                draft("hashed-2", GenerationMethod.SHA256_HEX_ENCODED, 64)));
    assertThat(refused.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
    assertThat(refused.getMessage())
        .isEqualTo(
            "The pseudonym generation method '2' is no longer supported for creating new"
                + " pseudonyms: Pseudonymization__Sha256__IsEnabled is false.");
  }

  @Test
  void anEmptyParentNameIsNoParentAndAnAbsentDescriptionStaysAbsent() {
    NamespaceDraft draft =
        new NamespaceDraft(
            "child",
            null,
            1,
            16,
            null,
            null,
            "",
            false,
            "",
            ParentValidationMode.UNSPECIFIED.number(),
            null);

    Namespace created = service(GenerationSupport.DEFAULT).create(caller, draft).await();

    assertThat(created.parentName()).isNull();
    assertThat(created.description()).isNull();
    assertThat(created.originalValueRegex().text()).isEmpty();
    assertThat(created.matches("anything")).isTrue();
  }

  @Test
  void anUnknownParentValidationModeIsInvalid() {
    NamespaceDraft draft =
        new NamespaceDraft("odd", null, 1, 16, null, null, null, false, "p", 7, null);

    ServiceException refused = failure(service(GenerationSupport.DEFAULT).create(caller, draft));

    assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(refused.getMessage()).isEqualTo("Unknown parent validation mode 7.");
  }

  @Test
  void theNamespaceMatchesWithItsCompiledRegex() {
    NamespaceDraft draft =
        new NamespaceDraft("checked", null, 1, 16, null, null, "^[0-9]+$", false, null, 0, null);

    Namespace created = service(GenerationSupport.DEFAULT).create(caller, draft).await();

    assertThat(created.matches("123")).isTrue();
    assertThat(created.matches("12a")).isFalse();
    assertThatThrownBy(() -> service(GenerationSupport.DEFAULT).create(caller, draft).await())
        .isInstanceOfSatisfying(
            ServiceException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ALREADY_EXISTS));
  }
}
