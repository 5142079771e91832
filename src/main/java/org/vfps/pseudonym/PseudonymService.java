package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import org.vfps.access.Access;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.error.ServiceException;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.GenerationSupport;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceCapacity;
import org.vfps.namespace.NamespaceService;
import org.vfps.namespace.TextLimits;

/**
 * Creates pseudonyms, looks them up by value and lists them, with the rules of the .NET vfps. Each
 * operation checks its caller through {@link Access}, as {@link Operation} says, and fails with
 * {@code PERMISSION_DENIED} when the caller lacks the permission. Thread-safe. Futures fail with
 * {@link ServiceException}.
 *
 * <p>The entry point of the pseudonym operations, which it hands to the pieces that do them: {@link
 * PseudonymCreation}, {@link PseudonymLookups}, {@link PseudonymListing} and {@link Withdrawals},
 * which share the {@link OriginalValueRules} and the {@link Spellings} of values.
 */
public final class PseudonymService {

  /** The page size when a client asks for none. */
  public static final int DEFAULT_PAGE_SIZE = PseudonymListing.DEFAULT_PAGE_SIZE;

  /** The most pseudonyms one original value may be given ({@code count}), as upstream allows. */
  public static final int MAX_COUNT = PseudonymCreation.MAX_COUNT;

  /** The largest page served; larger requests are served this many. */
  public static final int MAX_PAGE_SIZE = PseudonymListing.MAX_PAGE_SIZE;

  private final PseudonymRepository repository;
  private final OriginalValueRules rules;
  private final PseudonymCreation creation;
  private final PseudonymLookups lookups;
  private final PseudonymListing listing;
  private final Withdrawals withdrawals;

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
    Objects.requireNonNull(generation, "generation");
    Objects.requireNonNull(withdrawals, "withdrawals");
    Objects.requireNonNull(keyed, "keyed");
    this.repository = repository;
    this.rules = new OriginalValueRules(repository, maxBatchSize);
    Spellings spellings = new Spellings(repository, keyed, generation);
    this.creation =
        new PseudonymCreation(
            namespaces,
            repository,
            access,
            rules,
            new GeneratedCandidates(generators, generation),
            new DerivedPseudonyms(repository, keyed, spellings),
            generation);
    this.lookups = new PseudonymLookups(namespaces, repository, access, rules, spellings);
    this.listing = new PseudonymListing(namespaces, repository, access, pageTokens);
    this.withdrawals =
        new Withdrawals(namespaces, repository, access, rules, spellings, lookups, withdrawals);
  }

  /**
   * The capacity of a namespace whose caller was allowed to read it ({@link NamespaceService#get}):
   * the pseudonyms its settings make, and those it holds, counted in the database now (a scan of
   * the namespace's rows: about 0.15 s per million pseudonyms), so that every replica says the
   * same. Fails as the database does.
   */
  public Future<NamespaceCapacity> capacity(Namespace namespace) {
    return repository
        .count(namespace.name())
        .map(
            used -> new NamespaceCapacity(PseudonymGenerators.distinctPseudonyms(namespace), used));
  }

  /** The most values one batch call may hold. */
  public int maxBatchSize() {
    return rules.maxBatchSize();
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
    return creation
        .upsert(caller, Operation.PSEUDONYM_CREATE, namespaceName, originalValue)
        .map(Upserted::pseudonym);
  }

  /**
   * {@link #create}, saying whether this call stored the pair (what a FHIR batch-response shows as
   * {@code 201}): of concurrent calls for the same new pair exactly one is told so.
   */
  public Future<Upserted> upsert(Caller caller, String namespaceName, String originalValue) {
    return creation.upsert(caller, Operation.PSEUDONYM_CREATE, namespaceName, originalValue);
  }

  /**
   * One create of a stream of creates ({@code CreateStream}), each of which names its namespace: as
   * {@link #create}, with the permission checked (and a denial counted) as {@link
   * Operation#PSEUDONYM_CREATE_STREAM}.
   */
  public Future<Pseudonym> createStreamed(
      Caller caller, String namespaceName, String originalValue) {
    return creation
        .upsert(caller, Operation.PSEUDONYM_CREATE_STREAM, namespaceName, originalValue)
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
    return creation.createCounted(caller, namespaceName, originalValue, count);
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
    return lookups.resolve(caller, namespaceName, originalValue);
  }

  /**
   * {@link #resolve}, for edges that word a value without pseudonyms themselves: empty then, and
   * failing as {@link #resolve} otherwise.
   */
  public Future<List<Pseudonym>> resolveStored(
      Caller caller, String namespaceName, String originalValue) {
    return lookups.resolveStored(caller, namespaceName, originalValue);
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
    return creation.createAll(caller, namespaceName, originalValues);
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
    return creation.createEachValid(caller, namespaceName, originalValues);
  }

  /**
   * The original values of many pseudonyms of one namespace (reverse lookups), in request order:
   * each value's {@link ReverseLookup}, with no pseudonym for a value that is no pseudonym of the
   * namespace, and a refusal ({@code INVALID_ARGUMENT}, "The pseudonym's check digit does not
   * match: it was mistyped.", with the value's {@code index}) for a value of the namespace's
   * alphabet format whose check digit does not match, which is not looked up. A value of that
   * format is found with or without its group delimiters. Written to the audit trail, one line per
   * value. Fails with {@code PERMISSION_DENIED} if the caller may not look values up in the
   * namespace, then with {@code INVALID_ARGUMENT} for more than {@link #maxBatchSize()} values,
   * then with {@code NOT_FOUND} if the namespace does not exist.
   */
  public Future<List<ReverseLookup>> lookupAll(
      Caller caller, String namespaceName, List<String> pseudonymValues) {
    return lookups.lookupAll(caller, namespaceName, pseudonymValues);
  }

  /**
   * As {@link #lookupAll}, but every value must be a pseudonym of the namespace whose original
   * value was not withdrawn: fails with the refusal of the first mistyped value before any value is
   * looked up, then with {@code NOT_FOUND} naming the first one that is not a pseudonym, or with
   * {@code WITHDRAWN} naming the first withdrawn one (message, {@code pseudonym} and {@code index}
   * metadata), whichever comes first.
   */
  public Future<List<Pseudonym>> getAll(
      Caller caller, String namespaceName, List<String> pseudonymValues) {
    return lookups.getAll(caller, namespaceName, pseudonymValues);
  }

  /**
   * The pseudonym with that value, with its original value (the reverse lookup). Fails with {@code
   * PERMISSION_DENIED} if the caller may not look values up in the namespace, then with {@code
   * NOT_FOUND} if the namespace or the value does not exist, or with {@code WITHDRAWN} if its
   * original value was withdrawn; a value of the namespace's alphabet format whose check digit does
   * not match fails with {@code INVALID_ARGUMENT} before it is looked up. Written to the audit
   * trail.
   */
  public Future<Pseudonym> get(Caller caller, String namespaceName, String pseudonymValue) {
    return lookups.get(caller, namespaceName, pseudonymValue);
  }

  /**
   * The reverse lookup of {@link #get}, for edges that tell an unknown namespace from an unknown
   * pseudonym: empty when the value is no pseudonym of the namespace. Fails with {@code
   * PERMISSION_DENIED} as {@link #get} does, then with {@code NOT_FOUND} if the namespace does not
   * exist, or with {@code INVALID_ARGUMENT} for a mistyped value as {@link #get}. Written to the
   * audit trail as {@link #get} is (an unknown value as {@code NOT_FOUND}).
   */
  public Future<Optional<Pseudonym>> lookup(
      Caller caller, String namespaceName, String pseudonymValue) {
    return lookups.lookup(caller, namespaceName, pseudonymValue);
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
    return withdrawals.withdraw(caller, withdrawal, namespaceName, originalValue);
  }

  /**
   * {@link #withdraw}, for edges that word a value without pseudonyms themselves: empty then (and
   * audited as {@code NOT_FOUND}), failing as {@link #withdraw} otherwise.
   */
  public Future<List<Pseudonym>> withdrawStored(
      Caller caller, Withdrawal withdrawal, String namespaceName, String originalValue) {
    return withdrawals.withdrawStored(caller, withdrawal, namespaceName, originalValue);
  }

  /**
   * What {@link #withdraw} would do, without withdrawing anything: succeeds with whether the value
   * has a pseudonym, and fails as {@link #withdraw} fails before it withdraws. For a transaction,
   * which checks every entry before it changes anything.
   */
  public Future<Boolean> checkWithdrawal(
      Caller caller, Withdrawal withdrawal, String namespaceName, String originalValue) {
    return withdrawals.checkWithdrawal(caller, withdrawal, namespaceName, originalValue);
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
    return withdrawals.withdrawAll(caller, withdrawal, namespaceName, originalValues);
  }

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
    return listing.list(caller, namespaceName, pageSize, pageToken, includeTotalSize);
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
    return lookups.findAll(caller, namespaceName, originalValues);
  }

  /**
   * Whether Create would accept the original value: not null or blank, no NUL, at most {@link
   * TextLimits#MAX_ORIGINAL_VALUE_BYTES} bytes in UTF-8. For edges that answer each value of a
   * batch on its own.
   */
  public static boolean isStorable(String originalValue) {
    return OriginalValueRules.isStorable(originalValue);
  }
}
