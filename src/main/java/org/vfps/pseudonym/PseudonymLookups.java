package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.vfps.access.Access;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceService;
import org.vfps.namespace.TextLimits;

/**
 * Looks stored pseudonyms up without creating any: by pseudonym value (the reverse lookup, single
 * and batch, audited) and by original value (the forward lookup, resolve and find), each value also
 * under the spelling of it that is stored (see {@link Spellings}). The contracts are {@link
 * PseudonymService}'s. Thread-safe.
 */
final class PseudonymLookups {

  private final NamespaceService namespaces;
  private final PseudonymRepository repository;
  private final Access access;
  private final OriginalValueRules rules;
  private final Spellings spellings;

  PseudonymLookups(
      NamespaceService namespaces,
      PseudonymRepository repository,
      Access access,
      OriginalValueRules rules,
      Spellings spellings) {
    this.namespaces = namespaces;
    this.repository = repository;
    this.access = access;
    this.rules = rules;
    this.spellings = spellings;
  }

  /** See {@link PseudonymService#resolve}. */
  Future<List<Pseudonym>> resolve(Caller caller, String namespaceName, String originalValue) {
    return resolveStored(caller, namespaceName, originalValue)
        .map(
            found ->
                requireFound(
                    found,
                    namespaceName,
                    "No pseudonym exists in the namespace for the requested original value."));
  }

  /**
   * The pseudonyms found for an original value; fails with {@code NOT_FOUND} and {@code message}
   * when there are none.
   */
  static List<Pseudonym> requireFound(List<Pseudonym> found, String namespaceName, String message) {
    if (found.isEmpty()) {
      throw new ServiceException(ErrorCode.NOT_FOUND, message, Map.of("namespace", namespaceName));
    }
    return found;
  }

  /** See {@link PseudonymService#resolveStored}. */
  Future<List<Pseudonym>> resolveStored(Caller caller, String namespaceName, String originalValue) {
    return access
        .check(caller, Operation.PSEUDONYM_RESOLVE, namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(
            namespace -> {
              OriginalValueRules.requireNotBlank(
                  originalValue, Map.of("namespace", namespace.name()));
              OriginalValueRules.requireMatch(namespace, originalValue, -1, 1);
              return TextLimits.fits(originalValue, TextLimits.MAX_ORIGINAL_VALUE_BYTES)
                  ? findAllOfOriginal(namespace, originalValue)
                  : Future.succeededFuture(List.<Pseudonym>of());
            });
  }

  /**
   * Every stored pseudonym of the original value, or of the spelling of it that is stored, where
   * the namespace's method takes two spellings for one value.
   */
  Future<List<Pseudonym>> findAllOfOriginal(Namespace namespace, String originalValue) {
    return spellings
        .inAnySpelling(
            namespace,
            List.of(originalValue),
            values ->
                repository
                    .findAllOfOriginal(namespace.name(), values.getFirst())
                    .map(found -> found.isEmpty() ? Map.of() : Map.of(values.getFirst(), found)))
        .map(found -> found.getOrDefault(originalValue, List.of()));
  }

  /** See {@link PseudonymService#lookupAll}. */
  Future<List<ReverseLookup>> lookupAll(
      Caller caller, String namespaceName, List<String> pseudonymValues) {
    return auditedBatch(caller, namespaceName, pseudonymValues, false);
  }

  /**
   * The reverse lookups of a batch ({@link Operation#PSEUDONYM_BATCH_GET}): the permission and the
   * batch's size checked, then the values looked up, each one's outcome written to the audit trail.
   *
   * @param refusalFailsCall whether a value refused on its own (a mistyped pseudonym) fails the
   *     whole call before any value is looked up, rather than being answered as refused
   */
  private Future<List<ReverseLookup>> auditedBatch(
      Caller caller, String namespaceName, List<String> pseudonymValues, boolean refusalFailsCall) {
    Operation operation = Operation.PSEUDONYM_BATCH_GET;
    return access
        .check(caller, operation, namespaceName)
        .compose(
            allowed -> {
              rules.requireBatchSize(namespaceName, pseudonymValues.size());
              return access.auditedLookups(
                  caller,
                  operation,
                  namespaceName,
                  pseudonymValues,
                  findAllByValue(namespaceName, pseudonymValues, refusalFailsCall),
                  ReverseLookup::auditOutcome);
            });
  }

  /** See {@link PseudonymService#getAll}. */
  Future<List<Pseudonym>> getAll(
      Caller caller, String namespaceName, List<String> pseudonymValues) {
    return auditedBatch(caller, namespaceName, pseudonymValues, true)
        .map(
            results -> {
              List<Optional<Pseudonym>> found = results.stream().map(ReverseLookup::found).toList();
              List<Pseudonym> pseudonyms = new ArrayList<>(found.size());
              for (int i = 0; i < found.size(); i++) {
                int index = i;
                if (found.get(i).map(Pseudonym::withdrawn).orElse(false)) {
                  throw PseudonymFailures.withdrawn(
                      namespaceName,
                      pseudonymValues.get(i),
                      "The original value of "
                          + OriginalValueRules.nth("the pseudonym", i, found.size())
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
                                    OriginalValueRules.nth("The pseudonym", index, found.size())
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

  /** See {@link PseudonymService#get}. */
  Future<Pseudonym> get(Caller caller, String namespaceName, String pseudonymValue) {
    return audited(
        caller,
        namespaceName,
        pseudonymValue,
        namespace ->
            namespace
                .map(resolved -> lookupForm(resolved, pseudonymValue))
                // as the .NET service: a Get in a namespace that does not exist finds no pseudonym
                .recover(
                    failure ->
                        failure instanceof ServiceException service
                                && service.code() == ErrorCode.NOT_FOUND
                            ? Future.succeededFuture(pseudonymValue)
                            : Future.failedFuture(failure))
                .compose(form -> findByValue(namespaceName, form, pseudonymValue)));
  }

  /**
   * See {@link PseudonymFormat#lookupForm}; fails with {@code INVALID_ARGUMENT} for a mistyped
   * pseudonym.
   */
  private static String lookupForm(Namespace namespace, String pseudonymValue) {
    return PseudonymFormat.lookupForm(namespace, pseudonymValue)
        .orElseThrow(
            () -> PseudonymFailures.checkDigitMismatch(namespace.name(), pseudonymValue, Map.of()));
  }

  /** See {@link PseudonymService#lookup}. */
  Future<Optional<Pseudonym>> lookup(Caller caller, String namespaceName, String pseudonymValue) {
    return audited(
            caller,
            namespaceName,
            pseudonymValue,
            namespace ->
                namespace.compose(
                    resolved ->
                        findByValue(
                            resolved.name(), lookupForm(resolved, pseudonymValue), pseudonymValue)))
        .map(Optional::of)
        .recover(
            failure ->
                failure instanceof ServiceException service
                        && service.code() == ErrorCode.NOT_FOUND
                        && service.metadata().containsKey("pseudonym")
                    ? Future.succeededFuture(Optional.empty())
                    : Future.failedFuture(failure));
  }

  /**
   * A reverse lookup of one pseudonym ({@link Operation#PSEUDONYM_GET}): the permission checked,
   * then the namespace resolved and {@code findIn} asked with it, its answer written to the audit
   * trail.
   */
  private Future<Pseudonym> audited(
      Caller caller,
      String namespaceName,
      String pseudonymValue,
      Function<Future<Namespace>, Future<Pseudonym>> findIn) {
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
                    findIn.apply(namespaces.resolve(namespaceName))));
  }

  /**
   * The pseudonym stored as {@code storedForm}; failures name it as the caller sent it, {@code
   * pseudonymValue}.
   */
  private Future<Pseudonym> findByValue(
      String namespaceName, String storedForm, String pseudonymValue) {
    if (!TextLimits.fits(namespaceName, TextLimits.MAX_NAME_BYTES)
        || !TextLimits.fits(storedForm, TextLimits.MAX_ORIGINAL_VALUE_BYTES)) {
      return Future.failedFuture(
          PseudonymFailures.pseudonymNotFound(namespaceName, pseudonymValue));
    }
    return repository
        .findByValue(namespaceName, storedForm)
        .map(
            found -> {
              Pseudonym pseudonym =
                  found.orElseThrow(
                      () -> PseudonymFailures.pseudonymNotFound(namespaceName, pseudonymValue));
              if (pseudonym.withdrawn()) {
                throw PseudonymFailures.withdrawn(
                    namespaceName,
                    pseudonymValue,
                    "The original value of the pseudonym was withdrawn.",
                    Map.of());
              }
              return pseudonym;
            });
  }

  /**
   * What each value finds, in request order: a value refused on its own (a mistyped pseudonym) is
   * answered by its refusal, or fails the call when {@code refusalFailsCall}; the others are looked
   * up in the form their namespace stores them ({@link PseudonymFormat#lookupForm}), and values
   * that could not have been stored are not sent to the database.
   */
  private Future<List<ReverseLookup>> findAllByValue(
      String namespaceName, List<String> pseudonymValues, boolean refusalFailsCall) {
    return namespaces
        .resolve(namespaceName)
        .compose(
            namespace -> {
              List<String> forms = new ArrayList<>(pseudonymValues.size());
              ServiceException[] refusals = new ServiceException[pseudonymValues.size()];
              for (int i = 0; i < pseudonymValues.size(); i++) {
                String value = pseudonymValues.get(i);
                if (value == null || namespace.alphabetFormat() == null) {
                  forms.add(value);
                  continue;
                }
                Optional<String> form = PseudonymFormat.lookupForm(namespace, value);
                if (form.isPresent()) {
                  forms.add(form.get());
                  continue;
                }
                refusals[i] =
                    PseudonymFailures.checkDigitMismatch(
                        namespace.name(), value, Map.of("index", Integer.toString(i)));
                if (refusalFailsCall) {
                  return Future.failedFuture(refusals[i]);
                }
                // never looked up
                forms.add(null);
              }
              return findEach(
                      forms,
                      value -> TextLimits.fits(value, TextLimits.MAX_ORIGINAL_VALUE_BYTES),
                      distinct -> repository.findAllByValue(namespace.name(), distinct))
                  .map(
                      found -> {
                        List<ReverseLookup> results = new ArrayList<>(found.size());
                        for (int i = 0; i < found.size(); i++) {
                          results.add(new ReverseLookup(found.get(i).orElse(null), refusals[i]));
                        }
                        return Collections.unmodifiableList(results);
                      });
            });
  }

  /** See {@link PseudonymService#findAll}. */
  Future<List<Optional<Pseudonym>>> findAll(
      Caller caller, String namespaceName, List<String> originalValues) {
    return access
        .check(caller, Operation.PSEUDONYM_FIND, namespaceName)
        .compose(
            allowed -> {
              rules.requireBatchSize(namespaceName, originalValues.size());
              return namespaces.resolve(namespaceName);
            })
        .compose(
            namespace ->
                findEach(
                    originalValues,
                    OriginalValueRules::isStorable,
                    distinct ->
                        spellings.inAnySpelling(
                            namespace,
                            distinct,
                            values -> repository.findAllByOriginal(namespace.name(), values))));
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
}
