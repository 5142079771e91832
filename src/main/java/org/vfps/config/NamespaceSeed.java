package org.vfps.config;

import java.util.Objects;

/**
 * A namespace to create at start-up unless one of that name exists ({@code
 * Init__v1__Namespaces__N__*}). Values are as configured; checking the generation method and length
 * is left to the namespace code, which can name {@link #key()} in its error.
 *
 * @param key the environment variable prefix of this entry, e.g. {@code Init__v1__Namespaces__0}
 * @param name the namespace name, never blank
 * @param description nullable
 * @param generationMethod the raw {@code PseudonymGenerationMethod} text; nullable
 * @param pseudonymLength {@code PseudonymLength}, non-negative
 * @param prefix {@code PseudonymPrefix}; nullable
 * @param suffix {@code PseudonymSuffix}; nullable
 */
public record NamespaceSeed(
    String key,
    String name,
    String description,
    String generationMethod,
    long pseudonymLength,
    String prefix,
    String suffix) {

  public NamespaceSeed {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(name, "name");
    if (name.isBlank()) {
      throw new IllegalArgumentException(key + ": the name must not be blank");
    }
    if (pseudonymLength < 0) {
      throw new IllegalArgumentException(key + ": the pseudonym length must not be negative");
    }
  }
}
