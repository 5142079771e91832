package org.vfps.pseudonym;

/**
 * Exactly {@code length} characters drawn uniformly from the RFC 4648 base32 alphabet {@code
 * A-Z2-7}, as the .NET vfps draws them ({@code RandomNumberGenerator.GetString}): each character on
 * its own, so no {@code =} padding and no grouping of bytes into 5-bit pieces. 32 divides 256, so
 * every random byte picks a character (by its low five bits) and none is redrawn.
 */
final class RandomBase32Generator extends RandomCharactersGenerator {

  RandomBase32Generator() {
    super("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567");
  }
}
