package org.vfps.pseudonym;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.vfps.AuditLines;
import org.vfps.ClassResources;
import org.vfps.TestPostgres;
import org.vfps.access.Access;
import org.vfps.access.Audit;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.access.Permission;
import org.vfps.access.Permissions;
import org.vfps.access.RoleModel;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.GenerationSupport;
import org.vfps.namespace.NamespaceEvents;
import org.vfps.namespace.NamespaceService;
import org.vfps.storage.Database;

/** {@link PseudonymService#createAll} and {@link PseudonymService#lookupAll} on PostgreSQL. */
class PseudonymBatchIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  private static final int MAX_BATCH = 50;
  private static final Caller CALLER = new Caller("tester", Set.of("role"), "127.0.0.1");

  private static Vertx vertx;
  private static Database database;
  private static NamespaceService namespaces;

  private final ListAppender<ILoggingEvent> audit = new ListAppender<>();
  private final Logger auditLogger = (Logger) LoggerFactory.getLogger(Audit.LOGGER);
  private final List<Operation> denied = Collections.synchronizedList(new ArrayList<>());

  /** Nobody listens: one replica without caches or metrics. */
  private static final NamespaceEvents NO_LISTENERS =
      new NamespaceEvents() {
        @Override
        public void created(String name) {}

        @Override
        public Future<Void> deleted(String name) {
          return Future.succeededFuture();
        }
      };

  @BeforeAll
  static void connect() {
    vertx = resources.own(Vertx.vertx(), v -> v.close().await());
    database = resources.own(Database.connect(vertx, TestPostgres.database()));
    namespaces =
        new NamespaceService(
            database.namespaces(),
            NO_LISTENERS,
            Clock.systemUTC(),
            Access.open(new Audit(() -> "")),
            GenerationSupport.DEFAULT);
  }

  @BeforeEach
  void captureAudit() {
    audit.start();
    auditLogger.addAppender(audit);
  }

  @AfterEach
  void releaseAudit() {
    auditLogger.detachAppender(audit);
    audit.stop();
  }

  /** The service with every permission but those in {@code withheld}. */
  private PseudonymService service(Permission... withheld) {
    Set<Permission> missing = Set.of(withheld);
    Permissions withholding =
        new Permissions() {
          @Override
          public boolean allows(Caller caller, Permission permission, String namespace) {
            return !missing.contains(permission);
          }

          @Override
          public Set<String> namespaces(Caller caller, Permission permission) {
            return Permissions.EVERYONE.namespaces(caller, permission);
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
    Access access = new Access(withholding, new Audit(() -> ""), denied::add);
    return new PseudonymService(
        namespaces,
        database.pseudonyms(),
        new PageTokens(new byte[32]),
        PseudonymGenerators::forMethod,
        access,
        MAX_BATCH,
        GenerationSupport.DEFAULT,
        WithdrawalEvents.NONE,
        KeyedGenerator.NONE);
  }

  private static String namespace() {
    String name = "batch-domain-" + UUID.randomUUID();
    TestPostgres.execute(
        TestPostgres.database(),
        "INSERT INTO namespaces VALUES ('" + name + "', '', 5, 16, 'p-', '-s', now(), now())");
    return name;
  }

  private static ErrorCode codeOf(Throwable failure) {
    return ((ServiceException) failure).code();
  }

  @Test
  void createAllAnswersInRequestOrderAndAValueGivenTwiceGetsThePseudonymTwice() {
    PseudonymService service = service();
    String namespace = namespace();
    Pseudonym before = service.create(CALLER, namespace, "b").await();

    List<Pseudonym> created =
        service.createAll(CALLER, namespace, List.of("a", "b", "c", "a", "b")).await();

    assertThat(created)
        .extracting(Pseudonym::originalValue)
        .containsExactly("a", "b", "c", "a", "b");
    assertThat(created.get(1)).isEqualTo(before);
    assertThat(created.get(3)).isEqualTo(created.get(0));
    assertThat(created.get(4)).isEqualTo(before);
    assertThat(created)
        .extracting(Pseudonym::pseudonymValue)
        .allMatch(value -> value.matches("p-[0-9a-f]{16}-s"));
    assertThat(created.stream().map(Pseudonym::pseudonymValue).distinct()).hasSize(3);
    assertThat(service.create(CALLER, namespace, "c").await()).isEqualTo(created.get(2));
    assertThat(TestPostgres.pseudonymCount(namespace)).isEqualTo(3);
  }

  @Test
  void createAllOfNothingIsNothingButTheNamespaceMustExist() {
    PseudonymService service = service();

    assertThat(service.createAll(CALLER, namespace(), List.of()).await()).isEmpty();
    assertThatThrownBy(
            () -> service.createAll(CALLER, "missing-" + UUID.randomUUID(), List.of()).await())
        .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.NOT_FOUND));
  }

  @Test
  void oneBadValueRejectsTheWholeBatchNamingItsIndexBeforeAnythingIsStored() {
    PseudonymService service = service();
    String namespace = namespace();
    record Bad(String value, String message) {}
    List<Bad> cases =
        List.of(
            new Bad(" ", "The original value 4 of 5 must not be blank."),
            new Bad("", "The original value 4 of 5 must not be blank."),
            new Bad("a\0b", "The original value 4 of 5 must not contain NUL characters."),
            new Bad(
                "x".repeat(2049),
                "The original value 4 of 5 must not be longer than 2048 bytes in UTF-8."));
    for (Bad bad : cases) {
      List<String> values = new ArrayList<>(List.of("v0", "v1", "v2", bad.value(), "v4"));

      assertThatThrownBy(() -> service.createAll(CALLER, namespace, values).await())
          .isInstanceOfSatisfying(
              ServiceException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                assertThat(e.getMessage()).isEqualTo(bad.message());
                assertThat(e.metadata()).containsEntry("index", "3");
              });
    }
    assertThat(TestPostgres.pseudonymCount(namespace)).isZero();
  }

  @Test
  void aBatchOverTheLimitIsRejectedBeforeAnythingIsStored() {
    PseudonymService service = service();
    String namespace = namespace();
    List<String> values = IntStream.rangeClosed(0, MAX_BATCH).mapToObj(i -> "v" + i).toList();

    assertThatThrownBy(() -> service.createAll(CALLER, namespace, values).await())
        .isInstanceOfSatisfying(
            ServiceException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "A batch holds at most 50 values (Pseudonymization__Batch__MaxSize), not"
                          + " 51.");
            });
    assertThatThrownBy(() -> service.lookupAll(CALLER, namespace, values).await())
        .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    assertThat(service.createAll(CALLER, namespace, values.subList(0, MAX_BATCH)).await())
        .hasSize(MAX_BATCH);
  }

  @Test
  void theWritePermissionIsCheckedOncePerCall() {
    String namespace = namespace();
    PseudonymService service = service(Permission.WRITE);

    assertThatThrownBy(() -> service.createAll(CALLER, namespace, List.of("a", "b", "c")).await())
        .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.PERMISSION_DENIED));
    assertThat(denied).containsExactly(Operation.PSEUDONYM_BATCH_CREATE);
    assertThat(TestPostgres.pseudonymCount(namespace)).isZero();
  }

  @Test
  void lookupAllAnswersInRequestOrderAndAuditsEveryValueButNoOriginal() {
    PseudonymService service = service();
    String namespace = namespace();
    List<Pseudonym> stored =
        service.createAll(CALLER, namespace, List.of("original-one", "original-two")).await();
    String one = stored.get(0).pseudonymValue();
    String two = stored.get(1).pseudonymValue();
    List<String> asked = List.of(two, "nope", one, two, "x".repeat(5000));
    audit.list.clear();

    List<Optional<Pseudonym>> found =
        service.lookupAll(CALLER, namespace, asked).await().stream()
            .map(ReverseLookup::found)
            .toList();

    assertThat(found)
        .containsExactly(
            Optional.of(stored.get(1)),
            Optional.empty(),
            Optional.of(stored.get(0)),
            Optional.of(stored.get(1)),
            Optional.empty());
    List<Map<String, String>> lines = auditLines();
    assertThat(lines).hasSize(asked.size());
    assertThat(lines)
        .extracting(line -> line.get("pseudonym") + " " + line.get("outcome"))
        .containsExactly(
            two + " OK",
            "nope NOT_FOUND",
            one + " OK",
            two + " OK",
            "x".repeat(5000) + " NOT_FOUND");
    assertThat(lines)
        .allSatisfy(
            line ->
                assertThat(line)
                    .containsEntry("operation", "PseudonymService/BatchGet")
                    .containsEntry("subject", "tester")
                    .containsEntry("namespace", namespace));
    assertThat(audit.list)
        .allSatisfy(
            event ->
                assertThat(event.getFormattedMessage() + event.getKeyValuePairs())
                    .doesNotContain("original-one")
                    .doesNotContain("original-two"));
  }

  @Test
  void getAllFailsNamingTheFirstMissingPseudonym() {
    PseudonymService service = service();
    String namespace = namespace();
    String found = service.create(CALLER, namespace, "here").await().pseudonymValue();

    assertThat(service.getAll(CALLER, namespace, List.of(found, found)).await())
        .extracting(Pseudonym::originalValue)
        .containsExactly("here", "here");
    assertThatThrownBy(
            () -> service.getAll(CALLER, namespace, List.of(found, "gone", "also-gone")).await())
        .isInstanceOfSatisfying(
            ServiceException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "The pseudonym 2 of 3 does not exist in the namespace '" + namespace + "'.");
              assertThat(e.metadata())
                  .containsEntry("pseudonym", "gone")
                  .containsEntry("index", "1")
                  .containsEntry("namespace", namespace);
            });
  }

  @Test
  void lookupAllChecksTheReverseLookupPermissionOnceAndFailsForAnUnknownNamespace() {
    String namespace = namespace();
    AtomicInteger before = new AtomicInteger(audit.list.size());

    assertThatThrownBy(
            () ->
                service(Permission.REVERSE_LOOKUP)
                    .lookupAll(CALLER, namespace, List.of("a", "b"))
                    .await())
        .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.PERMISSION_DENIED));
    assertThat(denied).containsExactly(Operation.PSEUDONYM_BATCH_GET);
    assertThat(audit.list.size() - before.get()).as("one denial line").isEqualTo(1);

    String missing = "missing-" + UUID.randomUUID();
    assertThatThrownBy(() -> service().lookupAll(CALLER, missing, List.of("a", "b")).await())
        .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.NOT_FOUND));
    assertThat(auditLines().subList(auditLines().size() - 2, auditLines().size()))
        .extracting(line -> line.get("pseudonym") + " " + line.get("outcome"))
        .containsExactly("a NOT_FOUND", "b NOT_FOUND");
  }

  private List<Map<String, String>> auditLines() {
    return AuditLines.fields(audit.list);
  }
}
