/**
 * Caffeine caches as decorators of the repositories: namespaces by name (hits only) and pseudonyms
 * by (namespace, original value), sharing one bounded, expiring budget, evicted by namespace when
 * one is deleted anywhere in the cluster.
 */
package org.vfps.cache;
