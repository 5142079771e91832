package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Row;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.seal.Sealer;
import org.vfps.seal.SealingException;
import org.vfps.seal.SealingKeyFile;

/**
 * What the {@code pseudonyms} table stores of an original value: the value itself in a plain
 * namespace; in a sealed one its blind index in {@code original_value} and the value sealed in
 * {@code x_sealed_original_value} ({@link Sealer}). The pieces of {@link PgPseudonymRepository}
 * look values up by the keys this gives and write the rows it describes, so that no plain value of
 * a sealed namespace reaches a statement. Thread-safe.
 */
final class StoredOriginals {

  /** The column of a sealed row's value. */
  static final String SEALED_COLUMN = "x_sealed_original_value";

  private final SealingKeyFile keyFile;
  private final SealingStates states;

  /**
   * @param keyFile the keys of sealed namespaces, or null when this replica has none ({@code
   *     Sealing__KeyFile} unset): a sealed namespace is then refused, {@code FAILED_PRECONDITION}
   */
  StoredOriginals(SealingKeyFile keyFile, SealingStates states) {
    this.keyFile = keyFile;
    this.states = states;
  }

  /** Whether this replica seals the namespaces it creates. */
  boolean sealsNewNamespaces() {
    return keyFile != null;
  }

  /** The key file, or null when this replica has none. */
  SealingKeyFile keyFile() {
    return keyFile;
  }

  SealingStates states() {
    return states;
  }

  /**
   * The keys to look original values up by, and the value each stands for.
   *
   * @param keys every key, in the order of the values: the value itself where the namespace may
   *     hold plain rows, its blind index where it may hold sealed ones, or both
   */
  record Lookup(String[] keys, Map<String, String> originalOfKey) {

    /** The original value a stored key stands for; the key itself when it is no blind index. */
    String original(String key) {
      return originalOfKey.getOrDefault(key, key);
    }

    /** The row as its pseudonym, with the original value the caller asked for. */
    Pseudonym withOriginal(Pseudonym stored) {
      if (stored.originalValue() == null || originalOfKey.isEmpty()) {
        return stored;
      }
      return new Pseudonym(
          stored.namespace(),
          original(stored.originalValue()),
          stored.pseudonymValue(),
          stored.createdAt(),
          stored.lastUpdatedAt(),
          stored.sequenceNumber(),
          stored.withdrawn());
    }

    /** The found rows by the original values the caller asked for. */
    Map<String, Pseudonym> byOriginal(Map<String, Pseudonym> byKey) {
      if (originalOfKey.isEmpty()) {
        return byKey;
      }
      Map<String, Pseudonym> found = HashMap.newHashMap(byKey.size());
      byKey.forEach((key, pseudonym) -> found.put(original(key), withOriginal(pseudonym)));
      return Map.copyOf(found);
    }
  }

  /**
   * How a new row of the value is written: its key, its sealed value (null for a plain row), and,
   * while the namespace holds rows of both forms, the key of the other form, which the write must
   * find absent.
   */
  record Write(String key, Buffer sealed, String otherKey, SealingForm form) {}

  /** The keys to look the distinct {@code originals} up by in the namespace. */
  Future<Lookup> lookup(String namespace, List<String> originals) {
    return states
        .form(namespace, null)
        .compose(
            form -> {
              if (form == SealingForm.PLAIN && keyFile == null) {
                return Future.succeededFuture(
                    new Lookup(originals.toArray(String[]::new), Map.of()));
              }
              requireKeys(namespace, form);
              Sealer sealer = keyFile.sealer();
              // a namespace created sealed on another replica since the view was read is not in
              // it yet: with keys, a namespace it thinks plain is looked up in both forms
              boolean plain = form.readsPlain;
              boolean sealed = form.readsSealed || form == SealingForm.PLAIN;
              List<String> keys = new ArrayList<>(originals.size() * 2);
              Map<String, String> originalOfKey = HashMap.newHashMap(originals.size());
              for (String original : originals) {
                if (plain) {
                  keys.add(original);
                }
                if (sealed) {
                  String index = sealer.blindIndex(namespace, original);
                  keys.add(index);
                  originalOfKey.put(index, original);
                }
              }
              return Future.succeededFuture(
                  new Lookup(keys.toArray(String[]::new), Map.copyOf(originalOfKey)));
            });
  }

  /** How a new row of the value is written in the namespace created at {@code createdAt}. */
  Future<Write> write(String namespace, Instant createdAt, String original) {
    return states
        .form(namespace, createdAt)
        .compose(form -> Future.succeededFuture(write(namespace, original, form)));
  }

  /** How a new row of the value is written in a namespace of that form. */
  Write write(String namespace, String original, SealingForm form) {
    if (form == SealingForm.PLAIN) {
      return new Write(original, null, null, form);
    }
    requireKeys(namespace, form);
    Sealer sealer = keyFile.sealer();
    String index = sealer.blindIndex(namespace, original);
    if (!form.writesSealed) {
      return new Write(original, null, index, form);
    }
    Buffer sealed = Buffer.buffer(sealer.seal(namespace, index, original));
    return new Write(index, sealed, form.readsPlain ? original : null, form);
  }

  /** The form of the namespace's rows as this replica sees it now (see {@link SealingStates}). */
  Future<SealingForm> form(String namespace, Instant createdAt) {
    return states.form(namespace, createdAt);
  }

  /**
   * The original value of a stored row: its {@code original_value}, or the value sealed in {@value
   * #SEALED_COLUMN} when it has one.
   */
  String original(String namespace, Row row) {
    String stored = row.getString("original_value");
    Buffer sealed = row.getBuffer(SEALED_COLUMN);
    if (sealed == null) {
      return stored;
    }
    if (keyFile == null) {
      throw noKeys(namespace);
    }
    byte[] bytes = sealed.getBytes();
    try {
      return keyFile.sealer().open(namespace, stored, bytes);
    } catch (SealingException first) {
      // sealed under a data key version this replica has not read yet: the file may have been
      // rotated since
    }
    try {
      return keyFile.reload().open(namespace, stored, bytes);
    } catch (SealingException e) {
      throw new ServiceException(
          ErrorCode.UNAVAILABLE,
          "A sealed original value of namespace '"
              + namespace
              + "' cannot be opened: "
              + e.getMessage()
              + " (Sealing__KeyFile).",
          Map.of("namespace", namespace));
    }
  }

  private void requireKeys(String namespace, SealingForm form) {
    if (keyFile == null && form != SealingForm.PLAIN) {
      throw noKeys(namespace);
    }
    if (states.sealedWithOtherKey(namespace)) {
      throw new ServiceException(
          ErrorCode.FAILED_PRECONDITION,
          "Namespace '"
              + namespace
              + "' is sealed with another key file than this replica's Sealing__KeyFile.",
          Map.of("namespace", namespace));
    }
  }

  private static ServiceException noKeys(String namespace) {
    return new ServiceException(
        ErrorCode.FAILED_PRECONDITION,
        "Namespace '"
            + namespace
            + "' is sealed, and this replica has no key file to open it: set Sealing__KeyFile.",
        Map.of("namespace", namespace));
  }
}
