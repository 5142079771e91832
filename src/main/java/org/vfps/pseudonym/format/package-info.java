/**
 * The alphabet method's pseudonym format, on the JDK alone: an {@link
 * org.vfps.pseudonym.format.Alphabet} drawn from without bias, and gPAS's ready alphabets.
 */
package org.vfps.pseudonym.format;
