/**
 * The pseudonym model, its generators, list page tokens and {@link
 * org.vfps.pseudonym.PseudonymService}, the entry point that hands each operation to the piece
 * doing it (creation, lookups, listing, withdrawals) and their shared rules of values. Failures
 * that storage raises as the domain does are built by {@link org.vfps.pseudonym.PseudonymFailures}.
 */
package org.vfps.pseudonym;
