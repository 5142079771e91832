package org.vfps.cache;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.benmanes.caffeine.cache.Ticker;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceRepository;
import org.vfps.namespace.OriginalValueRegex;
import org.vfps.namespace.ParentValidationMode;
import org.vfps.pseudonym.Candidates;
import org.vfps.pseudonym.ListCursor;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymRepository;
import org.vfps.pseudonym.Upserted;
import org.vfps.pseudonym.Withdrawal;

class CachingRepositoriesTest {

  private final AtomicLong nanos = new AtomicLong();
  private final Ticker ticker = nanos::get;
  private final VfpsCache cache = new VfpsCache(100, Duration.ofMinutes(10), ticker);
  private final CountingNamespaces namespaceStore = new CountingNamespaces();
  private final CountingPseudonyms pseudonymStore = new CountingPseudonyms();
  private final CachingNamespaceRepository namespaces =
      new CachingNamespaceRepository(namespaceStore, cache);
  private final CachingPseudonymRepository pseudonyms =
      new CachingPseudonymRepository(pseudonymStore, cache);

  private static Namespace namespace(String name) {
    Instant now = Instant.parse("2026-11-30T00:00:00Z");
    return new Namespace(
        name,
        "",
        GenerationMethod.UUID4,
        36,
        "",
        "",
        OriginalValueRegex.NONE,
        false,
        null,
        ParentValidationMode.UNSPECIFIED,
        null,
        now,
        now);
  }

  @Test
  void aFoundNamespaceIsServedFromTheCacheAfterwards() {
    namespaceStore.rows.put("a", namespace("a"));

    assertThat(namespaces.find("a").result()).contains(namespace("a"));
    namespaceStore.rows.clear();
    assertThat(namespaces.find("a").result()).contains(namespace("a"));

    assertThat(namespaceStore.finds).isEqualTo(1);
    assertThat(cache.counts()).isEqualTo(new VfpsCache.Counts(1, 1, 1));
  }

  @Test
  void aMissIsNotCached() {
    assertThat(namespaces.find("later").result()).isEmpty();
    namespaceStore.rows.put("later", namespace("later"));

    assertThat(namespaces.find("later").result()).contains(namespace("later"));
    assertThat(namespaceStore.finds).isEqualTo(2);
  }

  @Test
  void entriesExpireAfterTheConfiguredTime() {
    namespaceStore.rows.put("a", namespace("a"));
    namespaces.find("a");

    nanos.addAndGet(Duration.ofMinutes(10).toNanos() - 1);
    namespaces.find("a");
    assertThat(namespaceStore.finds).isEqualTo(1);

    nanos.addAndGet(2);
    namespaces.find("a");
    assertThat(namespaceStore.finds).isEqualTo(2);
  }

  @Test
  void theCacheHoldsAtMostItsSizeLimit() {
    VfpsCache small = new VfpsCache(10, Duration.ofMinutes(10), ticker);
    CachingPseudonymRepository cached = new CachingPseudonymRepository(pseudonymStore, small);
    for (int i = 0; i < 50; i++) {
      cached.upsert(namespace("ns"), "value-" + i, () -> "candidate");
    }

    small.cleanUp();
    assertThat(small.counts().entries()).isLessThanOrEqualTo(10);
  }

  @Test
  void aRepeatedCreateIsServedFromTheCache() {
    Pseudonym first = pseudonyms.upsert(namespace("ns"), "x", () -> "p1").result();
    Pseudonym second = pseudonyms.upsert(namespace("ns"), "x", () -> "p2").result();

    assertThat(second).isEqualTo(first);
    assertThat(pseudonymStore.upserts).isEqualTo(1);
  }

  @Test
  void onlyTheCallThatLoadedANewPairIsToldItInsertedIt() {
    Promise<Void> gate = Promise.promise();
    pseudonymStore.gate = gate.future();

    Future<Upserted> loading = pseudonyms.insertIfAbsent(namespace("ns"), "x", () -> "p1");
    Future<Upserted> waiting = pseudonyms.insertIfAbsent(namespace("ns"), "x", () -> "p2");
    gate.complete();
    Upserted cached = pseudonyms.insertIfAbsent(namespace("ns"), "x", () -> "p3").result();

    assertThat(loading.result().inserted()).isTrue();
    assertThat(waiting.result().inserted()).isFalse();
    assertThat(cached.inserted()).isFalse();
    assertThat(List.of(loading.result(), waiting.result(), cached))
        .extracting(upserted -> upserted.pseudonym().pseudonymValue())
        .containsOnly("p1");
    assertThat(pseudonymStore.upserts).isEqualTo(1);
  }

  @Test
  void aBatchLoadsOnlyTheValuesTheCacheLacksAndCachesThem() {
    Pseudonym cached = pseudonyms.upsert(namespace("ns"), "x", () -> "p-x").result();

    List<Pseudonym> batch =
        pseudonyms
            .upsertAll(namespace("ns"), List.of("y", "x", "z"), value -> () -> "p-" + value)
            .result();

    assertThat(batch).extracting(Pseudonym::pseudonymValue).containsExactly("p-y", "p-x", "p-z");
    assertThat(batch.get(1)).isEqualTo(cached);
    assertThat(pseudonymStore.batchValues).containsExactly("y", "z");
    pseudonymStore.rows.clear();
    assertThat(pseudonyms.upsert(namespace("ns"), "z", () -> "other").result().pseudonymValue())
        .isEqualTo("p-z");
  }

  @Test
  void aLookupByOriginalValueAsksTheStoreOnlyForTheValuesTheCacheLacks() {
    Pseudonym cached = pseudonyms.upsert(namespace("ns"), "x", () -> "p-x").result();
    pseudonymStore.upsert(namespace("ns"), "y", () -> "p-y").result();

    Map<String, Pseudonym> found =
        pseudonyms.findAllByOriginal("ns", List.of("x", "y", "z")).result();
    Map<String, Pseudonym> again = pseudonyms.findAllByOriginal("ns", List.of("x")).result();

    assertThat(found).containsOnlyKeys("x", "y").containsEntry("x", cached);
    assertThat(found.get("y").pseudonymValue()).isEqualTo("p-y");
    assertThat(again).containsExactly(Map.entry("x", cached));
    assertThat(pseudonymStore.lookedUp).containsExactly("y", "z");
  }

  @Test
  void evictingANamespaceDropsItAndAllItsPseudonymsOnly() {
    namespaceStore.rows.put("a", namespace("a"));
    namespaceStore.rows.put("b", namespace("b"));
    namespaces.find("a");
    namespaces.find("b");
    pseudonyms.upsert(namespace("a"), "x", () -> "p");
    pseudonyms.upsert(namespace("a"), "y", () -> "q");
    pseudonyms.upsert(namespace("b"), "x", () -> "r");

    cache.evictNamespace("a");

    assertThat(cache.counts().entries()).isEqualTo(2);
    namespaces.find("a");
    namespaces.find("b");
    pseudonyms.upsert(namespace("a"), "x", () -> "p");
    pseudonyms.upsert(namespace("b"), "x", () -> "r");
    assertThat(namespaceStore.finds).isEqualTo(3);
    assertThat(pseudonymStore.upserts).isEqualTo(4);
  }

  @Test
  void evictingWithdrawnPseudonymsDropsTheirPairsOnlyAndANewCreateGetsANewPseudonym() {
    pseudonyms.upsert(namespace("a"), "x", () -> "p");
    pseudonyms.upsert(namespace("a"), "y", () -> "q");
    pseudonyms.upsert(namespace("b"), "x", () -> "p");
    pseudonyms.withdraw("a", List.of("x"), Withdrawal.DELETE);

    cache.evictPseudonyms("a", Set.of("p"));

    assertThat(cache.counts().entries()).isEqualTo(2);
    assertThat(pseudonyms.upsert(namespace("a"), "x", () -> "p2").result().pseudonymValue())
        .isEqualTo("p2");
    assertThat(pseudonyms.upsert(namespace("a"), "y", () -> "other").result().pseudonymValue())
        .isEqualTo("q");
    assertThat(pseudonyms.upsert(namespace("b"), "x", () -> "other").result().pseudonymValue())
        .isEqualTo("p");
    assertThat(pseudonymStore.upserts).isEqualTo(4);
  }

  @Test
  void aWithdrawalEvictsTheNamespacesLoadsInFlightWhateverTheyWillAnswer() {
    Promise<Void> gate = Promise.promise();
    pseudonymStore.gate = gate.future();
    Future<Upserted> loading = pseudonyms.insertIfAbsent(namespace("a"), "x", () -> "p");
    pseudonymStore.gate = Future.succeededFuture();
    pseudonyms.upsert(namespace("b"), "x", () -> "r");

    // the load read its row before the withdrawal of "p" was committed, and answers it late
    cache.evictPseudonyms("a", Set.of("p"));
    pseudonymStore.withdraw("a", List.of("x"), Withdrawal.DELETE);
    gate.complete();

    assertThat(loading.result().pseudonym().pseudonymValue()).isEqualTo("p");
    assertThat(pseudonyms.upsert(namespace("a"), "x", () -> "p2").result().pseudonymValue())
        .isEqualTo("p2");
    assertThat(pseudonyms.upsert(namespace("b"), "x", () -> "other").result().pseudonymValue())
        .isEqualTo("r");
  }

  @Test
  void anEvictionDuringALoadWinsOverTheLoadsResult() {
    Promise<Optional<Namespace>> slow = Promise.promise();
    namespaceStore.next = slow.future();

    Future<Optional<Namespace>> inFlight = namespaces.find("a");
    cache.evictNamespace("a");
    slow.complete(Optional.of(namespace("a")));

    assertThat(inFlight.result()).contains(namespace("a"));
    assertThat(cache.counts().entries()).isZero();
    namespaceStore.rows.put("a", namespace("a"));
    namespaces.find("a");
    assertThat(namespaceStore.finds).isEqualTo(2);
  }

  @Test
  void failedLoadsAreNotCachedAndNotReportedByCaffeine() {
    // Caffeine would report a failed load through java.util.logging, at WARNING with the stack
    // trace, once per failed call: a flood while the database is away
    java.util.logging.Logger caffeine =
        java.util.logging.Logger.getLogger("com.github.benmanes.caffeine.cache.LocalAsyncCache");
    List<LogRecord> reports = new ArrayList<>();
    Handler handler =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            reports.add(record);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    caffeine.addHandler(handler);
    caffeine.setUseParentHandlers(false);
    try {
      namespaceStore.next = Future.failedFuture(new IllegalStateException("database away"));
      assertThat(namespaces.find("a").cause()).hasMessage("database away");

      namespaceStore.rows.put("a", namespace("a"));
      assertThat(namespaces.find("a").result()).contains(namespace("a"));
    } finally {
      caffeine.removeHandler(handler);
      caffeine.setUseParentHandlers(true);
    }
    assertThat(reports).isEmpty();
  }

  @Test
  void deletingThroughTheRepositoryEvictsTheNamespace() {
    namespaceStore.rows.put("a", namespace("a"));
    namespaces.find("a");
    pseudonyms.upsert(namespace("a"), "x", () -> "p");

    namespaces.delete("a");

    assertThat(cache.counts().entries()).isZero();
  }

  /** Namespaces in a map, counting lookups; {@code next} overrides the next lookup's result. */
  static final class CountingNamespaces implements NamespaceRepository {
    final Map<String, Namespace> rows = new HashMap<>();
    int finds;
    Future<Optional<Namespace>> next;

    @Override
    public Future<Namespace> insert(Namespace namespace) {
      rows.put(namespace.name(), namespace);
      return Future.succeededFuture(namespace);
    }

    @Override
    public Future<Boolean> insertIfAbsent(Namespace namespace) {
      return Future.succeededFuture(rows.putIfAbsent(namespace.name(), namespace) == null);
    }

    @Override
    public Future<Optional<Namespace>> find(String name) {
      finds++;
      if (next != null) {
        Future<Optional<Namespace>> result = next;
        next = null;
        return result;
      }
      return Future.succeededFuture(Optional.ofNullable(rows.get(name)));
    }

    @Override
    public Future<List<Namespace>> findPage(String after, int limit) {
      return Future.succeededFuture(
          rows.values().stream()
              .filter(namespace -> namespace.name().compareTo(after) > 0)
              .sorted(java.util.Comparator.comparing(Namespace::name))
              .limit(limit)
              .toList());
    }

    @Override
    public Future<List<Namespace>> findChildren(String parentName) {
      return Future.succeededFuture(
          rows.values().stream()
              .filter(namespace -> parentName.equals(namespace.parentName()))
              .toList());
    }

    @Override
    public Future<Deletion> delete(String name) {
      return Future.succeededFuture(rows.remove(name) != null ? Deletion.DELETED : Deletion.ABSENT);
    }
  }

  /** Pseudonyms that keep the first candidate per pair, counting upserts. */
  static final class CountingPseudonyms implements PseudonymRepository {
    final Map<String, Pseudonym> rows = new HashMap<>();
    final List<String> batchValues = new ArrayList<>();
    final List<String> lookedUp = new ArrayList<>();
    int upserts;

    /** What single upserts wait for before they complete. */
    Future<Void> gate = Future.succeededFuture();

    @Override
    public Future<Upserted> insertIfAbsent(
        Namespace namespace, String originalValue, Candidates candidates) {
      upserts++;
      Instant now = Instant.parse("2026-11-30T00:00:00Z");
      String key = namespace.name() + "/" + originalValue;
      boolean inserted = !rows.containsKey(key);
      Upserted upserted =
          new Upserted(
              rows.computeIfAbsent(
                  key,
                  ignored ->
                      new Pseudonym(
                          namespace.name(), originalValue, candidates.get(), now, now, 0)),
              inserted);
      return gate.map(ignored -> upserted);
    }

    @Override
    public Future<List<Pseudonym>> upsertAll(
        Namespace namespace, List<String> originalValues, Function<String, Candidates> candidates) {
      batchValues.addAll(originalValues);
      return Future.succeededFuture(
          originalValues.stream()
              .map(value -> upsert(namespace, value, candidates.apply(value)).result())
              .toList());
    }

    @Override
    public Future<Optional<Pseudonym>> findByValue(String namespace, String pseudonymValue) {
      return Future.succeededFuture(Optional.empty());
    }

    @Override
    public Future<Map<String, Pseudonym>> findAllByValue(
        String namespace, List<String> pseudonymValues) {
      return Future.succeededFuture(Map.of());
    }

    @Override
    public Future<List<PageRow>> list(String namespace, int limit, Optional<ListCursor> after) {
      return Future.succeededFuture(List.of());
    }

    @Override
    public Future<Long> count(String namespace) {
      return Future.succeededFuture(0L);
    }

    @Override
    public Future<Map<String, Pseudonym>> findAllByOriginal(
        String namespace, List<String> originalValues) {
      lookedUp.addAll(originalValues);
      Map<String, Pseudonym> found = new HashMap<>();
      for (String value : originalValues) {
        Pseudonym row = rows.get(namespace + "/" + value);
        if (row != null) {
          found.put(value, row);
        }
      }
      return Future.succeededFuture(found);
    }

    @Override
    public Future<List<Pseudonym>> findAllOfOriginal(String namespace, String originalValue) {
      return Future.succeededFuture(List.of());
    }

    @Override
    public Future<List<Pseudonym>> growTo(
        Namespace namespace, String originalValue, int count, Supplier<Candidates> candidates) {
      return Future.succeededFuture(List.of());
    }

    @Override
    public Future<Set<String>> existingPseudonymValues(String namespace, List<String> values) {
      return Future.succeededFuture(Set.of());
    }

    @Override
    public Future<List<org.vfps.pseudonym.ImportStatus>> importPairs(
        Namespace namespace, boolean multiple, List<org.vfps.pseudonym.ImportedPair> pairs) {
      return Future.failedFuture(new UnsupportedOperationException("no import here"));
    }

    /** Deletes the rows of the values, whatever the withdrawal. */
    @Override
    public Future<Map<String, List<Pseudonym>>> withdraw(
        String namespace, List<String> originalValues, Withdrawal withdrawal) {
      Map<String, List<Pseudonym>> withdrawn = new HashMap<>();
      for (String value : originalValues) {
        Pseudonym removed = rows.remove(namespace + "/" + value);
        if (removed != null) {
          withdrawn.put(value, List.of(removed));
        }
      }
      return Future.succeededFuture(withdrawn);
    }
  }
}
