/**
 * The alphabet method's pseudonym format, on the JDK alone: an {@link org.vfps.alphabet.Alphabet}
 * drawn from without bias (gPAS's ready alphabets among the presets), the check digits behind
 * {@link org.vfps.alphabet.CheckDigit} (chosen by {@link org.vfps.alphabet.CheckDigitKind}), and
 * the groups of {@link org.vfps.alphabet.Grouping}, put together by {@link
 * org.vfps.alphabet.AlphabetFormat}.
 */
package org.vfps.alphabet;
