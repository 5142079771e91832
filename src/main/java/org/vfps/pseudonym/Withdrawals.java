package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.vfps.access.Access;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.NamespaceService;

/**
 * Withdraws original values whose person withdrew consent, deleting or anonymizing their rows as a
 * {@link Withdrawal} says, single or batch: then has every replica's cache drop their pseudonyms
 * ({@link WithdrawalEvents}) and writes the audit lines. The contracts are {@link
 * PseudonymService}'s. Thread-safe.
 */
final class Withdrawals {

  private final NamespaceService namespaces;
  private final PseudonymRepository repository;
  private final Access access;
  private final OriginalValueRules rules;
  private final Spellings spellings;
  private final PseudonymLookups lookups;
  private final WithdrawalEvents events;

  Withdrawals(
      NamespaceService namespaces,
      PseudonymRepository repository,
      Access access,
      OriginalValueRules rules,
      Spellings spellings,
      PseudonymLookups lookups,
      WithdrawalEvents events) {
    this.namespaces = namespaces;
    this.repository = repository;
    this.access = access;
    this.rules = rules;
    this.spellings = spellings;
    this.lookups = lookups;
    this.events = events;
  }

  /** See {@link PseudonymService#withdraw}. */
  Future<List<Pseudonym>> withdraw(
      Caller caller, Withdrawal withdrawal, String namespaceName, String originalValue) {
    return withdrawStored(caller, withdrawal, namespaceName, originalValue)
        .map(
            pseudonyms ->
                PseudonymLookups.requireFound(
                    pseudonyms,
                    namespaceName,
                    "No pseudonym exists in the namespace for the original value to withdraw."));
  }

  /** See {@link PseudonymService#withdrawStored}. */
  Future<List<Pseudonym>> withdrawStored(
      Caller caller, Withdrawal withdrawal, String namespaceName, String originalValue) {
    Operation operation = withdrawal.single();
    return access
        .check(caller, operation, namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(
            namespace -> {
              OriginalValueRules.requireStorable(
                  originalValue, Map.of("namespace", namespace.name()));
              return withdrawDistinct(
                  caller, operation, withdrawal, namespace, List.of(originalValue));
            })
        .map(withdrawn -> withdrawn.getOrDefault(originalValue, List.of()));
  }

  /** See {@link PseudonymService#checkWithdrawal}. */
  Future<Boolean> checkWithdrawal(
      Caller caller, Withdrawal withdrawal, String namespaceName, String originalValue) {
    return access
        .check(caller, withdrawal.single(), namespaceName)
        .compose(allowed -> namespaces.resolve(namespaceName))
        .compose(
            namespace -> {
              OriginalValueRules.requireStorable(
                  originalValue, Map.of("namespace", namespace.name()));
              return lookups.findAllOfOriginal(namespace, originalValue);
            })
        .map(stored -> !stored.isEmpty());
  }

  /** See {@link PseudonymService#withdrawAll}. */
  Future<List<List<Pseudonym>>> withdrawAll(
      Caller caller, Withdrawal withdrawal, String namespaceName, List<String> originalValues) {
    Operation operation = withdrawal.batch();
    return access
        .check(caller, operation, namespaceName)
        .map(allowed -> rules.validateOriginals(namespaceName, originalValues))
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
   * Withdraws the distinct values, each also where another spelling of it is stored that the
   * namespace's method takes for the same value (see {@link Spellings}), then has every replica's
   * cache drop their pseudonyms, then writes the audit lines: one per pseudonym withdrawn, one
   * {@code NOT_FOUND} per value that had none, or one with the failure's code; each names the
   * replicas that did not confirm dropping the pseudonyms, if any.
   */
  private Future<Map<String, List<Pseudonym>>> withdrawDistinct(
      Caller caller,
      Operation operation,
      Withdrawal withdrawal,
      Namespace namespace,
      List<String> distinct) {
    Future<Withdrawn> withdrawn =
        spellings
            .inAnySpelling(
                namespace,
                distinct,
                values -> repository.withdraw(namespace.name(), values, withdrawal))
            .compose(
                byValue -> {
                  List<String> pseudonymValues = new ArrayList<>();
                  byValue
                      .values()
                      .forEach(
                          pseudonyms ->
                              pseudonyms.forEach(p -> pseudonymValues.add(p.pseudonymValue())));
                  return events
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

  /** The pseudonyms withdrawn per value, and the replicas that did not confirm dropping them. */
  private record Withdrawn(Map<String, List<Pseudonym>> byValue, Set<String> unconfirmed) {}
}
