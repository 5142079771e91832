package org.vfps.access;

/** What an operation needs; the three namespace grants are independent of each other. */
public enum Permission {
  /** Everything: creating and deleting namespaces, and every grant on every namespace. */
  ADMIN,
  /** Reading a namespace and listing its pseudonyms (never their original values). */
  READ,
  /** Creating pseudonyms in a namespace. */
  WRITE,
  /** Looking an original value up by its pseudonym. */
  REVERSE_LOOKUP
}
