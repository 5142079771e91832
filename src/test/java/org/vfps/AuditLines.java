package org.vfps;

import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** The fields of captured audit lines, as the tests of what a line says compare them. */
public final class AuditLines {

  /** The fields every line gets from its chain, which AuditVerifyTest checks. */
  public static final Set<String> CHAIN_FIELDS = Set.of("chain", "seq", "hash");

  private AuditLines() {}

  /** Each line's own fields, by name, without those of its chain. */
  public static List<Map<String, String>> fields(List<ILoggingEvent> lines) {
    return List.copyOf(lines).stream().map(AuditLines::fields).toList();
  }

  /** The line's own fields, by name, without those of its chain. */
  public static Map<String, String> fields(ILoggingEvent line) {
    return line.getKeyValuePairs().stream()
        .filter(kvp -> !CHAIN_FIELDS.contains(kvp.key))
        .collect(Collectors.toMap(kvp -> kvp.key, kvp -> String.valueOf(kvp.value), (a, b) -> a));
  }
}
