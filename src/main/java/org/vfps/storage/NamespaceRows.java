package org.vfps.storage;

import io.vertx.sqlclient.Row;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.vfps.alphabet.AlphabetFormat;
import org.vfps.alphabet.CheckDigitKind;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.GenerationMethod;
import org.vfps.namespace.Namespace;
import org.vfps.namespace.OriginalValueRegex;
import org.vfps.namespace.ParentValidationMode;

/**
 * Rows of {@code namespaces} to {@link Namespace}s: the one mapper. It keeps the validation regexes
 * it compiled by their text, so that a namespace read again (every create reads its namespace while
 * the namespace cache is off) does not compile its pattern again. Thread-safe.
 */
final class NamespaceRows {

  /** More distinct patterns than this start the memory afresh. */
  private static final int MAX_REGEXES = 1024;

  private final Map<String, OriginalValueRegex> regexes = new ConcurrentHashMap<>();

  /**
   * Maps a row; NULL prefix and suffix (left by the .NET service) read as "", NULL description and
   * regex as none. Fails with {@code INTERNAL} for a method or mode this version does not know.
   */
  Namespace toNamespace(Row row) {
    String name = row.getString("name");
    GenerationMethod method =
        GenerationMethod.fromNumber(row.getInteger("pseudonym_generation_method"))
            .orElseThrow(() -> unknown(name, "generation method"));
    ParentValidationMode parentMode =
        ParentValidationMode.fromNumber(row.getInteger("parent_validation_mode"))
            .orElseThrow(() -> unknown(name, "parent validation mode"));
    return new Namespace(
        name,
        row.getString("description"),
        method,
        row.getLong("pseudonym_length"),
        Objects.requireNonNullElse(row.getString("pseudonym_prefix"), ""),
        Objects.requireNonNullElse(row.getString("pseudonym_suffix"), ""),
        regex(row.getString("original_value_validation_regex")),
        row.getBoolean("allows_multiple_pseudonyms"),
        row.getString("parent_name"),
        parentMode,
        alphabetFormat(name, method, row),
        row.getOffsetDateTime("created_at").toInstant(),
        row.getOffsetDateTime("last_updated_at").toInstant());
  }

  /**
   * The format in the row's columns from {@code vfps_namespace_formats}, null where it has none;
   * fails with {@code INTERNAL} for settings this version refuses, or an alphabet namespace without
   * them.
   */
  private static AlphabetFormat alphabetFormat(String name, GenerationMethod method, Row row) {
    String alphabet = row.getString("alphabet");
    if (alphabet == null) {
      if (method == GenerationMethod.X_SECURE_RANDOM_ALPHABET) {
        throw unknown(name, "pseudonym format");
      }
      return null;
    }
    CheckDigitKind checkDigit =
        CheckDigitKind.fromNumber(row.getInteger("check_digit"))
            .orElseThrow(() -> unknown(name, "check digit"));
    try {
      return AlphabetFormat.of(
          alphabet,
          checkDigit,
          row.getInteger("group_size"),
          row.getString("group_delimiter"),
          Math.toIntExact(row.getLong("pseudonym_length")));
    } catch (IllegalArgumentException | ArithmeticException refused) {
      throw unknown(name, "pseudonym format");
    }
  }

  private OriginalValueRegex regex(String text) {
    if (text == null || text.isEmpty()) {
      return OriginalValueRegex.stored(text);
    }
    OriginalValueRegex known = regexes.get(text);
    if (known != null) {
      return known;
    }
    if (regexes.size() >= MAX_REGEXES) {
      regexes.clear();
    }
    OriginalValueRegex compiled = OriginalValueRegex.stored(text);
    regexes.put(text, compiled);
    return compiled;
  }

  private static ServiceException unknown(String name, String what) {
    return new ServiceException(
        ErrorCode.INTERNAL,
        "The namespace has a " + what + " this version does not know.",
        Map.of("namespace", name));
  }
}
