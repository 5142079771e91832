/**
 * The alphabet method's pseudonym format, on the JDK alone: an {@link
 * org.vfps.pseudonym.format.Alphabet} drawn from without bias, gPAS's ready alphabets, and the
 * check digits behind {@link org.vfps.pseudonym.format.CheckDigit}, chosen by {@link
 * org.vfps.pseudonym.format.CheckDigitKind}.
 */
package org.vfps.pseudonym.format;
