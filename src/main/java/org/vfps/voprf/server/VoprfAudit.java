package org.vfps.voprf.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.Audit;

/**
 * The audit line of each {@code BlindEvaluate} call, on vfps's audit logger ({@value #LOGGER}) at
 * INFO: message {@code BlindEvaluate <outcome>}, fields {@code operation}, {@code outcome} ({@code
 * OK} or the status), {@code subject} (certificate thumbprint, JWT subject or {@code anonymous};
 * empty when the call did not authenticate), {@code client} (address), {@code count} (elements
 * supplied) and {@code keyId}, the chosen ones escaped as vfps's ({@link Audit#safe}). Never an
 * element, never the key. Thread-safe.
 */
final class VoprfAudit {

  /** The logger's name, as vfps's audit trail. */
  static final String LOGGER = Audit.LOGGER;

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
        .addKeyValue("subject", Audit.safe(subject))
        .addKeyValue("client", Audit.safe(client))
        .addKeyValue("count", count)
        .addKeyValue("keyId", keyId)
        .log();
  }
}
