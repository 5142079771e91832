package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.vfps.access.Access;
import org.vfps.access.Audit;
import org.vfps.access.Caller;
import org.vfps.alphabet.CheckDigitKind;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.AlphabetFormatDraft;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.GenerationSupport;
import org.vfps.namespace.InMemoryNamespaces;
import org.vfps.namespace.NamespaceDraft;
import org.vfps.namespace.NamespaceEvents;
import org.vfps.namespace.NamespaceService;
import org.vfps.namespace.ParentValidationMode;

/**
 * The pseudonym operations (creation, lookups, listing, withdrawals and the rules of values) on
 * in-memory repositories: what they answer, in which order, and how they refuse.
 */
class PseudonymServiceTest {

  private static final int MAX_BATCH = 4;

  private final Caller caller = Caller.anonymous("127.0.0.1");
  private final Access access = Access.open(new Audit(() -> ""));
  private final InMemoryPseudonyms repository = new InMemoryPseudonyms();
  private final NamespaceService namespaces =
      new NamespaceService(
          new InMemoryNamespaces(),
          new NamespaceEvents() {
            @Override
            public void created(String name) {}

            @Override
            public Future<Void> deleted(String name) {
              return Future.succeededFuture();
            }
          },
          Clock.systemUTC(),
          access,
          GenerationSupport.DEFAULT);
  private final PseudonymService service =
      new PseudonymService(
          namespaces,
          repository,
          new PageTokens(new byte[32]),
          PseudonymGenerators::forMethod,
          access,
          MAX_BATCH,
          GenerationSupport.DEFAULT,
          WithdrawalEvents.NONE,
          KeyedGenerator.NONE);

  private void namespace(String name) {
    namespace(name, null, false, null, ParentValidationMode.UNSPECIFIED);
  }

  private void namespace(
      String name,
      String regex,
      boolean multiple,
      String parent,
      ParentValidationMode parentValidation) {
    namespaces
        .create(
            caller,
            new NamespaceDraft(
                name,
                null,
                GenerationMethod.FULL_RANDOM_HEX_ENCODED.number(),
                32,
                "pre-",
                "-suf",
                regex,
                multiple,
                parent,
                parentValidation.number(),
                null))
        .await();
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
  void createReturnsTheSamePseudonymForTheSamePair() {
    namespace("patients");

    Pseudonym first = service.create(caller, "patients", "Zoë").await();
    Pseudonym again = service.create(caller, "patients", "Zoë").await();

    assertThat(again).isEqualTo(first);
    assertThat(first.pseudonymValue()).startsWith("pre-").endsWith("-suf").hasSize(40);
    assertThat(first.originalValue()).isEqualTo("Zoë");
    assertThat(service.create(caller, "patients", "Zoe").await().pseudonymValue())
        .isNotEqualTo(first.pseudonymValue());
    assertThat(repository.rows()).hasSize(2);
  }

  @Test
  void upsertSaysOnlyTheFirstCallStoredThePair() {
    namespace("patients");

    assertThat(service.upsert(caller, "patients", "a").await().inserted()).isTrue();
    assertThat(service.upsert(caller, "patients", "a").await().inserted()).isFalse();
    assertThat(service.createStreamed(caller, "patients", "a").await())
        .isEqualTo(service.create(caller, "patients", "a").await());
  }

  @Test
  void aMissingNamespaceIsNamed() {
    ServiceException refused = failure(service.create(caller, "nowhere", "a"));

    assertThat(refused.code()).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(refused.getMessage())
        .isEqualTo("The requested pseudonym namespace 'nowhere' does not exist.");
    assertThat(refused.metadata()).containsEntry("namespace", "nowhere");
  }

  @Test
  void countedCreationGrowsAValueToItsCountAndNeverShrinksIt() {
    namespace("multiple", null, true, null, ParentValidationMode.UNSPECIFIED);

    List<Pseudonym> three =
        service.createCounted(caller, "multiple", "a", OptionalLong.of(3)).await();
    List<Pseudonym> two =
        service.createCounted(caller, "multiple", "a", OptionalLong.of(2)).await();

    assertThat(three).extracting(Pseudonym::sequenceNumber).containsExactly(0L, 1L, 2L);
    assertThat(three).extracting(Pseudonym::pseudonymValue).doesNotHaveDuplicates();
    assertThat(two).isEqualTo(three);
    assertThat(service.createCounted(caller, "multiple", "a", OptionalLong.empty()).await())
        .isEqualTo(three);
    assertThat(service.resolve(caller, "multiple", "a").await()).isEqualTo(three);
  }

  @Test
  void countedCreationRefusesCountsOutsideItsBounds() {
    namespace("multiple", null, true, null, ParentValidationMode.UNSPECIFIED);
    namespace("single");

    ServiceException none =
        failure(service.createCounted(caller, "multiple", "a", OptionalLong.of(0)));
    ServiceException tooMany =
        failure(
            service.createCounted(
                caller, "multiple", "a", OptionalLong.of(PseudonymService.MAX_COUNT + 1)));
    ServiceException notAllowed =
        failure(service.createCounted(caller, "single", "a", OptionalLong.of(2)));

    assertThat(none.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(none.getMessage()).isEqualTo("count must be at least 1.");
    assertThat(tooMany.getMessage()).isEqualTo("count must be at most 10000.");
    assertThat(notAllowed.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
    assertThat(notAllowed.getMessage())
        .isEqualTo(
            "Namespace 'single' does not allow storing multiple pseudonyms per original value.");
    assertThat(repository.rows()).isEmpty();
  }

  @Test
  void batchCreationAnswersInRequestOrderStoringEachValueOnce() {
    namespace("patients");
    Pseudonym known = service.create(caller, "patients", "b").await();

    List<Pseudonym> created = service.createAll(caller, "patients", List.of("b", "a", "b")).await();

    assertThat(created).extracting(Pseudonym::originalValue).containsExactly("b", "a", "b");
    assertThat(created.get(0)).isEqualTo(known).isEqualTo(created.get(2));
    assertThat(repository.rows()).hasSize(2);
    assertThat(service.create(caller, "patients", "a").await()).isEqualTo(created.get(1));
  }

  @Test
  void batchCreationRefusesABlankValueByItsPositionBeforeStoringAny() {
    namespace("patients");

    ServiceException refused = failure(service.createAll(caller, "patients", List.of("a", " ")));

    assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(refused.getMessage()).isEqualTo("The original value 2 of 2 must not be blank.");
    assertThat(refused.metadata()).containsEntry("index", "1");
    assertThat(repository.rows()).isEmpty();
  }

  @Test
  void aBatchLargerThanTheLimitIsRefused() {
    namespace("patients");

    ServiceException refused =
        failure(service.createAll(caller, "patients", List.of("a", "b", "c", "d", "e")));

    assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(refused.getMessage())
        .isEqualTo("A batch holds at most 4 values (Pseudonymization__Batch__MaxSize), not 5.");
    assertThat(service.maxBatchSize()).isEqualTo(MAX_BATCH);
    assertThat(failure(service.findAll(caller, "patients", List.of("a", "b", "c", "d", "e"))))
        .hasMessage(refused.getMessage());
  }

  @Test
  void aValueTheRegexRefusesIsNamedByThePatternNeverByItself() {
    namespace("digits", "[0-9]+", false, null, ParentValidationMode.UNSPECIFIED);

    ServiceException single = failure(service.create(caller, "digits", "abc"));
    ServiceException batch = failure(service.createAll(caller, "digits", List.of("12", "abc")));

    assertThat(single.code()).isEqualTo(ErrorCode.PATTERN_MISMATCH);
    assertThat(single.getMessage())
        .isEqualTo(
            "The original value does not match the required pattern '[0-9]+' for namespace"
                + " 'digits'.");
    assertThat(batch.getMessage())
        .isEqualTo(
            "The original value 2 of 2 does not match the required pattern '[0-9]+' for"
                + " namespace 'digits'.");
    assertThat(batch.metadata()).containsEntry("index", "1");
    assertThat(repository.rows()).isEmpty();
    assertThat(service.createEachValid(caller, "digits", List.of("12", "abc", " ")).await())
        .extracting(Optional::isPresent)
        .containsExactly(true, false, false);
  }

  @Test
  void aChildNamespaceTakesOnlyPseudonymsOfItsParent() {
    namespace("parent");
    namespace("child", null, false, "parent", ParentValidationMode.ENSURE_EXISTS);
    String ofParent = service.create(caller, "parent", "a").await().pseudonymValue();

    ServiceException refused = failure(service.create(caller, "child", "not-a-pseudonym"));
    Pseudonym child = service.create(caller, "child", ofParent).await();

    assertThat(refused.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
    assertThat(refused.getMessage())
        .isEqualTo(
            "The original value does not exist as a pseudonym in the parent namespace 'parent'"
                + " required by namespace 'child'.");
    assertThat(child.originalValue()).isEqualTo(ofParent);
    assertThat(failure(service.createAll(caller, "child", List.of(ofParent, "x"))).getMessage())
        .startsWith("The original value 2 of 2 does not exist as a pseudonym");
  }

  @Test
  void aValueTooLongOrBlankIsRefusedByCreateAndNeverLookedUp() {
    namespace("patients");
    String tooLong = "x".repeat(5000);

    assertThat(failure(service.create(caller, "patients", " ")).getMessage())
        .isEqualTo("The original value must not be blank.");
    assertThat(failure(service.create(caller, "patients", tooLong)).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(PseudonymService.isStorable(tooLong)).isFalse();
    assertThat(PseudonymService.isStorable(" ")).isFalse();
    assertThat(PseudonymService.isStorable("a")).isTrue();

    int before = repository.lookups();
    assertThat(service.findAll(caller, "patients", List.of(" ", tooLong)).await())
        .containsExactly(Optional.empty(), Optional.empty());
    assertThat(repository.lookups()).isEqualTo(before);
  }

  @Test
  void aMistypedPseudonymIsAnsweredOnItsOwnByLookupAllAndFailsGetAllBeforeAnyLookup() {
    namespaces
        .create(
            caller,
            new NamespaceDraft(
                "alphabet",
                null,
                GenerationMethod.X_SECURE_RANDOM_ALPHABET.number(),
                9,
                "",
                "",
                null,
                false,
                null,
                ParentValidationMode.UNSPECIFIED.number(),
                new AlphabetFormatDraft("0123456789", CheckDigitKind.DAMM.number(), 5, "-")))
        .await();
    Pseudonym a = service.create(caller, "alphabet", "a").await();
    String value = a.pseudonymValue();
    char check = value.charAt(value.length() - 1);
    String mistyped =
        value.substring(0, value.length() - 1) + (char) ('0' + (check - '0' + 1) % 10);
    int before = repository.lookups();

    ServiceException refused =
        failure(service.getAll(caller, "alphabet", List.of(value, mistyped)));
    assertThat(repository.lookups()).isEqualTo(before);
    List<ReverseLookup> each =
        service.lookupAll(caller, "alphabet", List.of(value.replace("-", ""), mistyped)).await();

    assertThat(value).matches("\\d{5}-\\d{5}");
    assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(refused.getMessage())
        .isEqualTo("The pseudonym's check digit does not match: it was mistyped.");
    assertThat(refused.metadata()).containsEntry("index", "1").containsEntry("pseudonym", mistyped);
    assertThat(each.get(0)).isEqualTo(new ReverseLookup(a, null));
    assertThat(each.get(1).found()).isEmpty();
    assertThat(each.get(1).refusal().getMessage()).isEqualTo(refused.getMessage());
    assertThat(each.get(1).refusal().metadata()).containsEntry("index", "1");
  }

  @Test
  void lookupsAnswerByPseudonymAndByOriginalValueWithoutCreating() {
    namespace("patients");
    Pseudonym a = service.create(caller, "patients", "a").await();

    assertThat(service.get(caller, "patients", a.pseudonymValue()).await()).isEqualTo(a);
    assertThat(service.lookup(caller, "patients", "unknown").await()).isEmpty();
    assertThat(
            service.lookupAll(caller, "patients", List.of("unknown", a.pseudonymValue())).await())
        .containsExactly(new ReverseLookup(null, null), new ReverseLookup(a, null));
    assertThat(service.find(caller, "patients", "a").await()).contains(a);
    assertThat(service.findAll(caller, "patients", List.of("b", "a", "b")).await())
        .containsExactly(Optional.empty(), Optional.of(a), Optional.empty());
    assertThat(service.resolveStored(caller, "patients", "b").await()).isEmpty();
    assertThat(repository.rows()).containsExactly(a);
  }

  @Test
  void lookupsOfUnknownValuesFailWithTheirWords() {
    namespace("patients");
    Pseudonym a = service.create(caller, "patients", "a").await();

    ServiceException get = failure(service.get(caller, "patients", "unknown"));
    ServiceException getAll =
        failure(service.getAll(caller, "patients", List.of(a.pseudonymValue(), "unknown")));
    ServiceException resolve = failure(service.resolve(caller, "patients", "b"));

    assertThat(get.code()).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(get.getMessage())
        .isEqualTo("The requested pseudonym does not exist in the namespace.");
    assertThat(get.metadata()).containsEntry("pseudonym", "unknown");
    assertThat(getAll.getMessage())
        .isEqualTo("The pseudonym 2 of 2 does not exist in the namespace 'patients'.");
    assertThat(getAll.metadata()).containsEntry("index", "1");
    assertThat(resolve.getMessage())
        .isEqualTo("No pseudonym exists in the namespace for the requested original value.");
    assertThat(resolve.metadata()).doesNotContainValue("b");
  }

  @Test
  void aDeletedValueIsGoneAndGetsANewPseudonym() {
    namespace("patients");
    Pseudonym a = service.create(caller, "patients", "a").await();

    List<Pseudonym> withdrawn =
        service.withdraw(caller, Withdrawal.DELETE, "patients", "a").await();

    assertThat(withdrawn).extracting(Pseudonym::pseudonymValue).containsExactly(a.pseudonymValue());
    assertThat(withdrawn).extracting(Pseudonym::originalValue).containsOnlyNulls();
    assertThat(failure(service.get(caller, "patients", a.pseudonymValue())).code())
        .isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(service.checkWithdrawal(caller, Withdrawal.DELETE, "patients", "a").await())
        .isFalse();
    assertThat(service.create(caller, "patients", "a").await().pseudonymValue())
        .isNotEqualTo(a.pseudonymValue());
  }

  @Test
  void anAnonymizedValuesPseudonymIsKeptAndAnsweredAsWithdrawn() {
    namespace("patients");
    Pseudonym a = service.create(caller, "patients", "a").await();
    assertThat(service.checkWithdrawal(caller, Withdrawal.ANONYMIZE, "patients", "a").await())
        .isTrue();

    List<Pseudonym> withdrawn =
        service.withdraw(caller, Withdrawal.ANONYMIZE, "patients", "a").await();
    ServiceException get = failure(service.get(caller, "patients", a.pseudonymValue()));
    ServiceException getAll =
        failure(service.getAll(caller, "patients", List.of(a.pseudonymValue())));

    assertThat(withdrawn).singleElement().satisfies(p -> assertThat(p.withdrawn()).isTrue());
    assertThat(get.code()).isEqualTo(ErrorCode.WITHDRAWN);
    assertThat(get.getMessage()).isEqualTo("The original value of the pseudonym was withdrawn.");
    assertThat(get.metadata())
        .isEqualTo(Map.of("namespace", "patients", "pseudonym", a.pseudonymValue()));
    assertThat(getAll.getMessage())
        .isEqualTo("The original value of the pseudonym 1 of 1 was withdrawn.");
    assertThat(getAll.metadata()).containsEntry("index", "0");
    assertThat(failure(service.lookup(caller, "patients", a.pseudonymValue())).code())
        .isEqualTo(ErrorCode.WITHDRAWN);
  }

  @Test
  void withdrawingAValueWithoutPseudonymsSaysSoWithoutNamingIt() {
    namespace("patients");

    ServiceException refused =
        failure(service.withdraw(caller, Withdrawal.DELETE, "patients", "secret"));

    assertThat(refused.code()).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(refused.getMessage())
        .isEqualTo("No pseudonym exists in the namespace for the original value to withdraw.");
    assertThat(refused.metadata()).isEqualTo(Map.of("namespace", "patients"));
    assertThat(service.withdrawStored(caller, Withdrawal.DELETE, "patients", "secret").await())
        .isEmpty();
    assertThat(failure(service.withdraw(caller, Withdrawal.DELETE, "patients", " ")).getMessage())
        .isEqualTo("The original value must not be blank.");
  }

  @Test
  void batchWithdrawalAnswersEachValueInRequestOrder() {
    namespace("patients");
    Pseudonym a = service.create(caller, "patients", "a").await();
    Pseudonym b = service.create(caller, "patients", "b").await();

    List<List<Pseudonym>> withdrawn =
        service
            .withdrawAll(caller, Withdrawal.DELETE, "patients", List.of("a", "none", "a"))
            .await();

    assertThat(withdrawn).hasSize(3);
    assertThat(withdrawn.get(0))
        .extracting(Pseudonym::pseudonymValue)
        .containsExactly(a.pseudonymValue());
    assertThat(withdrawn.get(1)).isEmpty();
    assertThat(withdrawn.get(2)).isEqualTo(withdrawn.get(0));
    assertThat(repository.rows()).containsExactly(b);
    assertThat(
            failure(service.withdrawAll(caller, Withdrawal.DELETE, "patients", List.of("b", "")))
                .getMessage())
        .isEqualTo("The original value 2 of 2 must not be blank.");
    assertThat(repository.rows()).containsExactly(b);
  }

  @Test
  void pagesListEveryPseudonymNewestFirstWithoutOriginalValues() {
    namespace("patients");
    List<Pseudonym> created =
        service.createAll(caller, "patients", List.of("a", "b", "c", "d")).await();
    service.create(caller, "patients", "e").await();

    PseudonymPage first = service.list(caller, "patients", 2, "", true).await();
    PseudonymPage second =
        service.list(caller, "patients", 2, first.nextPageToken(), false).await();
    PseudonymPage last = service.list(caller, "patients", 2, second.nextPageToken(), false).await();

    assertThat(first.totalSize()).hasValue(5);
    assertThat(second.totalSize()).isEmpty();
    assertThat(first.nextPageToken()).isNotEmpty();
    assertThat(last.nextPageToken()).isEmpty();
    List<Pseudonym> listed =
        Stream.of(first, second, last).flatMap(page -> page.pseudonyms().stream()).toList();
    assertThat(listed).extracting(Pseudonym::originalValue).containsOnlyNulls();
    assertThat(listed.subList(1, 5))
        .extracting(Pseudonym::pseudonymValue)
        .containsExactlyElementsOf(
            created.reversed().stream().map(Pseudonym::pseudonymValue).toList());
    assertThat(service.list(caller, "patients", 0, "", false).await().pseudonyms()).hasSize(5);
  }

  @Test
  void aPageTokenOfAnotherNamespaceIsRefused() {
    namespace("patients");
    namespace("others");
    service.createAll(caller, "patients", List.of("a", "b")).await();
    String token = service.list(caller, "patients", 1, "", false).await().nextPageToken();

    ServiceException refused = failure(service.list(caller, "others", 1, token, false));

    assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }
}
