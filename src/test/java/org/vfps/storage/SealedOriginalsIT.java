package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;
import org.vfps.TestPostgres;
import org.vfps.admission.Admission;
import org.vfps.config.ConnectionSettings;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;
import org.vfps.pseudonym.ImportStatus;
import org.vfps.pseudonym.ImportedPair;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymRepository;
import org.vfps.pseudonym.Withdrawal;
import org.vfps.seal.Sealer;
import org.vfps.seal.SealingKeyFile;
import org.vfps.seal.SealingKeys;

/**
 * Sealed namespaces on a real PostgreSQL: every repository operation answers as in a plain one,
 * while the table (and a dump of the database) holds no original value; an existing namespace is
 * sealed and unsealed, and its values re-encrypted, while values are created and looked up.
 */
class SealedOriginalsIT {

  /** Longer than this test's replica goes by an older view of the sealing table. */
  private static final Duration SETTLE = Duration.ofMillis(2500);

  private static Vertx vertx;
  private static ConnectionSettings settings;
  private static SealingKeys keys;
  private static Database database;
  private static PseudonymRepository pseudonyms;

  @BeforeAll
  static void connect() {
    vertx = Vertx.vertx();
    settings = TestPostgres.freshDatabase();
    Migrations.migrate(settings);
    keys = SealingKeys.generate();
    database =
        Database.connect(
            vertx,
            settings,
            UpsertTimer.NONE,
            Admission.unbounded(),
            SealingKeyFile.fixed(new Sealer(keys)));
    pseudonyms = database.pseudonyms();
  }

  @AfterAll
  static void close() {
    database.close();
    vertx.close().await();
  }

  private static Namespace namespace(boolean sealed) {
    String name = "sealed-" + UUID.randomUUID();
    TestPostgres.execute(
        settings,
        "INSERT INTO namespaces VALUES ('" + name + "', '', 5, 16, '', '', now(), now())");
    if (sealed) {
      TestPostgres.execute(
          settings,
          "INSERT INTO vfps_namespace_sealing"
              + " (namespace_name, writes_sealed, reads_plain, index_key_check) VALUES ('"
              + name
              + "', true, false, '\\x"
              + HexFormat.of().formatHex(new Sealer(keys).keyCheck())
              + "')");
    }
    return TestPostgres.storedNamespace(settings, name);
  }

  private static String random() {
    return UUID.randomUUID().toString().replace("-", "");
  }

  private static long count(String sql, String namespace) {
    return TestPostgres.queryLong(settings, sql, namespace);
  }

  private static long plainRows(String namespace) {
    return count(
        "SELECT count(*) FROM pseudonyms WHERE namespace_name = ?"
            + " AND x_sealed_original_value IS NULL AND btrim(original_value, E' \\t') <> ''",
        namespace);
  }

  @Test
  void aSealedNamespaceAnswersEveryOperationAsAPlainOneWhileTheTableHoldsNoValue() {
    Namespace namespace = namespace(true);
    String name = namespace.name();
    Pseudonym created = pseudonyms.upsert(namespace, "patient-1", () -> "p-" + random()).await();
    assertThat(created.originalValue()).isEqualTo("patient-1");
    // get-or-create: the same pseudonym again
    assertThat(pseudonyms.upsert(namespace, "patient-1", () -> "p-" + random()).await())
        .extracting(Pseudonym::pseudonymValue)
        .isEqualTo(created.pseudonymValue());
    List<Pseudonym> batch =
        pseudonyms
            .upsertAll(
                namespace,
                List.of("patient-2", "patient-3", "patient-1"),
                value -> () -> "p-" + random())
            .await();
    assertThat(batch)
        .extracting(Pseudonym::originalValue)
        .containsExactly("patient-2", "patient-3", "patient-1");
    assertThat(batch.get(2).pseudonymValue()).isEqualTo(created.pseudonymValue());

    assertThat(pseudonyms.findByValue(name, created.pseudonymValue()).await())
        .get()
        .extracting(Pseudonym::originalValue)
        .isEqualTo("patient-1");
    assertThat(
            pseudonyms
                .findAllByValue(
                    name, List.of(batch.get(0).pseudonymValue(), batch.get(1).pseudonymValue()))
                .await())
        .extractingByKey(batch.get(1).pseudonymValue())
        .extracting(Pseudonym::originalValue)
        .isEqualTo("patient-3");
    Map<String, Pseudonym> forward =
        pseudonyms.findAllByOriginal(name, List.of("patient-2", "unknown")).await();
    assertThat(forward).containsOnlyKeys("patient-2");
    assertThat(forward.get("patient-2").pseudonymValue()).isEqualTo(batch.get(0).pseudonymValue());
    assertThat(pseudonyms.findAllOfOriginal(name, "patient-3").await())
        .extracting(Pseudonym::pseudonymValue)
        .containsExactly(batch.get(1).pseudonymValue());
    assertThat(pseudonyms.list(name, 10, java.util.Optional.empty()).await()).hasSize(3);

    List<ImportStatus> imported =
        pseudonyms
            .importPairs(
                namespace,
                false,
                List.of(
                    new ImportedPair("patient-4", "imported-4"),
                    new ImportedPair("patient-1", "imported-1")))
            .await();
    assertThat(imported)
        .containsExactly(ImportStatus.IMPORTED, ImportStatus.ORIGINAL_VALUE_CONFLICT);
    assertThat(pseudonyms.findByValue(name, "imported-4").await())
        .get()
        .extracting(Pseudonym::originalValue)
        .isEqualTo("patient-4");

    // withdrawal by value finds the sealed rows: deleted, and anonymized
    assertThat(pseudonyms.withdraw(name, List.of("patient-2"), Withdrawal.DELETE).await())
        .containsOnlyKeys("patient-2");
    assertThat(pseudonyms.findByValue(name, batch.get(0).pseudonymValue()).await()).isEmpty();
    assertThat(pseudonyms.withdraw(name, List.of("patient-3"), Withdrawal.ANONYMIZE).await())
        .containsOnlyKeys("patient-3");
    assertThat(pseudonyms.findByValue(name, batch.get(1).pseudonymValue()).await())
        .get()
        .satisfies(
            withdrawn -> {
              assertThat(withdrawn.withdrawn()).isTrue();
              assertThat(withdrawn.originalValue()).isNull();
            });

    assertThat(plainRows(name)).isZero();
    assertThat(
            count(
                "SELECT count(*) FROM pseudonyms WHERE namespace_name = ?"
                    + " AND original_value LIKE 'patient-%'",
                name))
        .isZero();
  }

  @Test
  void aDumpOfTheDatabaseHoldsNoOriginalValueOfASealedNamespace() {
    Namespace namespace = namespace(true);
    List<String> originals = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      originals.add("dumped-value-" + random());
    }
    pseudonyms.upsertAll(namespace, originals, value -> () -> "d-" + random()).await();
    pseudonyms
        .upsert(namespace, "dumped-single-" + originals.get(0), () -> "d-" + random())
        .await();
    String dump =
        TestPostgres.dump(settings)
            .orElseThrow(() -> new TestAbortedException("needs pg_dump of the server's version"));
    assertThat(dump).contains(namespace.name());
    for (String original : originals) {
      assertThat(dump).doesNotContain(original);
    }
  }

  @Test
  void sealingAndUnsealingAnExistingNamespaceUnderLoadLosesNothing() throws Exception {
    Namespace namespace = namespace(false);
    String name = namespace.name();
    Map<String, String> before = stored(namespace, "existing-", 1200);
    SealingCommands commands =
        new SealingCommands(vertx, database.pool(), new Sealer(keys), line -> {}, SETTLE);

    Load load = new Load(namespace, before);
    load.start();
    long sealed = commands.seal(name).await();
    load.stop();
    assertThat(sealed).isGreaterThanOrEqualTo(1200);
    assertThat(load.failures).isEmpty();
    assertThat(plainRows(name)).isZero();
    load.verify();

    Load again = new Load(namespace, load.expected);
    again.start();
    commands.unseal(name).await();
    again.stop();
    assertThat(again.failures).isEmpty();
    assertThat(
            count(
                "SELECT count(*) FROM pseudonyms WHERE namespace_name = ? AND x_sealed_original_value IS NOT NULL",
                name))
        .isZero();
    assertThat(count("SELECT count(*) FROM vfps_namespace_sealing WHERE namespace_name = ?", name))
        .isZero();
    again.verify();
  }

  /**
   * While a namespace is being sealed, a value's further pseudonyms ({@code growTo}, the path of
   * namespaces with several pseudonyms per value) never take a sequence number that a row of the
   * other form holds, and a writer that read the form before it changed stores nothing.
   */
  @Test
  void aValueGrowingWhileItsNamespaceIsSealedKeepsEachSequenceNumberInOneForm() throws Exception {
    Namespace namespace = namespace(false);
    String name = namespace.name();
    Pseudonym first = pseudonyms.upsert(namespace, "grown", () -> "g-" + random()).await();
    Sealer sealer = new Sealer(keys);
    String check = HexFormat.of().formatHex(sealer.keyCheck());
    // as after a seal's switch: new rows are sealed, and values are looked up in both forms
    TestPostgres.execute(
        settings,
        "INSERT INTO vfps_namespace_sealing"
            + " (namespace_name, writes_sealed, reads_plain, index_key_check) VALUES ('"
            + name
            + "', true, true, '\\x"
            + check
            + "')");
    String blind = sealer.blindIndex(name, "grown");

    Row sealedWriter =
        insertInTransition(
            namespace, blind, sealer.seal(name, blind, "grown"), "grown", true, 0L, 1L);
    assertThat(sealedWriter.getBoolean("present")).isTrue();
    assertThat(
            count(
                "SELECT count(*) FROM pseudonyms WHERE namespace_name = ? AND sequence_number = 0",
                name))
        .as("the plain row keeps sequence number 0; the sealed candidate for it is skipped")
        .isOne();
    assertThat(
            count(
                "SELECT count(*) FROM pseudonyms WHERE namespace_name = ?"
                    + " AND x_sealed_original_value IS NOT NULL AND sequence_number = 1",
                name))
        .isOne();

    Row staleWriter = insertInTransition(namespace, "grown", null, blind, false, 2L);
    assertThat(staleWriter.getBoolean("present")).isFalse();
    assertThat(staleWriter.getBoolean("stale")).isTrue();
    assertThat(count("SELECT count(*) FROM pseudonyms WHERE namespace_name = ?", name))
        .isEqualTo(2);

    Thread.sleep(SETTLE.toMillis()); // this replica's view learns of the transition
    List<Pseudonym> grown =
        pseudonyms.growTo(namespace, "grown", 3, () -> () -> "g-" + random()).await();
    assertThat(grown).extracting(Pseudonym::sequenceNumber).containsExactly(0L, 1L, 2L);
    assertThat(grown).extracting(Pseudonym::originalValue).containsOnly("grown");
    assertThat(grown.get(0).pseudonymValue()).isEqualTo(first.pseudonymValue());
    assertThat(plainRows(name)).isOne();
  }

  /** Runs the guarded insert of sequence numbers as a replica that read the form as given. */
  private static Row insertInTransition(
      Namespace namespace,
      String key,
      byte[] sealed,
      String otherKey,
      boolean writesSealed,
      Long... sequenceNumbers) {
    String[] candidates = new String[sequenceNumbers.length];
    for (int i = 0; i < candidates.length; i++) {
      candidates[i] = "g-" + random();
    }
    Tuple tuple =
        Tuple.of(
            namespace.name(),
            key,
            candidates,
            sequenceNumbers,
            PseudonymRows.createdAt(namespace),
            sealed == null ? null : Buffer.buffer(sealed));
    return database
        .pool()
        .preparedQuery(PseudonymQueries.INSERT_SEQUENCE_NUMBERS_IN_TRANSITION)
        .execute(
            tuple
                .addString(otherKey)
                .addBoolean(writesSealed)
                .addBuffer(Buffer.buffer(new Sealer(keys).keyCheck())))
        .await()
        .iterator()
        .next();
  }

  /** {@code count} values stored in the namespace, with their pseudonyms. */
  private static Map<String, String> stored(Namespace namespace, String prefix, int count) {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      values.add(prefix + i);
    }
    Map<String, String> stored = new HashMap<>();
    for (Pseudonym pseudonym :
        pseudonyms.upsertAll(namespace, values, value -> () -> "s-" + random()).await()) {
      stored.put(pseudonym.originalValue(), pseudonym.pseudonymValue());
    }
    return stored;
  }

  /**
   * Runs {@code command} with the rotated keys of a second replica, while that replica creates and
   * looks values up; returns what the command returned, once the load found nothing wrong.
   */
  private static long underLoadOf(
      Namespace namespace,
      Map<String, String> before,
      Sealer rotated,
      Function<SealingCommands, Future<Long>> command)
      throws InterruptedException {
    try (Database replica =
        Database.connect(
            vertx,
            settings,
            UpsertTimer.NONE,
            Admission.unbounded(),
            SealingKeyFile.fixed(rotated))) {
      Load load = new Load(namespace, before, replica.pseudonyms());
      load.start();
      long done =
          command
              .apply(new SealingCommands(vertx, replica.pool(), rotated, line -> {}, SETTLE))
              .await();
      load.stop();
      assertThat(load.failures).isEmpty();
      load.verify();
      return done;
    }
  }

  @Test
  void reencryptionUnderANewDataKeyUnderLoadLosesNothing() throws Exception {
    Namespace namespace = namespace(true);
    Map<String, String> before = stored(namespace, "rotated-", 800);
    Sealer newSealer = new Sealer(keys.withNewDataKey());
    long reencrypted = underLoadOf(namespace, before, newSealer, SealingCommands::reencrypt);
    assertThat(reencrypted).isGreaterThanOrEqualTo(800);
    assertThat(
            count(
                "SELECT count(*) FROM pseudonyms WHERE namespace_name = ?"
                    + " AND substring(x_sealed_original_value FROM 2 FOR 4) <> '\\x00000002'::bytea",
                namespace.name()))
        .isZero();
  }

  @Test
  void reindexingUnderANewIndexKeyUnderLoadLosesNothing() throws Exception {
    Namespace namespace = namespace(true);
    Map<String, String> before = stored(namespace, "reindexed-", 700);
    Sealer newSealer = new Sealer(keys.withNewIndexSecret());
    long reindexed =
        underLoadOf(namespace, before, newSealer, commands -> commands.reindex(namespace.name()));
    assertThat(reindexed).isGreaterThanOrEqualTo(700);
    // every row is indexed under the new key now
    String sample = "reindexed-7";
    assertThat(
            count(
                "SELECT count(*) FROM pseudonyms WHERE namespace_name = ? AND original_value = '"
                    + newSealer.blindIndex(2, namespace.name(), sample)
                    + "'",
                namespace.name()))
        .isEqualTo(1);
    assertThat(
            count(
                "SELECT count(*) FROM vfps_namespace_sealing WHERE namespace_name = ?"
                    + " AND other_index_key_check IS NULL",
                namespace.name()))
        .isEqualTo(1);
    // a replica that holds the old index key only cannot serve the namespace any more
    assertThatThrownBy(
            () -> pseudonyms.findAllByOriginal(namespace.name(), List.of("reindexed-1")).await())
        .isInstanceOfSatisfying(
            ServiceException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION));
    // the other tests' key file does not hold the new index key: the namespace goes
    TestPostgres.execute(
        settings, "DELETE FROM namespaces WHERE name = '" + namespace.name() + "'");
  }

  @Test
  void aReplicaWithoutTheKeyRefusesASealedNamespace() {
    Namespace namespace = namespace(true);
    pseudonyms.upsert(namespace, "keyed", () -> "k-" + random()).await();
    try (Database keyless = Database.connect(vertx, settings)) {
      assertThat(keyless.anySealedNamespace().await()).isTrue();
      assertThatThrownBy(
              () -> keyless.pseudonyms().upsert(namespace, "other", () -> "k-" + random()).await())
          .isInstanceOfSatisfying(
              ServiceException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
                assertThat(e.getMessage()).contains("Sealing__KeyFile");
              });
    }
  }

  @Test
  void aReplicaWithAnotherKeyFileRefusesASealedNamespace() {
    Namespace namespace = namespace(true);
    pseudonyms.upsert(namespace, "keyed", () -> "k-" + random()).await();
    try (Database other =
        Database.connect(
            vertx,
            settings,
            UpsertTimer.NONE,
            Admission.unbounded(),
            SealingKeyFile.fixed(new Sealer(SealingKeys.generate())))) {
      assertThat(other.sealedWithOtherKey().await()).contains(namespace.name());
      assertThatThrownBy(
              () ->
                  other.pseudonyms().findAllByOriginal(namespace.name(), List.of("keyed")).await())
          .isInstanceOfSatisfying(
              ServiceException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
                assertThat(e.getMessage()).contains("another key file");
              });
    }
  }

  /**
   * Creates of known and new values and reverse lookups, one after the other on a thread of its
   * own, each checked against what was stored before.
   */
  private static final class Load {
    private final Namespace namespace;
    private final PseudonymRepository repository;
    private final Map<String, String> expected = new java.util.concurrent.ConcurrentHashMap<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private Thread thread;

    Load(Namespace namespace, Map<String, String> before) {
      this(namespace, before, pseudonyms);
    }

    Load(Namespace namespace, Map<String, String> before, PseudonymRepository repository) {
      this.namespace = namespace;
      this.repository = repository;
      this.expected.putAll(before);
    }

    void start() {
      List<String> known = new ArrayList<>(expected.keySet());
      thread =
          new Thread(
              () -> {
                int i = 0;
                while (running.get()) {
                  try {
                    String value = known.get(i % known.size());
                    Pseudonym again =
                        repository.upsert(namespace, value, () -> "n-" + random()).await();
                    if (!again.pseudonymValue().equals(expected.get(value))) {
                      failures.add("a known value got another pseudonym");
                    }
                    String fresh = "fresh-" + Instant.now().toEpochMilli() + "-" + i;
                    Pseudonym created =
                        repository.upsert(namespace, fresh, () -> "n-" + random()).await();
                    expected.put(fresh, created.pseudonymValue());
                    Pseudonym found =
                        repository
                            .findByValue(namespace.name(), expected.get(value))
                            .await()
                            .orElse(null);
                    if (found == null || !value.equals(found.originalValue())) {
                      failures.add("a reverse lookup missed or answered wrong");
                    }
                  } catch (RuntimeException e) {
                    failures.add(e.toString());
                  }
                  i++;
                }
              },
              "sealing-load");
      thread.start();
    }

    void stop() throws InterruptedException {
      running.set(false);
      thread.join();
    }

    /** Every value created, before or during the command, has its pseudonym both ways. */
    void verify() {
      Map<String, Pseudonym> forward =
          repository.findAllByOriginal(namespace.name(), List.copyOf(expected.keySet())).await();
      assertThat(forward).hasSize(expected.size());
      expected.forEach(
          (value, pseudonym) ->
              assertThat(forward.get(value).pseudonymValue()).as(value).isEqualTo(pseudonym));
      assertThat(
              TestPostgres.queryLong(
                  settings,
                  "SELECT count(*) FROM pseudonyms WHERE namespace_name = ?",
                  namespace.name()))
          .isEqualTo(expected.size());
    }
  }
}
