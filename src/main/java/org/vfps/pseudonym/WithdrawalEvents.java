package org.vfps.pseudonym;

import io.vertx.core.Future;
import java.util.Collection;
import java.util.Set;

/**
 * Tells every replica that pseudonyms were withdrawn, after the withdrawal is committed, so that no
 * cache answers a Create with a pair the database no longer has. The event names the pseudonyms,
 * never the original values: nothing that identifies a person crosses the event bus.
 */
public interface WithdrawalEvents {

  /** No replica caches pseudonyms: nothing to tell. */
  WithdrawalEvents NONE = (namespace, pseudonymValues) -> Future.succeededFuture(Set.of());

  /**
   * The pseudonyms of the namespace were deleted, or their original values anonymized. The future
   * completes once this replica has dropped them from its cache, together with the loads of the
   * namespace in flight, and every other replica has confirmed the same, or after a bounded wait;
   * it yields the replicas that did not confirm (empty normally), and never fails.
   */
  Future<Set<String>> withdrawn(String namespace, Collection<String> pseudonymValues);
}
