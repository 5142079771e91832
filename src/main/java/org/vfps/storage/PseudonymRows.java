package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.Namespace;
import org.vfps.pseudonym.AnonymizedOriginals;
import org.vfps.pseudonym.Pseudonym;

/**
 * Rows of the {@code pseudonyms} table as pseudonyms, the values its statements bind, and the
 * failures they end in, for the pieces of {@link PgPseudonymRepository}.
 */
final class PseudonymRows {

  /**
   * The bytes a pseudonym takes in a reply besides its texts: its two times, field names and
   * framing (about what REST's JSON takes; protobuf takes less, FHIR more).
   */
  static final int PSEUDONYM_OVERHEAD_BYTES = 128;

  private PseudonymRows() {}

  /** A stored row of sequence number 0 as a pseudonym. */
  static Pseudonym toPseudonym(
      String namespace, String originalValue, String pseudonymValue, Row row) {
    return toPseudonym(namespace, originalValue, pseudonymValue, row, 0);
  }

  /** A stored row as a pseudonym: withdrawn, without its original value, if it is anonymized. */
  static Pseudonym toPseudonym(
      String namespace, String originalValue, String pseudonymValue, Row row, long sequence) {
    boolean withdrawn = AnonymizedOriginals.is(originalValue);
    return new Pseudonym(
        namespace,
        withdrawn ? null : originalValue,
        pseudonymValue,
        row.getOffsetDateTime("created_at").toInstant(),
        row.getOffsetDateTime("last_updated_at").toInstant(),
        sequence,
        withdrawn);
  }

  /**
   * The namespace's time of creation as the database keeps it: with its name, it tells the
   * namespace the caller looked up from one created later under the same name.
   */
  static OffsetDateTime createdAt(Namespace namespace) {
    return OffsetDateTime.ofInstant(namespace.createdAt(), ZoneOffset.UTC);
  }

  /**
   * What one pseudonym found for a reply is counted in the call's reply bytes: its three texts and
   * {@value #PSEUDONYM_OVERHEAD_BYTES} bytes for its times and the reply's framing of it.
   */
  static long replyBytes(Pseudonym pseudonym) {
    return PSEUDONYM_OVERHEAD_BYTES
        + pseudonym.namespace().length()
        + pseudonym.pseudonymValue().length()
        + (pseudonym.originalValue() == null ? 0 : pseudonym.originalValue().length());
  }

  /** The failure of an upsert that did not come to a row, {@code INTERNAL}. */
  static ServiceException upsertFailed(String namespace, Throwable cause) {
    return new ServiceException(
        ErrorCode.INTERNAL,
        "Failed to upsert the pseudonym for namespace '" + namespace + "'.",
        metadata(namespace),
        cause);
  }

  /** A statement's failure, translated ({@link PgFailures#translate}). */
  static <T> Future<T> failed(Throwable failure, String namespace) {
    return Future.failedFuture(PgFailures.translate(failure, metadata(namespace)));
  }

  /** The metadata of a failure in the namespace. */
  static Map<String, String> metadata(String namespace) {
    return Map.of("namespace", namespace);
  }
}
