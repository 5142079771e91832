package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;

/**
 * Stores the pseudonyms of methods that derive the pseudonym from the value (SHA-256, VOPRF): one
 * candidate per value, so that a row that already holds it decides what it means (the same value in
 * another spelling, an anonymized value, another value). Keyed (VOPRF) pseudonyms are looked up
 * before the key's holder is asked for them. Thread-safe.
 */
final class DerivedPseudonyms {

  private final PseudonymRepository repository;
  private final KeyedGenerator keyed;
  private final Spellings spellings;

  DerivedPseudonyms(PseudonymRepository repository, KeyedGenerator keyed, Spellings spellings) {
    this.repository = repository;
    this.keyed = keyed;
    this.spellings = spellings;
  }

  /**
   * A keyed namespace's pseudonym of the value: the stored one, else the one its key derives, then
   * stored. Looking up first spares the key's holder (a VOPRF server, a network call and some
   * scalar multiplications away) every value it has answered before.
   */
  Future<Upserted> storeKeyedFirst(Namespace namespace, String originalValue) {
    spellings.requireKeyedLength(namespace);
    PseudonymRepository store = repository.storeFor(namespace);
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
                              namespace,
                              originalValue,
                              Spellings.pseudonymOf(namespace, cores.getFirst())));
            });
  }

  /** {@link #storeKeyedFirst} of many distinct values: one lookup, one derivation of the new. */
  Future<List<Pseudonym>> storeKeyedAll(Namespace namespace, List<String> distinct) {
    spellings.requireKeyedLength(namespace);
    return repository
        .storeFor(namespace)
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
                              cores.stream()
                                  .map(core -> Spellings.pseudonymOf(namespace, core))
                                  .toList()))
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
   * Stores the value's one pseudonym, of a method that derives it from the value, unless it is
   * stored; if another row holds that pseudonym, the row decides (see {@link #heldFor}). One lookup
   * more, on that path only.
   */
  Future<Upserted> storeDerived(Namespace namespace, String originalValue, String pseudonym) {
    PseudonymRepository store = repository.storeFor(namespace);
    return store
        .insertIfAbsent(namespace, originalValue, GeneratedCandidates.only(pseudonym))
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
                              : store.insertIfAbsent(
                                  namespace, originalValue, GeneratedCandidates.only(pseudonym)));
            });
  }

  /**
   * {@link #storeDerived} of many distinct values, {@code pseudonyms} theirs in their order: the
   * values of one input share the row of the first of them, and the rows that hold values'
   * pseudonyms are looked up in one statement, each judged before any further value is stored. In
   * the values' order.
   */
  Future<List<Pseudonym>> storeDerivedAll(
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
      } else if (!spellings.sameInput(namespace, first, value)) {
        throw PseudonymFailures.derivedPseudonymOfAnotherValue(namespace.name());
      }
    }
    PseudonymRepository store = repository.storeFor(namespace);
    Function<String, Candidates> candidates =
        value -> GeneratedCandidates.only(pseudonymOfFirst.get(value));
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
                answers.add(
                    stored.originalValue().equals(value)
                        ? stored
                        : stored.withOriginalValue(value));
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
      throw PseudonymFailures.derivedPseudonymAnonymized(namespace.name());
    }
    if (holder.originalValue().equals(originalValue)) {
      return holder;
    }
    if (!spellings.sameInput(namespace, holder.originalValue(), originalValue)) {
      throw PseudonymFailures.derivedPseudonymOfAnotherValue(namespace.name());
    }
    // the stored pseudonym, answered for another spelling of its original value
    return holder.withOriginalValue(originalValue);
  }

  /**
   * Whether a store of a derived pseudonym failed because another row holds it (see {@link
   * PseudonymRepository#insertIfAbsent}); the caller looks the row up before it says so.
   */
  private static boolean heldElsewhere(Throwable failure) {
    return failure instanceof ServiceException service
        && service.code() == ErrorCode.FAILED_PRECONDITION;
  }
}
