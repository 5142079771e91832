package org.vfps.pseudonym;

/**
 * Exactly {@code length} characters drawn uniformly from {@code 0-9A-Za-z}: byte values from 248 (4
 * * 62) on are redrawn.
 */
final class RandomBase62Generator extends RandomCharactersGenerator {

  RandomBase62Generator() {
    super("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
  }
}
