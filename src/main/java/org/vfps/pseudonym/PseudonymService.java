package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.vfps.access.Access;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceService;
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

  /** The largest page served; larger requests are served this many. */
  public static final int MAX_PAGE_SIZE = 1000;

  private final NamespaceService namespaces;
  private final PseudonymRepository repository;
  private final PageTokens pageTokens;
  private final Function<GenerationMethod, PseudonymGenerator> generators;
  private final Access access;

  public PseudonymService(
      NamespaceService namespaces,
      PseudonymRepository repository,
      PageTokens pageTokens,
      Access access) {
    this(namespaces, repository, pageTokens, PseudonymGenerators::forMethod, access);
  }

  /**
   * A service that takes each method's generator from {@code generators}, which may wrap those of
   * {@link PseudonymGenerators} (to trace or time generation); the generators it returns must be
   * thread-safe.
   */
  public PseudonymService(
      NamespaceService namespaces,
      PseudonymRepository repository,
      PageTokens pageTokens,
      Function<GenerationMethod, PseudonymGenerator> generators,
      Access access) {
    this.namespaces = namespaces;
    this.repository = repository;
    this.pageTokens = pageTokens;
    this.generators = generators;
    this.access = access;
  }

  /**
   * The pseudonym of the original value in the namespace, created on first use. Idempotent: the
   * same pair always yields the same stored pseudonym. Fails with {@code NOT_FOUND} (namespace),
   * {@code INVALID_ARGUMENT} (blank, oversized or NUL-containing value) or {@code INTERNAL}; first
   * with {@code PERMISSION_DENIED} if the caller may not write to the namespace.
   */
  public Future<Pseudonym> create(Caller caller, String namespaceName, String originalValue) {
    return access
        .check(caller, Operation.PSEUDONYM_CREATE, namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(namespace -> upsertPseudonym(namespace, originalValue));
  }

  /**
   * The pseudonym with that value, with its original value (the reverse lookup). Fails with {@code
   * PERMISSION_DENIED} if the caller may not look values up in the namespace, then with {@code
   * NOT_FOUND} if the namespace or the value does not exist. Written to the audit trail.
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
        .map(found -> found.orElseThrow(() -> pseudonymNotFound(namespaceName, pseudonymValue)));
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
   * of them. Fails as {@link #find} fails.
   *
   * @param originalValues may repeat a value and hold values that could never be stored (blank, too
   *     long): those are empty
   */
  public Future<List<Optional<Pseudonym>>> findAll(
      Caller caller, String namespaceName, List<String> originalValues) {
    return access
        .check(caller, Operation.PSEUDONYM_FIND, namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(
            namespace -> {
              Set<String> distinct = new LinkedHashSet<>();
              for (String value : originalValues) {
                if (storable(value)) {
                  distinct.add(value);
                }
              }
              return distinct.isEmpty()
                  ? Future.succeededFuture(Map.<String, Pseudonym>of())
                  : repository.findAllByOriginal(namespace.name(), List.copyOf(distinct));
            })
        .map(
            found ->
                originalValues.stream()
                    .map(value -> Optional.ofNullable(value == null ? null : found.get(value)))
                    .toList());
  }

  /** Whether Create would accept the original value (not blank, within the limits). */
  private static boolean storable(String originalValue) {
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

  private Future<Pseudonym> upsertPseudonym(Namespace namespace, String originalValue) {
    Map<String, String> metadata = Map.of("namespace", namespace.name());
    if (originalValue == null || originalValue.isBlank()) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT, "The original value must not be blank.", metadata);
    }
    TextLimits.check(
        "original value", originalValue, TextLimits.MAX_ORIGINAL_VALUE_BYTES, metadata);
    PseudonymGenerator generator = generators.apply(namespace.generationMethod());
    Supplier<String> candidates =
        () ->
            namespace.pseudonymPrefix()
                + generator.generate(originalValue, (int) namespace.pseudonymLength())
                + namespace.pseudonymSuffix();
    String first;
    try {
      first = candidates.get();
    } catch (IllegalArgumentException e) {
      // only a row written around the validation (e.g. by the .NET service) gets here
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "The namespace's pseudonym length does not suit its generation method.",
          metadata);
    }
    return repository.upsert(namespace.name(), originalValue, firstThen(first, candidates));
  }

  private static Supplier<String> firstThen(String first, Supplier<String> next) {
    return new Supplier<>() {
      private boolean used;

      @Override
      public String get() {
        if (used) {
          return next.get();
        }
        used = true;
        return first;
      }
    };
  }

  private static ServiceException pseudonymNotFound(String namespace, String pseudonymValue) {
    return new ServiceException(
        ErrorCode.NOT_FOUND,
        "The requested pseudonym does not exist in the namespace.",
        Map.of("namespace", namespace, "pseudonym", pseudonymValue));
  }
}
