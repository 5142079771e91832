package org.vfps.voprf.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit line of each {@code BlindEvaluate} call, on vfps's audit logger ({@value #LOGGER}) at
 * INFO: message {@code BlindEvaluate <outcome>}, fields {@code operation}, {@code outcome} ({@code
 * OK} or the status), {@code subject} (certificate thumbprint, JWT subject or {@code anonymous};
 * empty when the call did not authenticate), {@code client} (address), {@code count} (elements
 * supplied) and {@code keyId}. Never an element, never the key. Thread-safe.
 */
final class VoprfAudit {

  /** The logger's name, as vfps's audit trail. */
  static final String LOGGER = "audit";

  private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

  private final String keyId;

  VoprfAudit(String keyId) {
    this.keyId = keyId;
  }

  void blindEvaluate(String subject, String client, int count, String outcome) {
    LOG.atInfo()
        .setMessage("BlindEvaluate " + outcome)
        .addKeyValue("operation", "BlindEvaluate")
        .addKeyValue("outcome", outcome)
        .addKeyValue("subject", printable(subject))
        .addKeyValue("client", printable(client))
        .addKeyValue("count", count)
        .addKeyValue("keyId", keyId)
        .log();
  }

  /** The text with quotes, backslashes and control characters replaced, so no value ends a line. */
  static String printable(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      out.append(
          c < 0x20 || c == 0x7F || c == '"' || c == '\\' || c == 0x2028 || c == 0x2029 ? '?' : c);
    }
    return out.toString();
  }
}
