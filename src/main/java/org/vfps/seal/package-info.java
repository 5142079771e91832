/**
 * Sealed originals: the key file ({@link SealingKeys}) and the cryptography ({@link Sealer}) that
 * turn an original value into what a sealed namespace stores, a keyed blind index in {@code
 * original_value} and the value encrypted under a data key beside it, and back. On the JDK alone
 * (HMAC-SHA256, AES-256-GCM), besides Vert.x's JSON for the key file.
 */
package org.vfps.seal;
