package org.vfps.audit;

import java.util.List;

/**
 * A line of the audit trail or a checkpoint as a log file holds it.
 *
 * @param where the file and the line's number in it, {@code file:line}
 * @param logger {@value AuditChain#LOGGER} or {@value AuditChain#CHECKPOINT_LOGGER}
 * @param timestamp epoch milliseconds
 * @param fields in the line's order; unmodifiable
 */
record LoggedLine(String where, String logger, long timestamp, String message, List<Field> fields) {

  LoggedLine {
    fields = List.copyOf(fields);
  }

  /** The value of the field, or null when the line has none. */
  String field(String key) {
    for (Field field : fields) {
      if (field.key().equals(key)) {
        return field.value();
      }
    }
    return null;
  }
}
