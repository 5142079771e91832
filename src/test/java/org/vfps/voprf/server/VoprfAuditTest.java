package org.vfps.voprf.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.LogCapture;
import org.vfps.audit.AuditChain;

/** The VOPRF server's audit line escapes what its callers chose as vfps's audit trail does. */
class VoprfAuditTest {

  @RegisterExtension final LogCapture log = LogCapture.of(VoprfAudit.LOGGER);

  @Test
  void aSubjectOrClientCannotEndTheLine() {
    new VoprfAudit("key-1", AuditChain.unsigned())
        .blindEvaluate("sub\u0085ject\u2028\"x", "10.0.0.1\r\n", 2, "OK");

    ILoggingEvent line = log.atLeast(Level.INFO).getFirst();
    Map<String, String> fields = new HashMap<>();
    line.getKeyValuePairs().forEach(pair -> fields.put(pair.key, String.valueOf(pair.value)));
    assertThat(fields)
        .containsEntry("subject", "sub\\u0085ject\\u2028\\\"x")
        .containsEntry("client", "10.0.0.1\\u000d\\u000a")
        .containsEntry("seq", "1")
        .containsKeys("chain", "hash");
  }
}
