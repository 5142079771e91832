package org.vfps.config;

import java.util.Objects;
import org.vfps.error.ConstantNames;

/**
 * How the service writes its log to standard output ({@code Logging__*}), how many lines of the
 * audit trail a batch of reverse lookups takes ({@code Audit__BatchReads}), and the audit trail's
 * chain and checkpoints ({@code Audit__Checkpoint*}, {@code Audit__SigningKeyFile}).
 *
 * @param format lines for people, or one JSON object per line for log collectors ({@code Format})
 * @param clientErrors the level of the one line per request that the client's error ended ({@code
 *     ClientErrors})
 * @param auditBatchReads the audit lines of a call that looks many pseudonyms up
 * @param auditChain the audit trail's checkpoints and their signing key
 */
public record LoggingConfig(
    Format format,
    ClientErrors clientErrors,
    AuditBatchReads auditBatchReads,
    AuditChainConfig auditChain) {

  /** The log line formats. */
  public enum Format {
    /** Human-readable lines: time, level, thread, logger, message. */
    TEXT,
    /** One JSON object per line (logback's {@code JsonEncoder}). */
    JSON
  }

  /** The level of the line of a request refused for the client's error (a 4xx, a gRPC status). */
  public enum ClientErrors {
    /** Below the default level: seen only where a logging configuration asks for debug. */
    DEBUG,
    /** Seen in the default log. */
    INFO
  }

  /** The audit lines of a batch of reverse lookups (a BatchGet, a FHIR list, a CSV job's chunk). */
  public enum AuditBatchReads {
    /** One line per pseudonym with its outcome. */
    PER_VALUE,
    /** One line per call: its namespace, caller and counts; no pseudonym. */
    PER_CALL,
    /** One line per call, with its counts and the pseudonyms it looked up. */
    PER_CALL_WITH_PSEUDONYMS;

    private static final ConstantNames<AuditBatchReads> SETTING_VALUES =
        ConstantNames.pascalCase(values(), "");

    /** The value as the setting writes it, the constant's name in Pascal case: {@code PerCall}. */
    public String settingValue() {
      return SETTING_VALUES.of(this);
    }
  }

  /** The default of each setting but {@code format}. */
  public LoggingConfig(Format format) {
    this(format, ClientErrors.DEBUG, AuditBatchReads.PER_VALUE, AuditChainConfig.UNSIGNED);
  }

  public LoggingConfig {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(clientErrors, "clientErrors");
    Objects.requireNonNull(auditBatchReads, "auditBatchReads");
    Objects.requireNonNull(auditChain, "auditChain");
  }
}
