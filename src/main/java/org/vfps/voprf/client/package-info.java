/**
 * vfps as a client of a VOPRF server: the pseudonyms of VOPRF namespaces, derived from values that
 * concurrent creates blind, batch into shared calls, verify against the pinned key and unblind.
 */
package org.vfps.voprf.client;
