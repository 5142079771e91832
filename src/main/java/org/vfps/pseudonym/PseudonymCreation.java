package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
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
 * Creates pseudonyms: one per value (single, streamed, batch) or several per value (counted), each
 * after the caller's permission and the value's rules are checked, through the repository's one
 * path to the database. The contracts are {@link PseudonymService}'s. Thread-safe.
 */
final class PseudonymCreation {

  /** The most pseudonyms one original value may be given ({@code count}), as upstream allows. */
  static final int MAX_COUNT = 10_000;

  private final NamespaceService namespaces;
  private final PseudonymRepository repository;
  private final Access access;
  private final OriginalValueRules rules;
  private final GeneratedCandidates candidates;
  private final DerivedPseudonyms derived;
  private final GenerationSupport generation;

  PseudonymCreation(
      NamespaceService namespaces,
      PseudonymRepository repository,
      Access access,
      OriginalValueRules rules,
      GeneratedCandidates candidates,
      DerivedPseudonyms derived,
      GenerationSupport generation) {
    this.namespaces = namespaces;
    this.repository = repository;
    this.access = access;
    this.rules = rules;
    this.candidates = candidates;
    this.derived = derived;
    this.generation = generation;
  }

  /** See {@link PseudonymService#upsert}, the permission checked as {@code operation}. */
  Future<Upserted> upsert(
      Caller caller, Operation operation, String namespaceName, String originalValue) {
    return access
        .check(caller, operation, namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(namespace -> upsertPseudonym(namespace, originalValue));
  }

  /** See {@link PseudonymService#createCounted}. */
  Future<List<Pseudonym>> createCounted(
      Caller caller, String namespaceName, String originalValue, OptionalLong count) {
    return access
        .check(caller, Operation.PSEUDONYM_CREATE, namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(
            namespace -> {
              Map<String, String> metadata = Map.of("namespace", namespace.name());
              OriginalValueRules.requireNotBlank(originalValue, metadata);
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
              OriginalValueRules.requireMatch(namespace, originalValue, -1, 1);
              Future<Void> inParent =
                  namespace.parentValidationMode() == ParentValidationMode.ENSURE_EXISTS
                      ? rules.requireInParent(
                          namespace, List.of(originalValue), List.of(originalValue))
                      : Future.succeededFuture();
              return inParent.compose(
                  checked ->
                      repository.growTo(
                          namespace,
                          originalValue,
                          (int) wanted,
                          () -> candidates.forNewSequence(namespace, originalValue)));
            });
  }

  /** See {@link PseudonymService#createAll}. */
  Future<List<Pseudonym>> createAll(
      Caller caller, String namespaceName, List<String> originalValues) {
    return access
        .check(caller, Operation.PSEUDONYM_BATCH_CREATE, namespaceName)
        .map(allowed -> rules.validateOriginals(namespaceName, originalValues))
        .compose(
            distinct ->
                namespaces
                    .resolve(namespaceName)
                    .compose(namespace -> upsertAllIn(namespace, distinct, originalValues)));
  }

  /** See {@link PseudonymService#createEachValid}. */
  Future<List<Optional<Pseudonym>>> createEachValid(
      Caller caller, String namespaceName, List<String> originalValues) {
    return access
        .check(caller, Operation.PSEUDONYM_BATCH_CREATE, namespaceName)
        .compose(
            allowed -> {
              rules.requireBatchSize(namespaceName, originalValues.size());
              return namespaces.resolve(namespaceName);
            })
        .compose(
            namespace -> {
              boolean[] accepted = new boolean[originalValues.size()];
              List<String> valid = new ArrayList<>(originalValues.size());
              for (int i = 0; i < accepted.length; i++) {
                String value = originalValues.get(i);
                accepted[i] = OriginalValueRules.isStorable(value) && namespace.matches(value);
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

  private Future<Upserted> upsertPseudonym(Namespace namespace, String originalValue) {
    OriginalValueRules.requireStorable(originalValue, Map.of("namespace", namespace.name()));
    OriginalValueRules.requireMatch(namespace, originalValue, -1, 1);
    if (namespace.parentValidationMode() == ParentValidationMode.ENSURE_EXISTS) {
      return rules
          .requireInParent(namespace, List.of(originalValue), List.of(originalValue))
          .compose(inParent -> storeFirst(namespace, originalValue));
    }
    return storeFirst(namespace, originalValue);
  }

  /**
   * Stores the distinct values in the resolved namespace and answers every requested one, in
   * request order.
   */
  private Future<List<Pseudonym>> upsertAllIn(
      Namespace namespace, List<String> distinct, List<String> requested) {
    if (distinct.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    if (namespace.originalValueRegex().validates()) {
      for (int i = 0; i < requested.size(); i++) {
        OriginalValueRules.requireMatch(namespace, requested.get(i), i, requested.size());
      }
    }
    Future<List<Pseudonym>> storing =
        namespace.parentValidationMode() == ParentValidationMode.ENSURE_EXISTS
            ? rules
                .requireInParent(namespace, distinct, requested)
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
      return derived.storeKeyedAll(namespace, distinct);
    }
    Function<String, Candidates> each = candidates.of(namespace);
    GeneratedCandidates.first(namespace, each.apply(distinct.get(0)));
    if (namespace.generationMethod().derivedFromOriginalValue()) {
      return derived.storeDerivedAll(
          namespace, distinct, distinct.stream().map(value -> each.apply(value).get()).toList());
    }
    return repository.storeFor(namespace).upsertAll(namespace, distinct, each);
  }

  /** The original value's pseudonym of sequence number 0, stored unless there is one. */
  private Future<Upserted> storeFirst(Namespace namespace, String originalValue) {
    if (!generation.generates(namespace.generationMethod())) {
      return storedOnly(namespace, List.of(originalValue))
          .map(stored -> new Upserted(stored.getFirst(), false));
    }
    if (namespace.generationMethod() == GenerationMethod.VOPRF) {
      return derived.storeKeyedFirst(namespace, originalValue);
    }
    Candidates each = candidates.of(namespace).apply(originalValue);
    String first = GeneratedCandidates.first(namespace, each);
    if (namespace.generationMethod().derivedFromOriginalValue()) {
      return derived.storeDerived(namespace, originalValue, first);
    }
    return repository
        .storeFor(namespace)
        .insertIfAbsent(namespace, originalValue, GeneratedCandidates.firstThen(first, each));
  }
}
