package org.vfps.storage;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.vfps.admission.Admission;
import org.vfps.admission.CallDeadline;
import org.vfps.admission.ReplyBytes;
import org.vfps.cache.Invalidation;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceFailures;
import org.vfps.pseudonym.AnonymizedOriginals;
import org.vfps.pseudonym.Candidates;
import org.vfps.pseudonym.ImportStatus;
import org.vfps.pseudonym.ImportedPair;
import org.vfps.pseudonym.ListCursor;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymFailures;
import org.vfps.pseudonym.PseudonymRepository;
import org.vfps.pseudonym.Upserted;
import org.vfps.pseudonym.Withdrawal;

/** Pseudonyms in the {@code pseudonyms} table. Thread-safe. */
public final class PgPseudonymRepository implements PseudonymRepository {

  /**
   * Runs of the upsert that may come back empty under a concurrent insert of the same pair, or lose
   * a deadlock to a concurrent multi-row statement.
   */
  private static final int UPSERT_ATTEMPTS = 3;

  /** Collisions in a row after which the namespace's pseudonyms are counted. */
  static final int COUNT_AFTER_COLLISIONS = 4;

  /** The most collisions tolerated for one value: a bound on its round trips. */
  static final int MAX_COLLISIONS = 1000;

  /** The most statements that {@link #growTo} sends for one call. */
  static final int GROW_ROUNDS = 10;

  /** The unique index on pseudonym values within a namespace, since migration V4. */
  private static final String UNIQUE_PSEUDONYM_INDEX =
      "ix_pseudonyms_namespace_name_pseudonym_value";

  /**
   * Its name from V2 until V4 renamed it: a replica may meet either while a rolling upgrade
   * migrates.
   */
  private static final String UNIQUE_PSEUDONYM_INDEX_BEFORE_V4 =
      "ux_pseudonyms_namespace_name_pseudonym_value";

  /**
   * At most this many values in one statement of the lookups of many values ({@link #findAllIn}).
   */
  static final int LOOKUP_CHUNK = 500;

  /** How often an import decides a pair again that met a row stored while it was decided. */
  private static final int MAX_IMPORT_ATTEMPTS = 3;

  /**
   * The bytes a pseudonym takes in a reply besides its texts: its two times, field names and
   * framing (about what REST's JSON takes; protobuf takes less, FHIR more).
   */
  static final int PSEUDONYM_OVERHEAD_BYTES = 128;

  private final VertxInternal vertx;
  private final Pool pool;
  private final UpsertTimer timer;
  private final ThreadLocal<WriteCoalescer> coalescers;

  PgPseudonymRepository(Vertx vertx, Pool pool, UpsertTimer timer, Admission admission) {
    this.vertx = (VertxInternal) vertx;
    this.pool = pool;
    this.timer = timer;
    this.coalescers =
        ThreadLocal.withInitial(
            () -> new WriteCoalescer(pool, this::upsertAlone, timer, admission));
  }

  /**
   * On an event loop, the upsert joins that loop's {@link WriteCoalescer}; elsewhere it runs on its
   * own.
   */
  @Override
  public Future<Upserted> insertIfAbsent(
      Namespace namespace, String originalValue, Candidates candidates) {
    return Context.isOnEventLoopThread()
        ? coalescers.get().upsert(namespace, originalValue, candidates)
        : upsertAlone(namespace, originalValue, candidates);
  }

  /**
   * Through an event loop's {@link WriteCoalescer}, always: off an event loop (a blocking task, a
   * test's thread) the call moves onto one, and its future completes there.
   */
  @Override
  public Future<List<Pseudonym>> upsertAll(
      Namespace namespace, List<String> originalValues, Function<String, Candidates> candidates) {
    if (Context.isOnEventLoopThread()) {
      return coalescers.get().upsertAll(namespace, originalValues, candidates);
    }
    Context current = Vertx.currentContext();
    Context loop =
        current != null && current.isEventLoopContext() ? current : vertx.createEventLoopContext();
    Promise<List<Pseudonym>> stored = Promise.promise();
    loop.runOnContext(
        ignored ->
            coalescers.get().upsertAll(namespace, originalValues, candidates).onComplete(stored));
    return stored.future();
  }

  /** The single-row upsert, with candidate regeneration on collisions. */
  Future<Upserted> upsertAlone(Namespace namespace, String originalValue, Candidates candidates) {
    return upsert(namespace, originalValue, candidates, candidates.get(), 1, new Collisions());
  }

  private Future<Upserted> upsert(
      Namespace namespace,
      String originalValue,
      Candidates candidates,
      String candidate,
      int attempt,
      Collisions collisions) {
    long started = System.nanoTime();
    return pool.preparedQuery(PseudonymQueries.UPSERT)
        .execute(Tuple.of(namespace.name(), originalValue, candidate, createdAt(namespace)))
        .transform(
            done -> {
              timer.single(System.nanoTime() - started);
              if (done.succeeded()) {
                RowSet<Row> rows = done.result();
                if (rows.size() > 0) {
                  Row row = rows.iterator().next();
                  if (row.getValue("inserted") == null) {
                    // the namespace looked up is gone, perhaps created again under its name
                    return Future.failedFuture(NamespaceFailures.notFound(namespace.name()));
                  }
                  return Future.succeededFuture(
                      new Upserted(
                          toPseudonym(
                              namespace.name(),
                              originalValue,
                              row.getString("pseudonym_value"),
                              row),
                          row.getBoolean("inserted")));
                }
                if (attempt < UPSERT_ATTEMPTS) {
                  return upsert(
                      namespace, originalValue, candidates, candidate, attempt + 1, collisions);
                }
                return Future.failedFuture(upsertFailed(namespace.name(), null));
              }
              Throwable failure = done.cause();
              if (PgFailures.violates(failure, PgFailures.UNIQUE_VIOLATION, UNIQUE_PSEUDONYM_INDEX)
                  || PgFailures.violates(
                      failure, PgFailures.UNIQUE_VIOLATION, UNIQUE_PSEUDONYM_INDEX_BEFORE_V4)) {
                return collided(namespace, originalValue, candidates, attempt, collisions, failure);
              }
              if (PgFailures.violates(failure, PgFailures.DEADLOCK_DETECTED, null)
                  && attempt < UPSERT_ATTEMPTS) {
                // lost a lock race with a multi-row statement that shares its candidate
                return upsert(
                    namespace, originalValue, candidates, candidate, attempt + 1, collisions);
              }
              if (PgFailures.violates(failure, PgFailures.FOREIGN_KEY_VIOLATION, null)) {
                return Future.failedFuture(NamespaceFailures.notFound(namespace.name()));
              }
              return Future.failedFuture(PgFailures.translate(failure, metadata(namespace.name())));
            });
  }

  /**
   * The candidate was another value's pseudonym: tries a fresh one, until the namespace is full.
   * Whether it is, is asked only on this path: after a few collisions in a row, the namespace's
   * pseudonyms are counted once, and the fuller it is, the more candidates are tried. A run of
   * collisions in a namespace that is not even half full means the candidates are not random: a
   * deterministic method, or a bug, which is {@code INTERNAL}.
   */
  private Future<Upserted> collided(
      Namespace namespace,
      String originalValue,
      Candidates candidates,
      int attempt,
      Collisions collisions,
      Throwable failure) {
    collisions.seen++;
    // a deterministic method's next candidate would be the same one again
    if (candidates.distinct() > 1 && collisions.seen < collisions.limit) {
      return upsert(namespace, originalValue, candidates, candidates.get(), attempt, collisions);
    }
    if (candidates.distinct() <= 1) {
      return Future.failedFuture(derivedPseudonymTaken(namespace.name()));
    }
    if (collisions.counted) {
      return Future.failedFuture(collisions.exhausted(namespace.name(), failure));
    }
    return count(namespace.name())
        .compose(
            count -> {
              collisions.counted(count, candidates.distinct());
              return collisions.seen < collisions.limit
                  ? upsert(
                      namespace, originalValue, candidates, candidates.get(), attempt, collisions)
                  : Future.failedFuture(collisions.exhausted(namespace.name(), failure));
            });
  }

  /**
   * A deterministic method's one pseudonym for a value is another row's. Whose, and so what it
   * means, the caller finds out (see {@link PseudonymRepository#insertIfAbsent}).
   */
  private static ServiceException derivedPseudonymTaken(String namespace) {
    return new ServiceException(
        ErrorCode.FAILED_PRECONDITION,
        "The pseudonym the namespace's deterministic method derives for the value belongs to"
            + " another row.",
        metadata(namespace));
  }

  /** The collisions of one value's candidates with other values' pseudonyms, so far. */
  private static final class Collisions {

    private int seen;
    private int limit = COUNT_AFTER_COLLISIONS;
    private boolean counted;
    private boolean atLeastHalfFull;

    void counted(long count, double distinct) {
      counted = true;
      limit = candidateLimit(count, distinct);
      atLeastHalfFull = count >= distinct / 2;
    }

    ServiceException exhausted(String namespace, Throwable lastFailure) {
      return atLeastHalfFull
          ? PseudonymFailures.namespaceFull(namespace)
          : upsertFailed(namespace, PgFailures.loggable(lastFailure));
    }
  }

  /**
   * How many collisions to tolerate for one value in a namespace that holds {@code count} of {@code
   * distinct} possible pseudonyms: enough that a free one is found with a probability of 1 - 10^-6
   * (while there is one), at most {@value #MAX_COLLISIONS}; 0 when the namespace is full.
   */
  static int candidateLimit(long count, double distinct) {
    if (count >= distinct) {
      return 0;
    }
    double taken = count / distinct;
    double needed = taken <= 0 ? 0 : Math.ceil(Math.log(1e-6) / Math.log(taken));
    return (int) Math.min(MAX_COLLISIONS, Math.max(COUNT_AFTER_COLLISIONS + 1, needed));
  }

  /** Reserves the bytes of the pseudonym found in the call's {@link ReplyBytes}. */
  @Override
  public Future<Optional<Pseudonym>> findByValue(String namespace, String pseudonymValue) {
    ReplyBytes bytes = ReplyBytes.current();
    return pool.preparedQuery(PseudonymQueries.FIND_BY_VALUE)
        .execute(Tuple.of(namespace, pseudonymValue))
        .recover(failure -> failed(failure, namespace))
        .compose(
            rows -> {
              if (rows.size() == 0) {
                return Future.succeededFuture(Optional.empty());
              }
              Row row = rows.iterator().next();
              Pseudonym found =
                  toPseudonym(
                      namespace,
                      row.getString("original_value"),
                      pseudonymValue,
                      row,
                      row.getLong("sequence_number"));
              return bytes.reserve(replyBytes(found)).map(reserved -> Optional.of(found));
            });
  }

  /** See {@link #findAllIn}. */
  @Override
  public Future<Map<String, Pseudonym>> findAllByValue(
      String namespace, List<String> pseudonymValues) {
    return findAllIn(namespace, pseudonymValues, PseudonymQueries.FIND_ALL_BY_VALUE, false);
  }

  /** See {@link #findAllIn}. */
  @Override
  public Future<Map<String, Pseudonym>> findAllByOriginal(
      String namespace, List<String> originalValues) {
    return findAllIn(namespace, originalValues, PseudonymQueries.FIND_ALL_BY_ORIGINAL, true);
  }

  /**
   * The pseudonyms the {@code query} finds for the {@code values}, by original value or by
   * pseudonym value: one statement per {@value #LOOKUP_CHUNK} values, one after the other, each
   * chunk's pseudonyms reserved in the call's {@link ReplyBytes} before the next chunk is read, so
   * that a lookup of many values is refused ({@code OVERLOADED}) once it outgrows the budget rather
   * than held whole. No chunk is sent once the call's {@link CallDeadline} has passed.
   */
  private Future<Map<String, Pseudonym>> findAllIn(
      String namespace, List<String> values, String query, boolean byOriginal) {
    Map<String, Pseudonym> found = new HashMap<>();
    Lookup lookup =
        new Lookup(
            namespace,
            values,
            query,
            byOriginal,
            found,
            ReplyBytes.current(),
            CallDeadline.current());
    return readChunks(lookup, 0).map(done -> Collections.unmodifiableMap(found));
  }

  /** A lookup of many values for one call, and what it found so far. */
  private record Lookup(
      String namespace,
      List<String> values,
      String query,
      boolean byOriginal,
      Map<String, Pseudonym> found,
      ReplyBytes bytes,
      CallDeadline deadline) {}

  /** Reads the chunks of the lookup from {@code from} on, one after the other. */
  private Future<Void> readChunks(Lookup lookup, int from) {
    if (from >= lookup.values().size()) {
      return Future.succeededFuture();
    }
    if (from > 0 && lookup.deadline().passed()) {
      return Future.failedFuture(CallDeadline.exceeded());
    }
    String[] chunk =
        lookup
            .values()
            .subList(from, Math.min(from + LOOKUP_CHUNK, lookup.values().size()))
            .toArray(String[]::new);
    return pool.preparedQuery(lookup.query())
        .execute(Tuple.tuple().addString(lookup.namespace()).addArrayOfString(chunk))
        .recover(failure -> failed(failure, lookup.namespace()))
        .compose(
            rows -> {
              long size = 0;
              for (Row row : rows) {
                Pseudonym pseudonym =
                    toPseudonym(
                        lookup.namespace(),
                        row.getString("original_value"),
                        row.getString("pseudonym_value"),
                        row,
                        row.getLong("sequence_number"));
                lookup
                    .found()
                    .put(
                        lookup.byOriginal()
                            ? pseudonym.originalValue()
                            : pseudonym.pseudonymValue(),
                        pseudonym);
                size += replyBytes(pseudonym);
              }
              return lookup.bytes().reserve(size);
            })
        .compose(reserved -> readChunks(lookup, from + LOOKUP_CHUNK));
  }

  /**
   * What one pseudonym found for a reply is counted in the call's {@link ReplyBytes}: its three
   * texts and {@value #PSEUDONYM_OVERHEAD_BYTES} bytes for its times and the reply's framing of it.
   */
  static long replyBytes(Pseudonym pseudonym) {
    return PSEUDONYM_OVERHEAD_BYTES
        + pseudonym.namespace().length()
        + pseudonym.pseudonymValue().length()
        + (pseudonym.originalValue() == null ? 0 : pseudonym.originalValue().length());
  }

  @Override
  public Future<List<PageRow>> list(String namespace, int limit, Optional<ListCursor> after) {
    Future<RowSet<Row>> rows =
        after
            .map(
                cursor ->
                    pool.preparedQuery(PseudonymQueries.NEXT_PAGE)
                        .execute(
                            Tuple.of(
                                namespace,
                                OffsetDateTime.ofInstant(cursor.createdAt(), ZoneOffset.UTC),
                                cursor.originalValue(),
                                cursor.sequenceNumber(),
                                limit)))
            .orElseGet(
                () ->
                    pool.preparedQuery(PseudonymQueries.FIRST_PAGE)
                        .execute(Tuple.of(namespace, limit)));
    return rows.recover(failure -> failed(failure, namespace))
        .map(
            page -> {
              List<PageRow> result = new ArrayList<>(page.size());
              for (Row row : page) {
                Pseudonym pseudonym =
                    toPseudonym(
                        namespace,
                        null,
                        row.getString("pseudonym_value"),
                        row,
                        row.getLong("sequence_number"));
                result.add(
                    new PageRow(
                        pseudonym,
                        new ListCursor(
                            pseudonym.createdAt(),
                            row.getString("original_value"),
                            row.getLong("sequence_number"))));
              }
              return result;
            });
  }

  @Override
  public Future<Long> count(String namespace) {
    return pool.preparedQuery(PseudonymQueries.COUNT)
        .execute(Tuple.of(namespace))
        .recover(failure -> failed(failure, namespace))
        .map(rows -> rows.iterator().next().getLong(0));
  }

  /**
   * The number of pseudonyms of every namespace that has any; namespaces without pseudonyms are
   * absent. Counts every row, so it is meant for a periodic gauge, not for requests.
   */
  public Future<Map<String, Long>> countByNamespace() {
    return pool.preparedQuery(PseudonymQueries.COUNT_BY_NAMESPACE)
        .execute()
        .recover(failure -> Future.failedFuture(PgFailures.translate(failure, Map.of())))
        .map(
            rows -> {
              Map<String, Long> counts = new HashMap<>();
              rows.forEach(row -> counts.put(row.getString(0), row.getLong(1)));
              return Collections.unmodifiableMap(counts);
            });
  }

  /** Reads every pseudonym of the original value, by sequence number. */
  @Override
  public Future<List<Pseudonym>> findAllOfOriginal(String namespace, String originalValue) {
    return pool.preparedQuery(PseudonymQueries.FIND_ALL_OF_ORIGINAL)
        .execute(Tuple.of(namespace, originalValue))
        .recover(failure -> failed(failure, namespace))
        .map(
            rows -> {
              List<Pseudonym> found = new ArrayList<>(rows.size());
              for (Row row : rows) {
                found.add(
                    toPseudonym(
                        namespace,
                        originalValue,
                        row.getString("pseudonym_value"),
                        row,
                        row.getLong("sequence_number")));
              }
              return Collections.unmodifiableList(found);
            });
  }

  /**
   * Reads the value's pseudonyms; while it has fewer than {@code count}, stores candidates for the
   * sequence numbers missing below {@code count} in one statement and reads again. Candidates that
   * met a concurrent call's rows or another value's pseudonym are skipped by the statement and
   * replaced in the next round, at most {@value #GROW_ROUNDS} rounds: each of them is a fresh draw
   * among many, so that more mean a bug, {@code INTERNAL}.
   */
  @Override
  public Future<List<Pseudonym>> growTo(
      Namespace namespace, String originalValue, int count, Supplier<Candidates> candidates) {
    return grow(namespace, originalValue, count, candidates, null, 0);
  }

  private Future<List<Pseudonym>> grow(
      Namespace namespace,
      String originalValue,
      int count,
      Supplier<Candidates> supplier,
      Candidates candidates,
      int round) {
    return findAllOfOriginal(namespace.name(), originalValue)
        .compose(
            stored -> {
              if (stored.size() >= count) {
                return Future.succeededFuture(stored);
              }
              if (round >= GROW_ROUNDS) {
                return Future.failedFuture(upsertFailed(namespace.name(), null));
              }
              Candidates next = candidates != null ? candidates : supplier.get();
              Set<Long> taken = new HashSet<>();
              Set<String> values = new HashSet<>();
              for (Pseudonym pseudonym : stored) {
                taken.add(pseudonym.sequenceNumber());
                values.add(pseudonym.pseudonymValue());
              }
              List<String> pseudonymValues = new ArrayList<>();
              List<Long> sequenceNumbers = new ArrayList<>();
              for (long sequence = 0; sequenceNumbers.size() < count - stored.size(); sequence++) {
                if (taken.contains(sequence)) {
                  continue;
                }
                String candidate = next.get();
                // a deterministic method can give no second value: the namespace refuses that
                for (int tries = 0; !values.add(candidate) && tries < MAX_COLLISIONS; tries++) {
                  candidate = next.get();
                }
                pseudonymValues.add(candidate);
                sequenceNumbers.add(sequence);
              }
              return pool.preparedQuery(PseudonymQueries.INSERT_SEQUENCE_NUMBERS)
                  .execute(
                      Tuple.of(
                          namespace.name(),
                          originalValue,
                          pseudonymValues.toArray(String[]::new),
                          sequenceNumbers.toArray(Long[]::new),
                          createdAt(namespace)))
                  .recover(
                      failure ->
                          PgFailures.violates(failure, PgFailures.FOREIGN_KEY_VIOLATION, null)
                              ? Future.failedFuture(NamespaceFailures.notFound(namespace.name()))
                              : failed(failure, namespace.name()))
                  .compose(
                      inserted ->
                          inserted.iterator().next().getBoolean("present")
                              ? grow(namespace, originalValue, count, supplier, next, round + 1)
                              : Future.failedFuture(NamespaceFailures.notFound(namespace.name())));
            });
  }

  /**
   * One statement per {@value #LOOKUP_CHUNK} values, one after the other, each committed on its
   * own; a statement that lost a deadlock to a concurrent write is sent again. Anonymizing gives
   * every value a new {@link AnonymizedOriginals} value for all its rows.
   */
  @Override
  public Future<Map<String, List<Pseudonym>>> withdraw(
      String namespace, List<String> originalValues, Withdrawal withdrawal) {
    Map<String, List<Pseudonym>> withdrawn = new HashMap<>();
    return withdrawChunks(namespace, originalValues, withdrawal, withdrawn, 0)
        .map(
            done -> {
              withdrawn.replaceAll(
                  (value, pseudonyms) ->
                      pseudonyms.stream()
                          .sorted(Comparator.comparingLong(Pseudonym::sequenceNumber))
                          .toList());
              return Collections.unmodifiableMap(withdrawn);
            });
  }

  private Future<Void> withdrawChunks(
      String namespace,
      List<String> originalValues,
      Withdrawal withdrawal,
      Map<String, List<Pseudonym>> withdrawn,
      int from) {
    if (from >= originalValues.size()) {
      return Future.succeededFuture();
    }
    String[] chunk =
        originalValues
            .subList(from, Math.min(from + LOOKUP_CHUNK, originalValues.size()))
            .toArray(String[]::new);
    Tuple arguments = Tuple.tuple().addString(namespace).addArrayOfString(chunk);
    String query = PseudonymQueries.DELETE_ORIGINALS;
    if (withdrawal == Withdrawal.ANONYMIZE) {
      String[] anonymized = new String[chunk.length];
      Arrays.setAll(anonymized, i -> AnonymizedOriginals.next());
      arguments.addArrayOfString(anonymized);
      query = PseudonymQueries.ANONYMIZE_ORIGINALS;
    }
    return withdrawChunk(query, arguments, namespace, 1)
        .compose(
            rows -> {
              for (Row row : rows) {
                String originalValue = row.getString("original_value");
                Pseudonym pseudonym =
                    new Pseudonym(
                        namespace,
                        null,
                        row.getString("pseudonym_value"),
                        row.getOffsetDateTime("created_at").toInstant(),
                        row.getOffsetDateTime("last_updated_at").toInstant(),
                        row.getLong("sequence_number"),
                        withdrawal == Withdrawal.ANONYMIZE);
                withdrawn.computeIfAbsent(originalValue, value -> new ArrayList<>()).add(pseudonym);
              }
              return withdrawChunks(
                  namespace, originalValues, withdrawal, withdrawn, from + LOOKUP_CHUNK);
            });
  }

  /**
   * One transaction: the chunk's statement and, when it withdrew pseudonyms, their entry of the
   * cache invalidation log.
   */
  private Future<RowSet<Row>> withdrawChunk(
      String query, Tuple arguments, String namespace, int attempt) {
    return pool.withTransaction(
            transaction ->
                transaction
                    .preparedQuery(query)
                    .execute(arguments)
                    .compose(
                        rows -> {
                          if (rows.size() == 0) {
                            return Future.succeededFuture(rows);
                          }
                          List<String> pseudonymValues = new ArrayList<>(rows.size());
                          rows.forEach(
                              row -> pseudonymValues.add(row.getString("pseudonym_value")));
                          return PgInvalidationLog.append(
                                  transaction,
                                  Invalidation.Kind.PSEUDONYMS,
                                  namespace,
                                  pseudonymValues)
                              .map(rows);
                        }))
        .recover(
            failure ->
                PgFailures.violates(failure, PgFailures.DEADLOCK_DETECTED, null)
                        && attempt < UPSERT_ATTEMPTS
                    ? withdrawChunk(query, arguments, namespace, attempt + 1)
                    : failed(failure, namespace));
  }

  /**
   * Two statements: a read of the rows the pairs meet, then one insert of the pairs that meet none
   * (a pair given twice, or two pairs sharing a value, are decided in order against the rows
   * decided before them). A pair the insert skips met a row stored meanwhile: it is decided again,
   * against a new read, a few times at most.
   */
  @Override
  public Future<List<ImportStatus>> importPairs(
      Namespace namespace, boolean multiple, List<ImportedPair> pairs) {
    return importPairs(namespace, multiple, pairs, 1);
  }

  private Future<List<ImportStatus>> importPairs(
      Namespace namespace, boolean multiple, List<ImportedPair> pairs, int attempt) {
    String[] originals = pairs.stream().map(ImportedPair::originalValue).toArray(String[]::new);
    String[] values = pairs.stream().map(ImportedPair::pseudonymValue).toArray(String[]::new);
    return pool.preparedQuery(PseudonymQueries.IMPORT_EXISTING)
        .execute(
            Tuple.tuple()
                .addString(namespace.name())
                .addArrayOfString(originals)
                .addArrayOfString(values))
        .recover(failure -> failed(failure, namespace.name()))
        .compose(
            rows -> {
              ImportDecisions decisions = new ImportDecisions(multiple);
              rows.forEach(
                  row ->
                      decisions.stored(
                          row.getString("original_value"),
                          row.getString("pseudonym_value"),
                          row.getLong("sequence_number")));
              List<ImportStatus> statuses = new ArrayList<>(pairs.size());
              List<Integer> inserted = new ArrayList<>();
              List<Long> sequences = new ArrayList<>();
              for (int i = 0; i < pairs.size(); i++) {
                ImportedPair pair = pairs.get(i);
                ImportStatus status = decisions.decide(pair);
                statuses.add(status);
                if (status == ImportStatus.IMPORTED) {
                  inserted.add(i);
                  sequences.add(decisions.sequenceOf(pair));
                }
              }
              if (inserted.isEmpty()) {
                return Future.succeededFuture(statuses);
              }
              return insertImported(namespace, pairs, inserted, sequences)
                  .compose(
                      stored -> {
                        List<ImportedPair> raced = new ArrayList<>();
                        List<Integer> racedAt = new ArrayList<>();
                        for (int index : inserted) {
                          if (!stored.contains(pairs.get(index))) {
                            raced.add(pairs.get(index));
                            racedAt.add(index);
                          }
                        }
                        if (raced.isEmpty()) {
                          return Future.succeededFuture(statuses);
                        }
                        if (attempt >= MAX_IMPORT_ATTEMPTS) {
                          return Future.failedFuture(
                              new ServiceException(
                                  ErrorCode.UNAVAILABLE,
                                  "Concurrent writes to the namespace kept an import from"
                                      + " completing; retry it.",
                                  metadata(namespace.name())));
                        }
                        return importPairs(namespace, multiple, raced, attempt + 1)
                            .map(
                                again -> {
                                  for (int j = 0; j < racedAt.size(); j++) {
                                    statuses.set(racedAt.get(j), again.get(j));
                                  }
                                  return statuses;
                                });
                      });
            });
  }

  private Future<Set<ImportedPair>> insertImported(
      Namespace namespace, List<ImportedPair> pairs, List<Integer> inserted, List<Long> sequences) {
    String[] originals = new String[inserted.size()];
    String[] values = new String[inserted.size()];
    Long[] numbers = sequences.toArray(Long[]::new);
    for (int j = 0; j < inserted.size(); j++) {
      originals[j] = pairs.get(inserted.get(j)).originalValue();
      values[j] = pairs.get(inserted.get(j)).pseudonymValue();
    }
    return pool.preparedQuery(PseudonymQueries.IMPORT_PAIRS)
        .execute(
            Tuple.tuple()
                .addString(namespace.name())
                .addArrayOfString(originals)
                .addArrayOfString(values)
                .addArrayOfLong(numbers)
                .addValue(createdAt(namespace)))
        .recover(failure -> failed(failure, namespace.name()))
        .compose(
            rows -> {
              Set<ImportedPair> stored = new HashSet<>();
              for (Row row : rows) {
                if (row.getString("original_value") == null) {
                  // the namespace looked up is gone, perhaps created again under its name
                  return Future.failedFuture(NamespaceFailures.notFound(namespace.name()));
                }
                stored.add(
                    new ImportedPair(
                        row.getString("original_value"), row.getString("pseudonym_value")));
              }
              return Future.succeededFuture(stored);
            });
  }

  @Override
  public Future<Set<String>> existingPseudonymValues(String namespace, List<String> values) {
    return pool.preparedQuery(PseudonymQueries.EXISTING_PSEUDONYM_VALUES)
        .execute(Tuple.tuple().addString(namespace).addArrayOfString(values.toArray(String[]::new)))
        .recover(failure -> failed(failure, namespace))
        .map(
            rows -> {
              Set<String> existing = new HashSet<>();
              rows.forEach(row -> existing.add(row.getString(0)));
              return Collections.unmodifiableSet(existing);
            });
  }

  private static Pseudonym toPseudonym(
      String namespace, String originalValue, String pseudonymValue, Row row) {
    return toPseudonym(namespace, originalValue, pseudonymValue, row, 0);
  }

  /**
   * The namespace's time of creation as the database keeps it: with its name, it tells the
   * namespace the caller looked up from one created later under the same name.
   */
  static OffsetDateTime createdAt(Namespace namespace) {
    return OffsetDateTime.ofInstant(namespace.createdAt(), ZoneOffset.UTC);
  }

  /** A stored row as a pseudonym: withdrawn, without its original value, if it is anonymized. */
  private static Pseudonym toPseudonym(
      String namespace, String originalValue, String pseudonymValue, Row row, long sequence) {
    boolean withdrawn = AnonymizedOriginals.is(originalValue);
    return new Pseudonym(
        namespace,
        withdrawn ? null : originalValue,
        pseudonymValue,
        row.getOffsetDateTime("created_at").toInstant(),
        row.getOffsetDateTime("last_updated_at").toInstant(),
        sequence,
        withdrawn);
  }

  private static ServiceException upsertFailed(String namespace, Throwable cause) {
    return new ServiceException(
        ErrorCode.INTERNAL,
        "Failed to upsert the pseudonym for namespace '" + namespace + "'.",
        metadata(namespace),
        cause);
  }

  private static <T> Future<T> failed(Throwable failure, String namespace) {
    return Future.failedFuture(PgFailures.translate(failure, metadata(namespace)));
  }

  private static Map<String, String> metadata(String namespace) {
    return Map.of("namespace", namespace);
  }
}
