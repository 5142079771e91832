package org.vfps.voprf.server;

import java.util.List;
import org.slf4j.event.KeyValuePair;
import org.vfps.access.Audit;
import org.vfps.audit.AuditChain;

/**
 * The audit line of each {@code BlindEvaluate} call, on vfps's audit logger ({@value #LOGGER}) at
 * INFO: message {@code BlindEvaluate <outcome>}, fields {@code operation}, {@code outcome} ({@code
 * OK} or the status), {@code subject} (certificate thumbprint, JWT subject or {@code anonymous};
 * empty when the call did not authenticate), {@code client} (address), {@code count} (elements
 * supplied) and {@code keyId}, the chosen ones escaped as vfps's ({@link Audit#safe}). Never an
 * element, never the key. The lines go through the server's {@link AuditChain}, as vfps's do
 * through vfps's: chained, and covered by checkpoints when a signing key is set. Thread-safe.
 */
final class VoprfAudit {

  /** The logger's name, as vfps's audit trail. */
  static final String LOGGER = Audit.LOGGER;

  private final String keyId;
  private final AuditChain chain;

  VoprfAudit(String keyId, AuditChain chain) {
    this.keyId = keyId;
    this.chain = chain;
  }

  void blindEvaluate(String subject, String client, int count, String outcome) {
    chain.write(
        "BlindEvaluate " + outcome,
        List.of(
            new KeyValuePair("operation", "BlindEvaluate"),
            new KeyValuePair("outcome", outcome),
            new KeyValuePair("subject", Audit.safe(subject)),
            new KeyValuePair("client", Audit.safe(client)),
            new KeyValuePair("count", count),
            new KeyValuePair("keyId", keyId)));
  }
}
