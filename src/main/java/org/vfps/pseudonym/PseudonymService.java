package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.vfps.access.Access;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.GenerationSupport;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceService;
import org.vfps.namespace.ParentValidationMode;
import org.vfps.namespace.TextLimits;

/**
 * Creates pseudonyms, looks them up by value and lists them, with the rules of the .NET vfps. Each
 * operation checks its caller through {@link Access}, as {@link Operation} says, and fails with
 * {@code PERMISSION_DENIED} when the caller lacks the permission. Thread-safe. Futures fail with
 * {@link ServiceException}.
 */
public final class PseudonymService {

  /** The page size when a client asks for none. */
  public static final int DEFAULT_PAGE_SIZE = 25;

  /** The most pseudonyms one original value may be given ({@code count}), as upstream allows. */
  public static final int MAX_COUNT = 10_000;

  /** The largest page served; larger requests are served this many. */
  public static final int MAX_PAGE_SIZE = 1000;

  private final NamespaceService namespaces;
  private final PseudonymRepository repository;
  private final PageTokens pageTokens;
  private final Function<GenerationMethod, PseudonymGenerator> generators;
  private final Access access;
  private final int maxBatchSize;
  private final GenerationSupport generation;
  private final WithdrawalEvents withdrawals;
  private final KeyedGenerator keyed;

  /**
   * A service that takes each method's generator from {@code generators}, which may wrap those of
   * {@link PseudonymGenerators} (to trace or time generation); the generators it returns must be
   * thread-safe.
   *
   * @param maxBatchSize the most values one batch call may hold ({@code
   *     Pseudonymization__Batch__MaxSize})
   * @param generation the methods that make new pseudonyms: in a namespace of another, the values
   *     that have a pseudonym keep it, and new values are refused
   * @param withdrawals where withdrawals are told, so that every replica's cache drops their pairs
   * @param keyed the cores of {@link GenerationMethod#VOPRF} namespaces; asked only for values
   *     without a stored pseudonym, many at once where a call brings many
   */
  public PseudonymService(
      NamespaceService namespaces,
      PseudonymRepository repository,
      PageTokens pageTokens,
      Function<GenerationMethod, PseudonymGenerator> generators,
      Access access,
      int maxBatchSize,
      GenerationSupport generation,
      WithdrawalEvents withdrawals,
      KeyedGenerator keyed) {
    if (maxBatchSize < 1) {
      throw new IllegalArgumentException("maxBatchSize must be positive: " + maxBatchSize);
    }
    this.namespaces = namespaces;
    this.repository = repository;
    this.pageTokens = pageTokens;
    this.generators = generators;
    this.access = access;
    this.maxBatchSize = maxBatchSize;
    this.generation = Objects.requireNonNull(generation, "generation");
    this.withdrawals = Objects.requireNonNull(withdrawals, "withdrawals");
    this.keyed = Objects.requireNonNull(keyed, "keyed");
  }

  /** The most values one batch call may hold. */
  public int maxBatchSize() {
    return maxBatchSize;
  }

  /**
   * The pseudonym of the original value in the namespace, created on first use. Idempotent: the
   * same pair always yields the same stored pseudonym. In a namespace whose method derives the
   * pseudonym from the value, another spelling of a stored value that derives the same pseudonym
   * (NFC-equal values under VOPRF) gets the stored one, and no row of its own. Fails with {@code
   * NOT_FOUND} (namespace), {@code INVALID_ARGUMENT} (blank, oversized or NUL-containing value),
   * {@code FAILED_PRECONDITION} (a new value in a namespace whose method makes no new pseudonyms
   * here, see {@link GenerationSupport}; or a derived pseudonym that an anonymized value or another
   * value keeps), {@code RESOURCE_EXHAUSTED} (the namespace is full) or {@code INTERNAL}; first
   * with {@code PERMISSION_DENIED} if the caller may not write to the namespace.
   */
  public Future<Pseudonym> create(Caller caller, String namespaceName, String originalValue) {
    return upsert(caller, namespaceName, originalValue).map(Upserted::pseudonym);
  }

  /**
   * {@link #create}, saying whether this call stored the pair (what a FHIR batch-response shows as
   * {@code 201}): of concurrent calls for the same new pair exactly one is told so.
   */
  public Future<Upserted> upsert(Caller caller, String namespaceName, String originalValue) {
    return upsert(caller, Operation.PSEUDONYM_CREATE, namespaceName, originalValue);
  }

  /**
   * One create of a stream of creates ({@code CreateStream}), each of which names its namespace: as
   * {@link #create}, with the permission checked (and a denial counted) as {@link
   * Operation#PSEUDONYM_CREATE_STREAM}.
   */
  public Future<Pseudonym> createStreamed(
      Caller caller, String namespaceName, String originalValue) {
    return upsert(caller, Operation.PSEUDONYM_CREATE_STREAM, namespaceName, originalValue)
        .map(Upserted::pseudonym);
  }

  /**
   * The original value's pseudonyms, grown to at least {@code count} (1 when empty), by sequence
   * number: the first of them is what {@link #create} returns. Pseudonyms are never regenerated or
   * dropped; a value that has as many or more keeps them. Idempotent under concurrency, across
   * replicas: every call that races to grow the same value ends with the same stored set.
   *
   * <p>Fails, in this order, with {@code PERMISSION_DENIED} (no write access), {@code NOT_FOUND}
   * (namespace), {@code INVALID_ARGUMENT} (a blank or oversized value, a count below 1 or above
   * {@value #MAX_COUNT}), {@code FAILED_PRECONDITION} (a count above 1 in a namespace that allows
   * one pseudonym per value), {@code PATTERN_MISMATCH}, {@code FAILED_PRECONDITION} (not in the
   * parent), then as {@link #create} fails.
   */
  public Future<List<Pseudonym>> createCounted(
      Caller caller, String namespaceName, String originalValue, OptionalLong count) {
    return access
        .check(caller, Operation.PSEUDONYM_CREATE, namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(
            namespace -> {
              Map<String, String> metadata = Map.of("namespace", namespace.name());
              requireNotBlank(originalValue, metadata);
              long wanted = count.orElse(1);
              if (wanted < 1) {
                throw new ServiceException(
                    ErrorCode.INVALID_ARGUMENT, "count must be at least 1.", metadata);
              }
              if (wanted > MAX_COUNT) {
                throw new ServiceException(
                    ErrorCode.INVALID_ARGUMENT,
                    "count must be at most " + MAX_COUNT + ".",
                    metadata);
              }
              if (wanted > 1 && !namespace.allowsMultiplePseudonyms()) {
                throw new ServiceException(
                    ErrorCode.FAILED_PRECONDITION,
                    "Namespace '"
                        + namespace.name()
                        + "' does not allow storing multiple pseudonyms per original value.",
                    metadata);
              }
              if (!namespace.allowsMultiplePseudonyms()) {
                return upsertPseudonym(namespace, originalValue)
                    .map(upserted -> List.of(upserted.pseudonym()));
              }
              TextLimits.check(
                  "original value", originalValue, TextLimits.MAX_ORIGINAL_VALUE_BYTES, metadata);
              requireMatch(namespace, originalValue, -1, 1);
              Future<Void> inParent =
                  namespace.parentValidationMode() == ParentValidationMode.ENSURE_EXISTS
                      ? requireInParent(namespace, List.of(originalValue), List.of(originalValue))
                      : Future.succeededFuture();
              return inParent.compose(
                  checked ->
                      repository.growTo(
                          namespace,
                          originalValue,
                          (int) wanted,
                          () -> generatedCandidates(namespace, originalValue)));
            });
  }

  /**
   * Every stored pseudonym of the original value, by sequence number, creating none: never empty.
   * Fails, in this order, with {@code PERMISSION_DENIED} (no write access: it tells whether a value
   * has a pseudonym), {@code NOT_FOUND} (namespace), {@code INVALID_ARGUMENT} (blank value), {@code
   * PATTERN_MISMATCH}, and {@code NOT_FOUND} when the value has none, which names the namespace but
   * never the value.
   */
  public Future<List<Pseudonym>> resolve(
      Caller caller, String namespaceName, String originalValue) {
    return resolveStored(caller, namespaceName, originalValue)
        .map(
            found -> {
              if (found.isEmpty()) {
                throw new ServiceException(
                    ErrorCode.NOT_FOUND,
                    "No pseudonym exists in the namespace for the requested original value.",
                    Map.of("namespace", namespaceName));
              }
              return found;
            });
  }

  /**
   * {@link #resolve}, for edges that word a value without pseudonyms themselves: empty then, and
   * failing as {@link #resolve} otherwise.
   */
  public Future<List<Pseudonym>> resolveStored(
      Caller caller, String namespaceName, String originalValue) {
    return access
        .check(caller, Operation.PSEUDONYM_RESOLVE, namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(
            namespace -> {
              requireNotBlank(originalValue, Map.of("namespace", namespace.name()));
              requireMatch(namespace, originalValue, -1, 1);
              return TextLimits.fits(originalValue, TextLimits.MAX_ORIGINAL_VALUE_BYTES)
                  ? findAllOfOriginalInAnySpelling(namespace, originalValue)
                  : Future.succeededFuture(List.<Pseudonym>of());
            });
  }

  /**
   * Every stored pseudonym of the original value, or of the spelling of it that is stored, where
   * the namespace's method takes two spellings for one value (see {@link #storedSpellings}).
   */
  private Future<List<Pseudonym>> findAllOfOriginalInAnySpelling(
      Namespace namespace, String originalValue) {
    return inAnySpelling(
            namespace,
            List.of(originalValue),
            values ->
                repository
                    .findAllOfOriginal(namespace.name(), values.getFirst())
                    .map(found -> found.isEmpty() ? Map.of() : Map.of(values.getFirst(), found)))
        .map(found -> found.getOrDefault(originalValue, List.of()));
  }

  private Future<Upserted> upsert(
      Caller caller, Operation operation, String namespaceName, String originalValue) {
    return access
        .check(caller, operation, namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(namespace -> upsertPseudonym(namespace, originalValue));
  }

  /**
   * The pseudonyms of many original values of one namespace, in request order, each created on
   * first use as {@link #create} creates it: a value given twice gets the same pseudonym twice. The
   * permission is checked and the namespace resolved once, every value is validated before any is
   * stored, and the values reach the database in a few multi-row statements, through the same path
   * as single creates; the future completes after every row is committed.
   *
   * <p>Fails with {@code PERMISSION_DENIED} if the caller may not write to the namespace; then with
   * {@code INVALID_ARGUMENT} for more than {@link #maxBatchSize()} values, or for the first blank,
   * oversized or NUL-containing value (the message names its position counting from 1, the {@code
   * index} metadata from 0), before anything is stored; then with {@code NOT_FOUND} (namespace) or
   * {@code UNAVAILABLE}/{@code INTERNAL}, when some values may already be stored (a retry stores
   * the same pseudonyms).
   */
  public Future<List<Pseudonym>> createAll(
      Caller caller, String namespaceName, List<String> originalValues) {
    return access
        .check(caller, Operation.PSEUDONYM_BATCH_CREATE, namespaceName)
        .map(allowed -> validateOriginals(namespaceName, originalValues))
        .compose(distinct -> upsertAll(namespaceName, distinct, originalValues));
  }

  /**
   * {@link #createAll} for edges that answer each value on its own (the gPAS dialect's lists): a
   * value that Create would refuse for itself alone (blank, oversized, NUL-containing, or refused
   * by the namespace's validation regex) is empty in the answer and not stored; the others are
   * created as {@link #createAll} creates them, through the same statements. Fails as {@link
   * #createAll} fails otherwise: {@code PERMISSION_DENIED}, {@code INVALID_ARGUMENT} for more than
   * {@link #maxBatchSize()} values, {@code NOT_FOUND} (namespace), {@code FAILED_PRECONDITION} (a
   * stored regex this service cannot use, a value not in the parent namespace), and so on.
   */
  public Future<List<Optional<Pseudonym>>> createEachValid(
      Caller caller, String namespaceName, List<String> originalValues) {
    return access
        .check(caller, Operation.PSEUDONYM_BATCH_CREATE, namespaceName)
        .compose(
            allowed -> {
              requireBatchSize(namespaceName, originalValues.size());
              return namespaces.resolve(namespaceName);
            })
        .compose(
            namespace -> {
              boolean[] accepted = new boolean[originalValues.size()];
              List<String> valid = new ArrayList<>(originalValues.size());
              for (int i = 0; i < accepted.length; i++) {
                String value = originalValues.get(i);
                accepted[i] = isStorable(value) && namespace.matches(value);
                if (accepted[i]) {
                  valid.add(value);
                }
              }
              return upsertAllIn(namespace, List.copyOf(new LinkedHashSet<>(valid)), valid)
                  .map(
                      created -> {
                        Iterator<Pseudonym> next = created.iterator();
                        List<Optional<Pseudonym>> answered = new ArrayList<>(accepted.length);
                        for (boolean made : accepted) {
                          answered.add(made ? Optional.of(next.next()) : Optional.empty());
                        }
                        return Collections.unmodifiableList(answered);
                      });
            });
  }

  /**
   * The original values of many pseudonyms of one namespace (reverse lookups), in request order:
   * empty for a value that is no pseudonym of the namespace. Written to the audit trail, one line
   * per value. Fails with {@code PERMISSION_DENIED} if the caller may not look values up in the
   * namespace, then with {@code INVALID_ARGUMENT} for more than {@link #maxBatchSize()} values,
   * then with {@code NOT_FOUND} if the namespace does not exist.
   */
  public Future<List<Optional<Pseudonym>>> lookupAll(
      Caller caller, String namespaceName, List<String> pseudonymValues) {
    Operation operation = Operation.PSEUDONYM_BATCH_GET;
    return access
        .check(caller, operation, namespaceName)
        .compose(
            allowed -> {
              requireBatchSize(namespaceName, pseudonymValues.size());
              return access.auditedLookups(
                  caller,
                  operation,
                  namespaceName,
                  pseudonymValues,
                  findAllByValue(namespaceName, pseudonymValues),
                  Pseudonym::withdrawn);
            });
  }

  /**
   * As {@link #lookupAll}, but every value must be a pseudonym of the namespace whose original
   * value was not withdrawn: fails with {@code NOT_FOUND} naming the first one that is not a
   * pseudonym, or with {@code WITHDRAWN} naming the first withdrawn one (message, {@code pseudonym}
   * and {@code index} metadata), whichever comes first.
   */
  public Future<List<Pseudonym>> getAll(
      Caller caller, String namespaceName, List<String> pseudonymValues) {
    return lookupAll(caller, namespaceName, pseudonymValues)
        .map(
            found -> {
              List<Pseudonym> pseudonyms = new ArrayList<>(found.size());
              for (int i = 0; i < found.size(); i++) {
                int index = i;
                if (found.get(i).map(Pseudonym::withdrawn).orElse(false)) {
                  throw withdrawn(
                      namespaceName,
                      pseudonymValues.get(i),
                      "The original value of "
                          + nth("the pseudonym", i, found.size())
                          + " was withdrawn.",
                      Map.of("index", Integer.toString(i)));
                }
                pseudonyms.add(
                    found
                        .get(i)
                        .orElseThrow(
                            () ->
                                new ServiceException(
                                    ErrorCode.NOT_FOUND,
                                    nth("The pseudonym", index, found.size())
                                        + " does not exist in the namespace '"
                                        + namespaceName
                                        + "'.",
                                    Map.of(
                                        "namespace", namespaceName,
                                        "pseudonym",
                                            Objects.requireNonNullElse(
                                                pseudonymValues.get(index), ""),
                                        "index", Integer.toString(index)))));
              }
              return Collections.unmodifiableList(pseudonyms);
            });
  }

  /**
   * The pseudonym with that value, with its original value (the reverse lookup). Fails with {@code
   * PERMISSION_DENIED} if the caller may not look values up in the namespace, then with {@code
   * NOT_FOUND} if the namespace or the value does not exist, or with {@code WITHDRAWN} if its
   * original value was withdrawn. Written to the audit trail.
   */
  public Future<Pseudonym> get(Caller caller, String namespaceName, String pseudonymValue) {
    Operation operation = Operation.PSEUDONYM_GET;
    return access
        .check(caller, operation, namespaceName)
        .compose(
            allowed ->
                access.audited(
                    caller,
                    operation,
                    namespaceName,
                    pseudonymValue,
                    findByValue(namespaceName, pseudonymValue)));
  }

  /**
   * The reverse lookup of {@link #get}, for edges that tell an unknown namespace from an unknown
   * pseudonym: empty when the value is no pseudonym of the namespace. Fails with {@code
   * PERMISSION_DENIED} as {@link #get} does, then with {@code NOT_FOUND} if the namespace does not
   * exist. Written to the audit trail as {@link #get} is (an unknown value as {@code NOT_FOUND}).
   */
  public Future<Optional<Pseudonym>> lookup(
      Caller caller, String namespaceName, String pseudonymValue) {
    Operation operation = Operation.PSEUDONYM_GET;
    return access
        .check(caller, operation, namespaceName)
        .compose(
            allowed ->
                access.audited(
                    caller,
                    operation,
                    namespaceName,
                    pseudonymValue,
                    namespaces
                        .resolve(namespaceName)
                        .compose(namespace -> findByValue(namespace.name(), pseudonymValue))))
        .map(Optional::of)
        .recover(
            failure ->
                failure instanceof ServiceException service
                        && service.code() == ErrorCode.NOT_FOUND
                        && service.metadata().containsKey("pseudonym")
                    ? Future.succeededFuture(Optional.empty())
                    : Future.failedFuture(failure));
  }

  private Future<Pseudonym> findByValue(String namespaceName, String pseudonymValue) {
    if (!TextLimits.fits(namespaceName, TextLimits.MAX_NAME_BYTES)
        || !TextLimits.fits(pseudonymValue, TextLimits.MAX_ORIGINAL_VALUE_BYTES)) {
      return Future.failedFuture(pseudonymNotFound(namespaceName, pseudonymValue));
    }
    return repository
        .findByValue(namespaceName, pseudonymValue)
        .map(
            found -> {
              Pseudonym pseudonym =
                  found.orElseThrow(() -> pseudonymNotFound(namespaceName, pseudonymValue));
              if (pseudonym.withdrawn()) {
                throw withdrawn(
                    namespaceName,
                    pseudonymValue,
                    "The original value of the pseudonym was withdrawn.",
                    Map.of());
              }
              return pseudonym;
            });
  }

  /**
   * Withdraws the original value (its person withdrew consent) as {@code withdrawal} says, and
   * returns the pseudonyms it had, by sequence number, without original values: the deleted ones,
   * or the kept ones of an anonymized value. When the future completes, the change is committed and
   * no replica's cache holds the pair any more; a new {@link #create} of the value makes a new
   * pseudonym. Written to the audit trail, a line per pseudonym, never with the original value.
   *
   * <p>Fails, in this order, with {@code PERMISSION_DENIED} (the caller lacks the write or the
   * reverse-lookup permission), {@code NOT_FOUND} (namespace), {@code INVALID_ARGUMENT} (a blank,
   * oversized or NUL-containing value), and {@code NOT_FOUND} when the value has no pseudonym,
   * which names the namespace but never the value.
   */
  public Future<List<Pseudonym>> withdraw(
      Caller caller, Withdrawal withdrawal, String namespaceName, String originalValue) {
    return withdrawStored(caller, withdrawal, namespaceName, originalValue)
        .map(
            pseudonyms -> {
              if (pseudonyms.isEmpty()) {
                throw new ServiceException(
                    ErrorCode.NOT_FOUND,
                    "No pseudonym exists in the namespace for the original value to withdraw.",
                    Map.of("namespace", namespaceName));
              }
              return pseudonyms;
            });
  }

  /**
   * {@link #withdraw}, for edges that word a value without pseudonyms themselves: empty then (and
   * audited as {@code NOT_FOUND}), failing as {@link #withdraw} otherwise.
   */
  public Future<List<Pseudonym>> withdrawStored(
      Caller caller, Withdrawal withdrawal, String namespaceName, String originalValue) {
    Operation operation = withdrawal.single();
    return access
        .check(caller, operation, namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(
            namespace -> {
              Map<String, String> metadata = Map.of("namespace", namespace.name());
              requireNotBlank(originalValue, metadata);
              TextLimits.check(
                  "original value", originalValue, TextLimits.MAX_ORIGINAL_VALUE_BYTES, metadata);
              return withdrawDistinct(
                  caller, operation, withdrawal, namespace, List.of(originalValue));
            })
        .map(withdrawn -> withdrawn.getOrDefault(originalValue, List.of()));
  }

  /**
   * What {@link #withdraw} would do, without withdrawing anything: succeeds with whether the value
   * has a pseudonym, and fails as {@link #withdraw} fails before it withdraws. For a transaction,
   * which checks every entry before it changes anything.
   */
  public Future<Boolean> checkWithdrawal(
      Caller caller, Withdrawal withdrawal, String namespaceName, String originalValue) {
    return access
        .check(caller, withdrawal.single(), namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(
            namespace -> {
              Map<String, String> metadata = Map.of("namespace", namespace.name());
              requireNotBlank(originalValue, metadata);
              TextLimits.check(
                  "original value", originalValue, TextLimits.MAX_ORIGINAL_VALUE_BYTES, metadata);
              return findAllOfOriginalInAnySpelling(namespace, originalValue);
            })
        .map(stored -> !stored.isEmpty());
  }

  /**
   * {@link #withdraw} for many original values of one namespace, each answered on its own, in
   * request order: the pseudonyms it had, empty for a value that had none (a value given twice is
   * withdrawn once and answered twice alike). One permission check; every value is validated before
   * any is withdrawn.
   *
   * <p>Fails with {@code PERMISSION_DENIED} as {@link #withdraw}; then with {@code
   * INVALID_ARGUMENT} for more than {@link #maxBatchSize()} values, or for the first blank,
   * oversized or NUL-containing value (the message names its position counting from 1, the {@code
   * index} metadata from 0), before anything is withdrawn; then with {@code NOT_FOUND} (namespace)
   * or {@code UNAVAILABLE}/{@code INTERNAL}, when some values may already be withdrawn (a retry
   * withdraws the rest and answers those as having none).
   */
  public Future<List<List<Pseudonym>>> withdrawAll(
      Caller caller, Withdrawal withdrawal, String namespaceName, List<String> originalValues) {
    Operation operation = withdrawal.batch();
    return access
        .check(caller, operation, namespaceName)
        .map(allowed -> validateOriginals(namespaceName, originalValues))
        .compose(
            distinct ->
                namespaces
                    .resolve(namespaceName)
                    .compose(
                        namespace ->
                            distinct.isEmpty()
                                ? Future.succeededFuture(Map.<String, List<Pseudonym>>of())
                                : withdrawDistinct(
                                    caller, operation, withdrawal, namespace, distinct)))
        .map(
            withdrawn ->
                originalValues.stream()
                    .map(value -> withdrawn.getOrDefault(value, List.of()))
                    .toList());
  }

  /**
   * Withdraws the distinct values, then has every replica's cache drop their pseudonyms, then
   * writes the audit lines: one per pseudonym withdrawn, one {@code NOT_FOUND} per value that had
   * none, or one with the failure's code; each names the replicas that did not confirm dropping the
   * pseudonyms, if any.
   */
  private Future<Map<String, List<Pseudonym>>> withdrawDistinct(
      Caller caller,
      Operation operation,
      Withdrawal withdrawal,
      Namespace namespace,
      List<String> distinct) {
    Future<Withdrawn> withdrawn =
        withdrawInAnySpelling(namespace, distinct, withdrawal)
            .compose(
                byValue -> {
                  List<String> pseudonymValues = new ArrayList<>();
                  byValue
                      .values()
                      .forEach(
                          pseudonyms ->
                              pseudonyms.forEach(p -> pseudonymValues.add(p.pseudonymValue())));
                  return withdrawals
                      .withdrawn(namespace.name(), pseudonymValues)
                      .map(unconfirmed -> new Withdrawn(byValue, unconfirmed));
                });
    access.auditedWithdrawals(
        caller,
        operation,
        namespace.name(),
        withdrawn.map(
            done ->
                distinct.stream()
                    .map(
                        value ->
                            done.byValue().getOrDefault(value, List.of()).stream()
                                .map(Pseudonym::pseudonymValue)
                                .toList())
                    .toList()),
        withdrawn.map(Withdrawn::unconfirmed));
    return withdrawn.map(Withdrawn::byValue);
  }

  /**
   * Withdraws the distinct values, each also where another spelling of it is stored that the
   * namespace's method takes for the same value (see {@link #storedSpellings}).
   */
  private Future<Map<String, List<Pseudonym>>> withdrawInAnySpelling(
      Namespace namespace, List<String> distinct, Withdrawal withdrawal) {
    return inAnySpelling(
        namespace, distinct, values -> repository.withdraw(namespace.name(), values, withdrawal));
  }

  /** The pseudonyms withdrawn per value, and the replicas that did not confirm dropping them. */
  private record Withdrawn(Map<String, List<Pseudonym>> byValue, Set<String> unconfirmed) {}

  /**
   * A page of the namespace's pseudonyms, newest first, never with original values. A page size of
   * 0 or less means {@value #DEFAULT_PAGE_SIZE}; above {@value #MAX_PAGE_SIZE} means {@value
   * #MAX_PAGE_SIZE}. Fails with {@code NOT_FOUND} (namespace), then {@code PERMISSION_DENIED} (the
   * caller may not read the namespace), or {@code INVALID_ARGUMENT} (a page token not issued for
   * this namespace).
   */
  public Future<PseudonymPage> list(
      Caller caller,
      String namespaceName,
      int pageSize,
      String pageToken,
      boolean includeTotalSize) {
    int limit = pageSize <= 0 ? DEFAULT_PAGE_SIZE : Math.min(pageSize, MAX_PAGE_SIZE);
    return namespaces
        .resolve(namespaceName)
        .compose(
            namespace ->
                access
                    .check(caller, Operation.PSEUDONYM_LIST, namespace.name())
                    .map(allowed -> namespace))
        .compose(
            namespace -> {
              Optional<ListCursor> after =
                  pageToken == null || pageToken.isEmpty()
                      ? Optional.empty()
                      : Optional.of(pageTokens.decode(namespace.name(), pageToken));
              Future<List<PseudonymRepository.PageRow>> rows =
                  repository.list(namespace.name(), limit + 1, after);
              Future<OptionalLong> total =
                  includeTotalSize
                      ? repository.count(namespace.name()).map(OptionalLong::of)
                      : Future.succeededFuture(OptionalLong.empty());
              return Future.all(rows, total)
                  .map(done -> toPage(namespace.name(), limit, rows.result(), total.result()));
            });
  }

  /**
   * The stored pseudonym of the original value, without creating one (the forward lookup); empty
   * when the value has none. Fails with {@code PERMISSION_DENIED} if the caller may not write to
   * the namespace (see {@link Operation#PSEUDONYM_FIND}), then with {@code NOT_FOUND} if the
   * namespace does not exist.
   */
  public Future<Optional<Pseudonym>> find(
      Caller caller, String namespaceName, String originalValue) {
    return findAll(caller, namespaceName, List.of(originalValue)).map(List::getFirst);
  }

  /**
   * The stored pseudonyms of many original values of one namespace, in request order, without
   * creating any: empty for a value that has none. One permission check and one statement for all
   * of them. Fails as {@link #find} fails, and with {@code INVALID_ARGUMENT} for more than {@link
   * #maxBatchSize()} values.
   *
   * @param originalValues may repeat a value and hold values that could never be stored (blank, too
   *     long): those are empty
   */
  public Future<List<Optional<Pseudonym>>> findAll(
      Caller caller, String namespaceName, List<String> originalValues) {
    return access
        .check(caller, Operation.PSEUDONYM_FIND, namespaceName)
        .compose(
            allowed -> {
              requireBatchSize(namespaceName, originalValues.size());
              return namespaces.resolve(namespaceName);
            })
        .compose(
            namespace ->
                findEach(
                    originalValues,
                    PseudonymService::isStorable,
                    distinct -> findAllByOriginalInAnySpelling(namespace, distinct)));
  }

  /**
   * The stored pseudonyms (of sequence number 0) of the distinct values, by value, each found also
   * where another spelling of it is stored that the namespace's method takes for the same value.
   */
  private Future<Map<String, Pseudonym>> findAllByOriginalInAnySpelling(
      Namespace namespace, List<String> distinct) {
    return inAnySpelling(
        namespace, distinct, values -> repository.findAllByOriginal(namespace.name(), values));
  }

  /**
   * What {@code byValue} finds for the distinct values, each also under the spelling of it that is
   * stored where that is another one the namespace's method takes for the same value (see {@link
   * #storedSpellings}): {@code byValue} is asked again for those spellings only.
   */
  private <T> Future<Map<String, T>> inAnySpelling(
      Namespace namespace,
      List<String> distinct,
      Function<List<String>, Future<Map<String, T>>> byValue) {
    return byValue
        .apply(distinct)
        .compose(
            direct ->
                storedSpellings(namespace, missingFrom(direct, distinct))
                    .compose(
                        spellings ->
                            spellings.isEmpty()
                                ? Future.succeededFuture(direct)
                                : byValue
                                    .apply(List.copyOf(Set.copyOf(spellings.values())))
                                    .map(other -> merged(direct, spellings, other))));
  }

  /** The values of {@code distinct} that {@code found} has nothing for. */
  private static List<String> missingFrom(Map<String, ?> found, List<String> distinct) {
    return distinct.stream().filter(value -> !found.containsKey(value)).toList();
  }

  /**
   * {@code direct}, and for each value of {@code spellings} what {@code other} has for its stored
   * spelling.
   */
  private static <T> Map<String, T> merged(
      Map<String, T> direct, Map<String, String> spellings, Map<String, T> other) {
    Map<String, T> all = new HashMap<>(direct);
    spellings.forEach(
        (value, stored) -> {
          T found = other.get(stored);
          if (found != null) {
            all.put(value, found);
          }
        });
    return all;
  }

  /**
   * The stored spelling of each of {@code values} that has no row of its own while a row holds the
   * value in a spelling the namespace's method takes for the same value: a keyed namespace
   * normalizes values (NFC) before it derives their pseudonyms, so "José" composed and decomposed
   * are one value, stored in the spelling that came first. Empty for the other methods, which take
   * each spelling as a value of its own, and for values without such a row. For a keyed namespace
   * it asks the key's holder for the values' pseudonyms, and fails as a Create would when it
   * cannot.
   */
  private Future<Map<String, String>> storedSpellings(Namespace namespace, List<String> values) {
    if (namespace.generationMethod() != GenerationMethod.VOPRF || values.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    requireKeyedLength(namespace);
    return keyed
        .derive(values)
        .compose(
            cores -> {
              Map<String, String> valueOfPseudonym = new HashMap<>(values.size() * 2);
              for (int i = 0; i < values.size(); i++) {
                valueOfPseudonym.put(pseudonymOf(namespace, cores.get(i)), values.get(i));
              }
              return repository
                  .findAllByValue(namespace.name(), List.copyOf(valueOfPseudonym.keySet()))
                  .map(
                      rows -> {
                        Map<String, String> spellings = new HashMap<>();
                        rows.forEach(
                            (pseudonym, row) -> {
                              String value = valueOfPseudonym.get(pseudonym);
                              String stored = row.originalValue();
                              if (stored != null
                                  && !stored.equals(value)
                                  && keyed.sameInput(value, stored)) {
                                spellings.put(value, stored);
                              }
                            });
                        return spellings;
                      });
            });
  }

  /**
   * What {@code find} finds for each of {@code values}, in their order: each distinct value that
   * {@code lookable} lets through is looked up once; the others are never found.
   */
  private static Future<List<Optional<Pseudonym>>> findEach(
      List<String> values,
      Predicate<String> lookable,
      Function<List<String>, Future<Map<String, Pseudonym>>> find) {
    Set<String> distinct = new LinkedHashSet<>();
    for (String value : values) {
      if (value != null && lookable.test(value)) {
        distinct.add(value);
      }
    }
    Future<Map<String, Pseudonym>> found =
        distinct.isEmpty() ? Future.succeededFuture(Map.of()) : find.apply(List.copyOf(distinct));
    return found.map(
        byValue ->
            values.stream()
                .map(value -> Optional.ofNullable(value == null ? null : byValue.get(value)))
                .toList());
  }

  /**
   * Whether Create would accept the original value: not null or blank, no NUL, at most {@link
   * TextLimits#MAX_ORIGINAL_VALUE_BYTES} bytes in UTF-8. For edges that answer each value of a
   * batch on its own.
   */
  public static boolean isStorable(String originalValue) {
    return originalValue != null
        && !originalValue.isBlank()
        && TextLimits.fits(originalValue, TextLimits.MAX_ORIGINAL_VALUE_BYTES);
  }

  private PseudonymPage toPage(
      String namespace, int limit, List<PseudonymRepository.PageRow> rows, OptionalLong total) {
    boolean more = rows.size() > limit;
    List<PseudonymRepository.PageRow> page = more ? rows.subList(0, limit) : rows;
    String next = more ? pageTokens.encode(namespace, page.get(limit - 1).cursor()) : "";
    return new PseudonymPage(
        namespace, page.stream().map(PseudonymRepository.PageRow::pseudonym).toList(), next, total);
  }

  private Future<Upserted> upsertPseudonym(Namespace namespace, String originalValue) {
    Map<String, String> metadata = Map.of("namespace", namespace.name());
    requireNotBlank(originalValue, metadata);
    TextLimits.check(
        "original value", originalValue, TextLimits.MAX_ORIGINAL_VALUE_BYTES, metadata);
    requireMatch(namespace, originalValue, -1, 1);
    if (namespace.parentValidationMode() == ParentValidationMode.ENSURE_EXISTS) {
      return requireInParent(namespace, List.of(originalValue), List.of(originalValue))
          .compose(inParent -> storeFirst(namespace, originalValue));
    }
    return storeFirst(namespace, originalValue);
  }

  /** The original value's pseudonym of sequence number 0, stored unless there is one. */
  private Future<Upserted> storeFirst(Namespace namespace, String originalValue) {
    if (!generation.generates(namespace.generationMethod())) {
      return storedOnly(namespace, List.of(originalValue))
          .map(stored -> new Upserted(stored.getFirst(), false));
    }
    if (namespace.generationMethod() == GenerationMethod.VOPRF) {
      return storeKeyedFirst(namespace, originalValue);
    }
    Candidates candidates = candidates(namespace).apply(originalValue);
    String first = firstCandidate(namespace, candidates);
    if (namespace.generationMethod().derivedFromOriginalValue()) {
      return storeDerived(namespace, originalValue, first);
    }
    return storeOf(namespace)
        .insertIfAbsent(namespace, originalValue, firstThen(first, candidates));
  }

  /**
   * A keyed namespace's pseudonym of the value: the stored one, else the one its key derives, then
   * stored. Looking up first spares the key's holder (a VOPRF server, a network call and some
   * scalar multiplications away) every value it has answered before.
   */
  private Future<Upserted> storeKeyedFirst(Namespace namespace, String originalValue) {
    requireKeyedLength(namespace);
    PseudonymRepository store = storeOf(namespace);
    return store
        .findAllByOriginal(namespace.name(), List.of(originalValue))
        .compose(
            found -> {
              Pseudonym stored = found.get(originalValue);
              if (stored != null) {
                return Future.succeededFuture(new Upserted(stored, false));
              }
              return keyed
                  .derive(List.of(originalValue))
                  .compose(
                      cores ->
                          storeDerived(
                              namespace, originalValue, pseudonymOf(namespace, cores.getFirst())));
            });
  }

  /** {@link #storeKeyedFirst} of many distinct values: one lookup, one derivation of the new. */
  private Future<List<Pseudonym>> storeKeyedAll(Namespace namespace, List<String> distinct) {
    requireKeyedLength(namespace);
    return storeOf(namespace)
        .findAllByOriginal(namespace.name(), distinct)
        .compose(
            found -> {
              List<String> fresh = distinct.stream().filter(v -> !found.containsKey(v)).toList();
              if (fresh.isEmpty()) {
                return Future.succeededFuture(distinct.stream().map(found::get).toList());
              }
              return keyed
                  .derive(fresh)
                  .compose(
                      cores ->
                          storeDerivedAll(
                              namespace,
                              fresh,
                              cores.stream().map(core -> pseudonymOf(namespace, core)).toList()))
                  .map(
                      stored -> {
                        Map<String, Pseudonym> all = new HashMap<>(found);
                        for (int i = 0; i < fresh.size(); i++) {
                          all.put(fresh.get(i), stored.get(i));
                        }
                        return distinct.stream().map(all::get).toList();
                      });
            });
  }

  /**
   * Fails with {@code INVALID_ARGUMENT} if the keyed namespace's length is not the one the VOPRF
   * settings fix: a namespace written by another service, or settings changed since, whose new
   * pseudonyms would not be the namespace's kind.
   */
  private void requireKeyedLength(Namespace namespace) {
    OptionalInt fixed = generation.fixedLength(namespace.generationMethod());
    if (fixed.isEmpty() || namespace.pseudonymLength() != fixed.getAsInt()) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "The namespace's pseudonym length does not suit its generation method.",
          Map.of("namespace", namespace.name()));
    }
  }

  /**
   * Stores the value's one pseudonym, of a method that derives it from the value, unless it is
   * stored; if another row holds that pseudonym, the row decides (see {@link #heldFor}). One lookup
   * more, on that path only.
   */
  private Future<Upserted> storeDerived(
      Namespace namespace, String originalValue, String pseudonym) {
    PseudonymRepository store = storeOf(namespace);
    return store
        .insertIfAbsent(namespace, originalValue, only(pseudonym))
        .recover(
            failure -> {
              if (!heldElsewhere(failure)) {
                return Future.failedFuture(failure);
              }
              return repository
                  .findByValue(namespace.name(), pseudonym)
                  .compose(
                      holder ->
                          holder.isPresent()
                              ? Future.succeededFuture(
                                  new Upserted(
                                      heldFor(namespace, originalValue, holder.get()), false))
                              // the row went meanwhile (a withdrawal): the pseudonym is free
                              : store.insertIfAbsent(namespace, originalValue, only(pseudonym)));
            });
  }

  /**
   * {@link #storeDerived} of many distinct values, {@code pseudonyms} theirs in their order: the
   * values of one input share the row of the first of them, and the rows that hold values'
   * pseudonyms are looked up in one statement, each judged before any further value is stored. In
   * the values' order.
   */
  private Future<List<Pseudonym>> storeDerivedAll(
      Namespace namespace, List<String> values, List<String> pseudonyms) {
    Map<String, String> firstOfPseudonym = HashMap.newHashMap(values.size());
    Map<String, String> pseudonymOfFirst = HashMap.newHashMap(values.size());
    List<String> firsts = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      String value = values.get(i);
      String first = firstOfPseudonym.putIfAbsent(pseudonyms.get(i), value);
      if (first == null) {
        firsts.add(value);
        pseudonymOfFirst.put(value, pseudonyms.get(i));
      } else if (!sameInput(namespace, first, value)) {
        throw derivedPseudonymOfAnotherValue(namespace.name());
      }
    }
    PseudonymRepository store = storeOf(namespace);
    Function<String, Candidates> candidates = value -> only(pseudonymOfFirst.get(value));
    return store
        .upsertAll(namespace, firsts, candidates)
        .map(stored -> byValue(firsts, stored))
        .recover(
            failure -> {
              if (!heldElsewhere(failure)) {
                return Future.failedFuture(failure);
              }
              return repository
                  .findAllByValue(namespace.name(), List.copyOf(pseudonymOfFirst.values()))
                  .compose(
                      holders -> {
                        Map<String, Pseudonym> byFirst = HashMap.newHashMap(firsts.size());
                        List<String> free = new ArrayList<>(firsts.size());
                        for (String value : firsts) {
                          Pseudonym holder = holders.get(pseudonymOfFirst.get(value));
                          if (holder == null) {
                            free.add(value);
                          } else {
                            byFirst.put(value, heldFor(namespace, value, holder));
                          }
                        }
                        if (free.isEmpty()) {
                          return Future.succeededFuture(byFirst);
                        }
                        return store
                            .upsertAll(namespace, free, candidates)
                            .map(
                                stored -> {
                                  byFirst.putAll(byValue(free, stored));
                                  return byFirst;
                                });
                      });
            })
        .map(
            byFirst -> {
              List<Pseudonym> answers = new ArrayList<>(values.size());
              for (int i = 0; i < values.size(); i++) {
                String value = values.get(i);
                Pseudonym stored = byFirst.get(firstOfPseudonym.get(pseudonyms.get(i)));
                answers.add(stored.originalValue().equals(value) ? stored : respelt(stored, value));
              }
              return Collections.unmodifiableList(answers);
            });
  }

  /** The stored pseudonyms of {@code values}, which {@code stored} holds in their order. */
  private static Map<String, Pseudonym> byValue(List<String> values, List<Pseudonym> stored) {
    Map<String, Pseudonym> byValue = HashMap.newHashMap(values.size());
    for (int i = 0; i < values.size(); i++) {
      byValue.put(values.get(i), stored.get(i));
    }
    return byValue;
  }

  /**
   * What the row that holds a value's derived pseudonym means for the value. A row of the same
   * input (the value itself, or another spelling the method derives alike: NFC-equal values in a
   * VOPRF namespace) holds the value's pseudonym, answered with the value as it was asked; the row
   * keeps the spelling stored first. Fails with {@code FAILED_PRECONDITION} if the row's value was
   * anonymized, or if the row is another value's.
   */
  private Pseudonym heldFor(Namespace namespace, String originalValue, Pseudonym holder) {
    if (holder.withdrawn()) {
      throw derivedPseudonymAnonymized(namespace.name());
    }
    if (holder.originalValue().equals(originalValue)) {
      return holder;
    }
    if (!sameInput(namespace, holder.originalValue(), originalValue)) {
      throw derivedPseudonymOfAnotherValue(namespace.name());
    }
    return respelt(holder, originalValue);
  }

  /** The stored pseudonym, answered for another spelling of its original value. */
  private static Pseudonym respelt(Pseudonym stored, String originalValue) {
    return new Pseudonym(
        stored.namespace(),
        originalValue,
        stored.pseudonymValue(),
        stored.createdAt(),
        stored.lastUpdatedAt(),
        stored.sequenceNumber());
  }

  /**
   * Whether the two values derive one pseudonym by the namespace's method: SHA-256 hashes the
   * value's bytes as they are (as the .NET vfps does), the VOPRF client normalizes first.
   */
  private boolean sameInput(Namespace namespace, String a, String b) {
    return namespace.generationMethod() == GenerationMethod.VOPRF
        ? keyed.sameInput(a, b)
        : a.equals(b);
  }

  /**
   * Whether a store of a derived pseudonym failed because another row holds it (see {@link
   * PseudonymRepository#insertIfAbsent}); the caller looks the row up before it says so.
   */
  private static boolean heldElsewhere(Throwable failure) {
    return failure instanceof ServiceException service
        && service.code() == ErrorCode.FAILED_PRECONDITION;
  }

  private static ServiceException derivedPseudonymAnonymized(String namespace) {
    return new ServiceException(
        ErrorCode.FAILED_PRECONDITION,
        "The pseudonym the namespace's deterministic method derives for the value belongs to"
            + " another row: the value's own, kept when the value was anonymized (consent"
            + " withdrawn). This method cannot give it another; use a namespace of a random method.",
        Map.of("namespace", namespace));
  }

  private static ServiceException derivedPseudonymOfAnotherValue(String namespace) {
    return new ServiceException(
        ErrorCode.FAILED_PRECONDITION,
        "The pseudonym the namespace's deterministic method derives for the value belongs to"
            + " another original value (two values that derive one pseudonym, or an imported"
            + " pair). This method cannot give it another; use a namespace of a random method.",
        Map.of("namespace", namespace));
  }

  /** A derived core as the namespace's pseudonym: prefix + core + suffix. */
  private static String pseudonymOf(Namespace namespace, String core) {
    return namespace.pseudonymPrefix() + core + namespace.pseudonymSuffix();
  }

  /** The one candidate of a derived pseudonym. */
  private static Candidates only(String pseudonym) {
    return new Candidates() {
      @Override
      public String get() {
        return pseudonym;
      }

      @Override
      public double distinct() {
        return 1;
      }
    };
  }

  /**
   * A value's position in a batch for a message, counted from 1 ({@code original value 3 of 10}),
   * where the {@code index} metadata counts from 0.
   */
  private static String nth(String what, int index, int count) {
    return what + " " + (index + 1) + " of " + count;
  }

  /** Fails with {@code INVALID_ARGUMENT}, in the .NET service's words, for a blank value. */
  private static void requireNotBlank(String originalValue, Map<String, String> metadata) {
    if (originalValue == null || originalValue.isBlank()) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT, "The original value must not be blank.", metadata);
    }
  }

  /**
   * Fails with {@code PATTERN_MISMATCH} if the value does not pass the namespace's regex; the
   * message names the pattern, never the value.
   *
   * @param index the value's position in a batch, or -1 for a single value
   */
  private static void requireMatch(
      Namespace namespace, String originalValue, int index, int count) {
    if (namespace.matches(originalValue)) {
      return;
    }
    String pattern = namespace.originalValueRegex().text();
    String which = index < 0 ? "The original value" : nth("The original value", index, count);
    throw new ServiceException(
        ErrorCode.PATTERN_MISMATCH,
        which
            + " does not match the required pattern '"
            + pattern
            + "' for namespace '"
            + namespace.name()
            + "'.",
        index < 0
            ? Map.of("namespace", namespace.name())
            : Map.of("namespace", namespace.name(), "index", Integer.toString(index)));
  }

  /**
   * Fails with {@code FAILED_PRECONDITION} unless every value is a pseudonym of the namespace's
   * parent, which {@link ParentValidationMode#ENSURE_EXISTS} requires: one statement for all.
   */
  private Future<Void> requireInParent(
      Namespace namespace, List<String> originalValues, List<String> requested) {
    String parent = namespace.parentName();
    return repository
        .existingPseudonymValues(parent, originalValues)
        .map(
            existing -> {
              for (String value : originalValues) {
                if (!existing.contains(value)) {
                  String which =
                      requested.size() == 1
                          ? "The original value"
                          : nth("The original value", requested.indexOf(value), requested.size());
                  throw new ServiceException(
                      ErrorCode.FAILED_PRECONDITION,
                      which
                          + " does not exist as a pseudonym in the parent namespace '"
                          + parent
                          + "' required by namespace '"
                          + namespace.name()
                          + "'.",
                      Map.of("namespace", namespace.name()));
                }
              }
              return null;
            });
  }

  /**
   * The distinct values in their first order; fails with {@code INVALID_ARGUMENT} for too many
   * values or the first one that could not be stored.
   */
  private List<String> validateOriginals(String namespaceName, List<String> originalValues) {
    requireBatchSize(namespaceName, originalValues.size());
    Set<String> distinct = new LinkedHashSet<>();
    for (int i = 0; i < originalValues.size(); i++) {
      String value = originalValues.get(i);
      if (!isStorable(value)) {
        Map<String, String> metadata =
            Map.of("namespace", namespaceName, "index", Integer.toString(i));
        String which = nth("original value", i, originalValues.size());
        if (value == null || value.isBlank()) {
          throw new ServiceException(
              ErrorCode.INVALID_ARGUMENT, "The " + which + " must not be blank.", metadata);
        }
        TextLimits.check(which, value, TextLimits.MAX_ORIGINAL_VALUE_BYTES, metadata);
      }
      distinct.add(value);
    }
    return List.copyOf(distinct);
  }

  private void requireBatchSize(String namespaceName, int size) {
    if (size > maxBatchSize) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "A batch holds at most "
              + maxBatchSize
              + " values (Pseudonymization__Batch__MaxSize), not "
              + size
              + ".",
          Map.of("namespace", namespaceName));
    }
  }

  /** Stores the distinct values and answers every requested one, in request order. */
  private Future<List<Pseudonym>> upsertAll(
      String namespaceName, List<String> distinct, List<String> requested) {
    return namespaces
        .resolve(namespaceName)
        .compose(namespace -> upsertAllIn(namespace, distinct, requested));
  }

  /** {@link #upsertAll} in the resolved namespace. */
  private Future<List<Pseudonym>> upsertAllIn(
      Namespace namespace, List<String> distinct, List<String> requested) {
    if (distinct.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    if (namespace.originalValueRegex().validates()) {
      for (int i = 0; i < requested.size(); i++) {
        requireMatch(namespace, requested.get(i), i, requested.size());
      }
    }
    Future<List<Pseudonym>> storing =
        namespace.parentValidationMode() == ParentValidationMode.ENSURE_EXISTS
            ? requireInParent(namespace, distinct, requested)
                .compose(inParent -> storeAll(namespace, distinct))
            : storeAll(namespace, distinct);
    return storing.map(
        stored -> {
          if (stored.size() == requested.size()) {
            return stored;
          }
          Map<String, Pseudonym> byValue = new HashMap<>(stored.size() * 2);
          stored.forEach(pseudonym -> byValue.put(pseudonym.originalValue(), pseudonym));
          return requested.stream().map(byValue::get).toList();
        });
  }

  /**
   * The stored pseudonyms of the values, in their order, in a namespace whose method makes no new
   * ones here: SHA-256 turned off still answers the values that have one, as the .NET vfps does,
   * since it looks a value up before it generates; VOPRF, whose pseudonym the .NET vfps derives
   * before any lookup, answers none. Fails with {@code FAILED_PRECONDITION} if a value has none.
   */
  private Future<List<Pseudonym>> storedOnly(Namespace namespace, List<String> originalValues) {
    Map<String, String> metadata = Map.of("namespace", namespace.name());
    if (namespace.generationMethod() != GenerationMethod.SHA256_HEX_ENCODED) {
      return Future.failedFuture(
          GenerationSupport.notSupported(namespace.generationMethod(), metadata));
    }
    return repository
        .findAllByOriginal(namespace.name(), originalValues)
        .map(
            stored -> {
              List<Pseudonym> found = new ArrayList<>(originalValues.size());
              for (String value : originalValues) {
                Pseudonym pseudonym = stored.get(value);
                if (pseudonym == null) {
                  throw GenerationSupport.notSupported(namespace.generationMethod(), metadata);
                }
                found.add(pseudonym);
              }
              return Collections.unmodifiableList(found);
            });
  }

  /** The pseudonyms of sequence number 0 of the distinct values, each stored unless it is. */
  private Future<List<Pseudonym>> storeAll(Namespace namespace, List<String> distinct) {
    if (!generation.generates(namespace.generationMethod())) {
      return storedOnly(namespace, distinct);
    }
    if (namespace.generationMethod() == GenerationMethod.VOPRF) {
      return storeKeyedAll(namespace, distinct);
    }
    Function<String, Candidates> candidates = candidates(namespace);
    firstCandidate(namespace, candidates.apply(distinct.get(0)));
    if (namespace.generationMethod().derivedFromOriginalValue()) {
      return storeDerivedAll(
          namespace,
          distinct,
          distinct.stream().map(value -> candidates.apply(value).get()).toList());
    }
    return storeOf(namespace).upsertAll(namespace, distinct, candidates);
  }

  /**
   * Where the namespace's pseudonyms are stored: past the pseudonym cache when its values may have
   * several, as the .NET vfps caches single-pseudonym namespaces only.
   */
  private PseudonymRepository storeOf(Namespace namespace) {
    return namespace.allowsMultiplePseudonyms() ? repository.uncached() : repository;
  }

  /**
   * Each value's candidates: prefix + a new generated core + suffix at every call, as many distinct
   * ones as the namespace's method and length allow.
   */
  private Function<String, Candidates> candidates(Namespace namespace) {
    PseudonymGenerator generator = generators.apply(namespace.generationMethod());
    int length = (int) namespace.pseudonymLength();
    double distinct = PseudonymGenerators.distinctCores(namespace.generationMethod(), length);
    return originalValue ->
        new Candidates() {
          @Override
          public String get() {
            return namespace.pseudonymPrefix()
                + generator.generate(originalValue, length)
                + namespace.pseudonymSuffix();
          }

          @Override
          public double distinct() {
            return distinct;
          }
        };
  }

  /**
   * The value's candidates for a new sequence number; fails as {@link #firstCandidate} and with
   * {@code FAILED_PRECONDITION} where the method makes no new pseudonyms here.
   */
  private Candidates generatedCandidates(Namespace namespace, String originalValue) {
    if (!generation.generates(namespace.generationMethod())) {
      throw GenerationSupport.notSupported(
          namespace.generationMethod(), Map.of("namespace", namespace.name()));
    }
    Candidates candidates = candidates(namespace).apply(originalValue);
    return firstThen(firstCandidate(namespace, candidates), candidates);
  }

  /**
   * The value's first candidate; fails with {@code INVALID_ARGUMENT} if the namespace's length does
   * not suit its method, which only a row written around the validation (e.g. by the .NET service)
   * can hold.
   */
  private static String firstCandidate(Namespace namespace, Candidates candidates) {
    try {
      return candidates.get();
    } catch (IllegalArgumentException e) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "The namespace's pseudonym length does not suit its generation method.",
          Map.of("namespace", namespace.name()));
    }
  }

  /** {@code first}, then the rest of {@code next}. */
  private static Candidates firstThen(String first, Candidates next) {
    return new Candidates() {
      private boolean used;

      @Override
      public String get() {
        if (used) {
          return next.get();
        }
        used = true;
        return first;
      }

      @Override
      public double distinct() {
        return next.distinct();
      }
    };
  }

  /**
   * The pseudonyms of the values in request order; values that could not have been stored are not
   * sent to the database.
   */
  private Future<List<Optional<Pseudonym>>> findAllByValue(
      String namespaceName, List<String> pseudonymValues) {
    return namespaces
        .resolve(namespaceName)
        .compose(
            namespace ->
                findEach(
                    pseudonymValues,
                    value -> TextLimits.fits(value, TextLimits.MAX_ORIGINAL_VALUE_BYTES),
                    distinct -> repository.findAllByValue(namespace.name(), distinct)));
  }

  /**
   * The failure of a create in a namespace that has no free pseudonym left: every pseudonym its
   * generation method and length allow is taken, or so nearly every one that free ones are not
   * found.
   */
  public static ServiceException namespaceFull(String namespace) {
    return new ServiceException(
        ErrorCode.RESOURCE_EXHAUSTED,
        "The namespace '"
            + namespace
            + "' is full: (nearly) every pseudonym its generation method and length allow is"
            + " taken. Create a namespace with a longer pseudonym length for further values.",
        Map.of("namespace", namespace));
  }

  /** The failure of a reverse lookup of a pseudonym whose original value was withdrawn. */
  private static ServiceException withdrawn(
      String namespace, String pseudonymValue, String message, Map<String, String> more) {
    Map<String, String> metadata = new HashMap<>(more);
    metadata.put("namespace", namespace);
    metadata.put("pseudonym", Objects.requireNonNullElse(pseudonymValue, ""));
    return new ServiceException(ErrorCode.WITHDRAWN, message, Map.copyOf(metadata));
  }

  private static ServiceException pseudonymNotFound(String namespace, String pseudonymValue) {
    return new ServiceException(
        ErrorCode.NOT_FOUND,
        "The requested pseudonym does not exist in the namespace.",
        Map.of("namespace", namespace, "pseudonym", pseudonymValue));
  }
}
