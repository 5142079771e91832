package org.vfps.access;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.vfps.LogCapture;

/** What the audit trail writes of values a client chose. */
class AuditTest {

  /** Every line break a log reader may split at: {@code \R} and the two Unicode separators. */
  private static final Pattern LINE_BREAK = Pattern.compile("\\R");

  @RegisterExtension final LogCapture log = LogCapture.of(Audit.LOGGER);

  private final Audit audit = new Audit(() -> "");

  @Test
  void valuesCannotEndALineOrFakeAField() {
    assertThat(Audit.safe("plain-name_1 ü 👷 中")).isEqualTo("plain-name_1 ü 👷 中");
    assertThat(Audit.safe("flag \uDB40\uDC01 tag")).isEqualTo("flag \\udb40\\udc01 tag");
    assertThat(Audit.safe("a\"b\\c\nd\u0000e\u2028"))
        .isEqualTo("a\\\"b\\\\c\\u000ad\\u0000e\\u2028");
  }

  /**
   * Each control character (C0, DEL, C1 with NEL), line or paragraph separator, invisible format
   * character (such as the bidirectional overrides) and unpaired surrogate, in each field a client
   * can choose: the line stays one line, in the text and in the JSON format, and shows the
   * character as its escape.
   */
  @Test
  void everyLineSeparatorAndControlCharacterIsEscapedInEveryField() {
    List<Character> characters = new ArrayList<>();
    IntStream.rangeClosed(0x00, 0x1F).forEach(c -> characters.add((char) c));
    IntStream.rangeClosed(0x7F, 0x9F).forEach(c -> characters.add((char) c));
    for (char c : new char[] {0x2028, 0x2029, 0x00AD, 0x200B, 0x200E, 0x202E, 0x2066, 0xFEFF}) {
      characters.add(c);
    }
    characters.add('\uD83D'); // a high surrogate without its low one
    characters.add('\uDC77'); // a low surrogate without its high one

    PatternLayout text = new PatternLayout();
    text.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
    text.setPattern("%msg%replace( %kvp){'^ $', ''}");
    text.start();
    JsonEncoder json = new JsonEncoder();
    json.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
    json.start();
    for (char c : characters) {
      String value = "a" + c + "b";
      String escape = "a\\u%04x".formatted((int) c);
      Caller caller = new Caller(value, Set.of(), value);

      audit.completed(caller, Operation.PSEUDONYM_GET, value, value, Audit.OK);
      audit.denied(caller, Operation.PSEUDONYM_LIST, value);
      audit.unauthenticated(Operation.PSEUDONYM_CREATE, value, value);
      audit.changed(caller, Operation.ACCESS_CREATE_GRANT, null, Map.of("grantee", value));

      List<ILoggingEvent> all = log.atLeast(Level.INFO);
      List<ILoggingEvent> lines = all.subList(all.size() - 4, all.size());
      for (ILoggingEvent line : lines) {
        String written = text.doLayout(line);
        String label = "U+%04X in %s".formatted((int) c, written);
        assertThat(LINE_BREAK.split(written, -1)).as(label).hasSize(1);
        assertThat(written).as(label).doesNotContain(String.valueOf(c)).contains(escape);
        String encoded = new String(json.encode(line), StandardCharsets.UTF_8);
        assertThat(encoded).endsWith("\n");
        String jsonLine = encoded.substring(0, encoded.length() - 1);
        assertThat(LINE_BREAK.split(jsonLine, -1)).as(label).hasSize(1);
        assertThat(jsonLine).as(label).doesNotContain(String.valueOf(c));
      }
    }
  }
}
