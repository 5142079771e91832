package org.vfps.audit;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the lines of the audit loggers out of a log in either of vfps's formats ({@code
 * Logging__Format}): text, {@code <time> <level> [<thread>] <logger> - <message> <key>="<value>"
 * ...}, and JSON, logback's one object per line with {@code timestamp}, {@code loggerName}, {@code
 * formattedMessage} and {@code kvpList}. Every other line (another logger's, a collector's own) is
 * none of its business. Stateless.
 */
final class LogLineParser {

  private static final Pattern TEXT =
      Pattern.compile(
          "^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z) +\\S+ +\\[[^\\]]*\\] +"
              + "(audit|audit\\.checkpoint) - (.*)$");
  private static final Pattern FIELD_START = Pattern.compile(" ([A-Za-z_][A-Za-z0-9_]*)=");

  private LogLineParser() {}

  /**
   * The audit line or checkpoint of a log line, or null when it is neither.
   *
   * @param where {@code file:line}, for the result
   * @throws IllegalArgumentException when the line is of an audit logger but its fields cannot be
   *     read
   */
  static LoggedLine parse(String where, String line) {
    String trimmed = line.strip();
    if (trimmed.startsWith("{")) {
      return json(where, trimmed);
    }
    Matcher text = TEXT.matcher(line);
    if (!text.matches()) {
      return null;
    }
    long timestamp;
    try {
      timestamp = Instant.parse(text.group(1)).toEpochMilli();
    } catch (DateTimeParseException e) {
      return null;
    }
    String rest = text.group(3);
    Matcher start = FIELD_START.matcher(rest);
    if (!start.find()) {
      return new LoggedLine(where, text.group(2), timestamp, rest, List.of());
    }
    return new LoggedLine(
        where,
        text.group(2),
        timestamp,
        rest.substring(0, start.start()),
        textFields(rest.substring(start.start())));
  }

  /** The fields of {@code %kvp}: {@code key="value"} or {@code key=value}, a space before each. */
  private static List<Field> textFields(String text) {
    List<Field> fields = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      if (text.charAt(i) != ' ') {
        throw new IllegalArgumentException("a field does not start with a space");
      }
      int equals = text.indexOf('=', i);
      if (equals < 0) {
        throw new IllegalArgumentException("a field has no '='");
      }
      String key = text.substring(i + 1, equals);
      int valueStart = equals + 1;
      int valueEnd;
      String value;
      if (valueStart < text.length() && text.charAt(valueStart) == '"') {
        // the values are written as they are; a quote or backslash within one comes escaped
        int j = valueStart + 1;
        while (j < text.length() && text.charAt(j) != '"') {
          j += text.charAt(j) == '\\' ? 2 : 1;
        }
        if (j >= text.length()) {
          throw new IllegalArgumentException("the value of " + key + " has no closing quote");
        }
        value = text.substring(valueStart + 1, j);
        valueEnd = j + 1;
      } else {
        int space = text.indexOf(' ', valueStart);
        valueEnd = space < 0 ? text.length() : space;
        value = text.substring(valueStart, valueEnd);
      }
      fields.add(new Field(key, value));
      i = valueEnd;
    }
    return fields;
  }

  private static LoggedLine json(String where, String line) {
    JsonObject object;
    try {
      object = new JsonObject(line);
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
    String logger = object.getValue("loggerName") instanceof String name ? name : null;
    if (!AuditChain.LOGGER.equals(logger) && !AuditChain.CHECKPOINT_LOGGER.equals(logger)) {
      return null;
    }
    if (!(object.getValue("timestamp") instanceof Number timestamp)) {
      throw new IllegalArgumentException("the line has no numeric timestamp");
    }
    String message = object.getValue("formattedMessage") instanceof String text ? text : "";
    List<Field> fields = new ArrayList<>();
    if (object.getValue("kvpList") instanceof JsonArray pairs) {
      for (Object pair : pairs) {
        if (!(pair instanceof JsonObject entry)) {
          throw new IllegalArgumentException("kvpList holds something other than objects");
        }
        for (Map.Entry<String, Object> field : entry) {
          fields.add(new Field(field.getKey(), String.valueOf(field.getValue())));
        }
      }
    }
    return new LoggedLine(where, logger, timestamp.longValue(), message, fields);
  }
}
