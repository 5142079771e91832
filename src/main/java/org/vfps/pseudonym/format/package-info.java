/**
 * The alphabet method's pseudonym format, on the JDK alone: an {@link
 * org.vfps.pseudonym.format.Alphabet} drawn from without bias (gPAS's ready alphabets among the
 * presets), the check digits behind {@link org.vfps.pseudonym.format.CheckDigit} (chosen by {@link
 * org.vfps.pseudonym.format.CheckDigitKind}), and the groups of {@link
 * org.vfps.pseudonym.format.Grouping}, put together by {@link
 * org.vfps.pseudonym.format.AlphabetFormat}.
 */
package org.vfps.pseudonym.format;
