package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Row;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.seal.Sealer;
import org.vfps.seal.SealingException;
import org.vfps.seal.SealingKeyFile;
import org.vfps.storage.SealingStates.Sealing;

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
   *     hold plain rows, its blind index where it may hold sealed ones (under each index key it may
   *     be under), or several of these
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
      return stored.withOriginalValue(original(stored.originalValue()));
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
   * while the namespace holds rows of two forms or under two index keys, the key of the other,
   * which the write must find absent, with the index key check the namespace's row must hold (see
   * {@link PseudonymQueries#UPSERT_IN_TRANSITION}).
   */
  record Write(
      String key, Buffer sealed, String otherKey, byte[] indexKeyCheck, SealingForm form) {}

  /** The keys to look the distinct {@code originals} up by in the namespace. */
  Future<Lookup> lookup(String namespace, List<String> originals) {
    return states
        .sealing(namespace, null)
        .map(
            sealing -> {
              if (sealing.form() == SealingForm.PLAIN && keyFile == null) {
                return new Lookup(originals.toArray(String[]::new), Map.of());
              }
              Sealer sealer = sealer(namespace, sealing);
              // a namespace created sealed on another replica since the view was read is not in
              // it yet: with keys, a namespace it thinks plain is looked up in both forms
              boolean plain = sealing.form().readsPlain;
              List<Integer> indexes = new ArrayList<>(2);
              if (sealing.form() == SealingForm.PLAIN) {
                indexes.add(sealer.currentIndexVersion());
              } else {
                indexes.add(indexVersion(namespace, sealer, sealing.indexKeyCheck()));
                if (sealing.otherIndexKeyCheck() != null) {
                  indexes.add(indexVersion(namespace, sealer, sealing.otherIndexKeyCheck()));
                }
              }
              List<String> keys = new ArrayList<>(originals.size() * (indexes.size() + 1));
              Map<String, String> originalOfKey = HashMap.newHashMap(originals.size());
              for (String original : originals) {
                if (plain) {
                  keys.add(original);
                }
                for (int index : indexes) {
                  String blind = sealer.blindIndex(index, namespace, original);
                  keys.add(blind);
                  originalOfKey.put(blind, original);
                }
              }
              return new Lookup(keys.toArray(String[]::new), Map.copyOf(originalOfKey));
            });
  }

  /** How a new row of the value is written in the namespace created at {@code createdAt}. */
  Future<Write> write(String namespace, Instant createdAt, String original) {
    return states.sealing(namespace, createdAt).map(sealing -> write(namespace, original, sealing));
  }

  /** How a new row of the value is written in a namespace of that sealing. */
  Write write(String namespace, String original, Sealing sealing) {
    SealingForm form = sealing.form();
    if (form == SealingForm.PLAIN) {
      return new Write(original, null, null, null, form);
    }
    Sealer sealer = sealer(namespace, sealing);
    String blind =
        sealer.blindIndex(
            indexVersion(namespace, sealer, sealing.indexKeyCheck()), namespace, original);
    String other = null;
    if (sealing.otherIndexKeyCheck() != null) {
      other =
          sealer.blindIndex(
              indexVersion(namespace, sealer, sealing.otherIndexKeyCheck()), namespace, original);
    } else if (form.inTransition()) {
      other = form.writesSealed ? original : blind;
    }
    if (!form.writesSealed) {
      return new Write(original, null, other, sealing.indexKeyCheck(), form);
    }
    Buffer sealed = Buffer.buffer(sealer.seal(namespace, blind, original));
    return new Write(blind, sealed, other, sealing.indexKeyCheck(), form);
  }

  /** The namespace's sealing as this replica sees it now (see {@link SealingStates}). */
  Future<Sealing> sealing(String namespace, Instant createdAt) {
    return states.sealing(namespace, createdAt);
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

  /** The keys for a namespace that is not plain; refuses one this replica cannot serve. */
  private Sealer sealer(String namespace, Sealing sealing) {
    if (keyFile == null) {
      throw noKeys(namespace);
    }
    return keyFile.sealer();
  }

  /** The version of the index key of that check, which the key file must hold. */
  private static int indexVersion(String namespace, Sealer sealer, byte[] check) {
    OptionalInt version = sealer.indexVersionOf(check);
    if (version.isEmpty()) {
      throw sealedRefusal(
          namespace, " with another key file than this replica's Sealing__KeyFile.");
    }
    return version.getAsInt();
  }

  /**
   * Whether the namespace, as last seen, is sealed under an index key the key file does not hold
   * (or this replica has none).
   */
  boolean cannotServe(Sealing sealing) {
    if (sealing.form() == SealingForm.PLAIN) {
      return false;
    }
    if (keyFile == null) {
      return true;
    }
    Sealer sealer = keyFile.sealer();
    return sealer.indexVersionOf(sealing.indexKeyCheck()).isEmpty()
        || (sealing.otherIndexKeyCheck() != null
            && sealer.indexVersionOf(sealing.otherIndexKeyCheck()).isEmpty());
  }

  private static ServiceException noKeys(String namespace) {
    return sealedRefusal(
        namespace, ", and this replica has no key file to open it: set Sealing__KeyFile.");
  }

  /**
   * The refusal of a sealed namespace this replica cannot serve, {@code FAILED_PRECONDITION}: its
   * message is "Namespace '...' is sealed" followed by {@code why}.
   */
  private static ServiceException sealedRefusal(String namespace, String why) {
    return new ServiceException(
        ErrorCode.FAILED_PRECONDITION,
        "Namespace '" + namespace + "' is sealed" + why,
        Map.of("namespace", namespace));
  }
}
