package org.vfps.access;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.event.KeyValuePair;
import org.vfps.audit.AuditChain;
import org.vfps.config.LoggingConfig.AuditBatchReads;
import org.vfps.error.ServiceException;

/**
 * The audit trail: one line on the logger {@value #LOGGER} for every reverse lookup, every denied
 * call (no valid credentials, or a permission missing), every namespace create and delete, and
 * every change of grants, service accounts and access tokens. The message is {@code <operation>
 * <outcome>}; the fields are key-value pairs ({@code operation}, {@code outcome}, {@code subject},
 * {@code client}, {@code namespace}, {@code pseudonym} for a reverse lookup, {@code reason} for a
 * call without valid credentials, {@code unconfirmed} for a withdrawal that some replicas did not
 * confirm, {@code trace}), which the text format writes as {@code key="value"} and the JSON format
 * as {@code kvpList}. The outcome is {@code OK} or the error code. Never an original value. A call
 * that looks many pseudonyms up writes a line per pseudonym, or one line for the call by {@link
 * AuditBatchReads} ({@code Audit__BatchReads}). Every line goes through an {@link AuditChain},
 * which adds {@code chain}, {@code seq} and {@code hash} and signs checkpoints of them.
 * Thread-safe.
 */
public final class Audit {

  /** The logger's name. */
  public static final String LOGGER = AuditChain.LOGGER;

  /** The outcome of a call the service answered. */
  public static final String OK = "OK";

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private final Supplier<String> traceIds;
  private final AuditBatchReads batchReads;
  private final AuditChain chain;

  /**
   * An audit trail of a line per pseudonym of a batch of reverse lookups, on a chain of its own
   * without checkpoints.
   *
   * @param traceIds the current request's trace id, or an empty string; called on the request's
   *     context
   */
  public Audit(Supplier<String> traceIds) {
    this(traceIds, AuditBatchReads.PER_VALUE, AuditChain.unsigned());
  }

  /**
   * @param traceIds the current request's trace id, or an empty string; called on the request's
   *     context
   * @param batchReads the lines of a batch of reverse lookups
   * @param chain the chain of the process's audit lines
   */
  public Audit(Supplier<String> traceIds, AuditBatchReads batchReads, AuditChain chain) {
    this.traceIds = traceIds;
    this.batchReads = batchReads;
    this.chain = chain;
  }

  /**
   * The reverse lookups of one call: a line per pseudonym with its outcome, or one line for the
   * call ({@code batchReads}). The call's line has the outcome {@value #OK} when the call was
   * answered, else the failure's code (then every pseudonym's outcome), and counts the pseudonyms
   * ({@code count}) and their outcomes ({@code found}, {@code withdrawn}, {@code not_found}, {@code
   * invalid} for a value refused on its own, such as a mistyped pseudonym); with {@link
   * AuditBatchReads#PER_CALL_WITH_PSEUDONYMS} it also lists them in request order ({@code
   * pseudonyms}, comma-separated, a comma in a pseudonym escaped as <code>&#92;u002c</code>).
   *
   * @param outcomes each pseudonym's outcome, in the order of {@code pseudonyms}: {@value #OK},
   *     {@code WITHDRAWN}, {@code NOT_FOUND}, {@code INVALID_ARGUMENT}, or the failure's code for
   *     each when the call failed
   * @param failure the call's failure's code, null when it was answered
   */
  void lookups(
      Caller caller,
      Operation operation,
      String namespace,
      List<String> pseudonyms,
      List<String> outcomes,
      String failure) {
    if (batchReads == AuditBatchReads.PER_VALUE) {
      for (int i = 0; i < pseudonyms.size(); i++) {
        completed(caller, operation, namespace, pseudonyms.get(i), outcomes.get(i));
      }
      return;
    }
    Line line =
        line(
            operation,
            failure == null ? OK : failure,
            caller.subject(),
            caller.clientAddress(),
            namespace);
    line.add("count", pseudonyms.size());
    if (failure == null) {
      line.add("found", count(outcomes, OK))
          .add("withdrawn", count(outcomes, "WITHDRAWN"))
          .add("not_found", count(outcomes, "NOT_FOUND"))
          .add("invalid", count(outcomes, "INVALID_ARGUMENT"));
    }
    if (batchReads == AuditBatchReads.PER_CALL_WITH_PSEUDONYMS) {
      StringBuilder listed = new StringBuilder();
      for (String pseudonym : pseudonyms) {
        if (!listed.isEmpty()) {
          listed.append(',');
        }
        listed.append(safe(pseudonym).replace(",", "\\u002c"));
      }
      line.add("pseudonyms", listed.toString());
    }
    emit(line);
  }

  private static long count(List<String> outcomes, String outcome) {
    return outcomes.stream().filter(outcome::equals).count();
  }

  /** A call rejected because the caller lacks the permission. */
  void denied(Caller caller, Operation operation, String namespace) {
    emit(line(operation, "PERMISSION_DENIED", caller.subject(), caller.clientAddress(), namespace));
  }

  /**
   * A call rejected because it carried no valid credentials.
   *
   * @param reason what was wrong, in words of the service (never the credentials)
   */
  public void unauthenticated(Operation operation, String clientAddress, String reason) {
    emit(line(operation, "UNAUTHENTICATED", null, clientAddress, null).add("reason", safe(reason)));
  }

  /**
   * An audited call the service answered.
   *
   * @param pseudonym the pseudonym looked up, null for other operations
   * @param failure null when the call succeeded
   */
  void completed(
      Caller caller, Operation operation, String namespace, String pseudonym, Throwable failure) {
    completed(caller, operation, namespace, pseudonym, outcome(failure));
  }

  /**
   * An audited call the service answered, or one value of it (a reverse lookup of many).
   *
   * @param pseudonym the pseudonym looked up, null for other operations
   * @param outcome {@value #OK} or the error code
   */
  void completed(
      Caller caller, Operation operation, String namespace, String pseudonym, String outcome) {
    completed(caller, operation, namespace, pseudonym, outcome, Map.of());
  }

  /**
   * An audited call the service answered, or one value of it, with more fields after the usual
   * ones.
   */
  void completed(
      Caller caller,
      Operation operation,
      String namespace,
      String pseudonym,
      String outcome,
      Map<String, String> more) {
    Line line = line(operation, outcome, caller.subject(), caller.clientAddress(), namespace);
    if (pseudonym != null) {
      line.add("pseudonym", safe(pseudonym));
    }
    more.forEach((key, value) -> line.add(key, safe(value)));
    emit(line);
  }

  /**
   * An event of a CSV job: created, a download URL of its result issued, ended.
   *
   * @param outcome {@value #OK}, or the error code, or how the job ended
   * @param what the job's id, its direction and what the event adds, in that order; never a value
   *     of its files
   */
  void job(
      Caller caller,
      Operation operation,
      String namespace,
      String outcome,
      Map<String, String> what) {
    completed(caller, operation, namespace, null, outcome, what);
  }

  /**
   * A change of grants, service accounts or tokens, answered: who made it and what it changed
   * ({@code what}, in its order: ids, names, flags; never a secret).
   *
   * @param failure null when the change succeeded
   */
  void changed(Caller caller, Operation operation, Throwable failure, Map<String, String> what) {
    Line line = line(operation, outcome(failure), caller.subject(), caller.clientAddress(), null);
    what.forEach((key, value) -> line.add(key, safe(value)));
    emit(line);
  }

  /** {@value #OK} for no failure, else the failure's error code. */
  static String outcome(Throwable failure) {
    if (failure == null) {
      return OK;
    }
    return failure instanceof ServiceException service ? service.code().name() : "INTERNAL";
  }

  private static Line line(
      Operation operation, String outcome, String subject, String client, String namespace) {
    Line line =
        new Line(operation.rpcName() + " " + outcome)
            .add("operation", operation.rpcName())
            .add("outcome", outcome);
    if (subject != null) {
      line.add("subject", safe(subject));
    }
    line.add("client", safe(client));
    if (namespace != null) {
      line.add("namespace", safe(namespace));
    }
    return line;
  }

  private void emit(Line line) {
    String trace = traceIds.get();
    if (trace != null && !trace.isEmpty()) {
      line.add("trace", trace);
    }
    chain.write(line.message, line.fields);
  }

  /** An audit line being built: its message and its fields in order. */
  private static final class Line {

    private final String message;
    private final List<KeyValuePair> fields = new ArrayList<>(10);

    Line(String message) {
      this.message = message;
    }

    Line add(String key, Object value) {
      fields.add(new KeyValuePair(key, value));
      return this;
    }
  }

  /**
   * The value with backslashes and quotes escaped, and every character that is not shown as itself
   * written as its JSON-style escape (a backslash, {@code u} and four hex digits per UTF-16 unit):
   * the controls (C0, DEL, C1 with NEL), the line and paragraph separators, the invisible format
   * characters (the bidirectional overrides among them) and unpaired surrogates. So no value a
   * client chose (a namespace name, a subject, a pseudonym) can end the line for any log reader,
   * fake a field of the text format, or hide what it says. The one place the audit trail escapes,
   * for vfps's lines and the VOPRF server's alike.
   *
   * @return {@code ""} for null
   */
  public static String safe(String value) {
    if (value == null) {
      return "";
    }
    StringBuilder escaped = null;
    for (int i = 0; i < value.length(); ) {
      int codePoint = value.codePointAt(i);
      int next = i + Character.charCount(codePoint);
      if (shownAsItself(codePoint)) {
        if (escaped != null) {
          escaped.append(value, i, next);
        }
      } else {
        if (escaped == null) {
          escaped = new StringBuilder(value.length() + 16).append(value, 0, i);
        }
        for (int unit = i; unit < next; unit++) {
          escape(value.charAt(unit), escaped);
        }
      }
      i = next;
    }
    return escaped == null ? value : escaped.toString();
  }

  private static boolean shownAsItself(int codePoint) {
    if (codePoint >= 0x20 && codePoint < 0x7F) {
      return codePoint != '"' && codePoint != '\\';
    }
    return switch (Character.getType(codePoint)) {
      case Character.CONTROL,
          Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR,
          Character.FORMAT,
          Character.SURROGATE ->
          false;
      default -> true;
    };
  }

  private static void escape(char c, StringBuilder escaped) {
    if (c == '"' || c == '\\') {
      escaped.append('\\').append(c);
    } else {
      escaped
          .append("\\u")
          .append(HEX[c >> 12 & 0xF])
          .append(HEX[c >> 8 & 0xF])
          .append(HEX[c >> 4 & 0xF])
          .append(HEX[c & 0xF]);
    }
  }
}
