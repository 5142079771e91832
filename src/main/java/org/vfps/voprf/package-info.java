/**
 * RFC 9497 VOPRF(ristretto255, SHA-512) in verifiable mode: the group's hashing and serialization,
 * the server's key and evaluation with its batched DLEQ proof, and the client's blinding,
 * verification and finalization. Used by vfps's VOPRF pseudonyms and by the VOPRF server alike.
 */
package org.vfps.voprf;
