package org.vfps.server;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.LogCapture;

/** A failed start and a stop close what was opened, the last first, each part once. */
class TeardownTest {

  private final List<String> closed = new ArrayList<>();
  private final Teardown teardown = new Teardown();

  @RegisterExtension final LogCapture log = LogCapture.of(Teardown.class.getName());

  @Test
  void closesInTheReverseOrderOfOpening() {
    teardown.add("database", "database", closed::add);
    teardown.add("vertx", "vertx", closed::add);
    teardown.add("pool", "pool", closed::add);

    teardown.close();

    assertThat(closed).containsExactly("pool", "vertx", "database");
  }

  @Test
  void aPartThatFailsToCloseDoesNotKeepTheOthersOpen() {
    teardown.add("database", "database", closed::add);
    teardown.add(
        "vertx",
        "vertx",
        part -> {
          throw new IllegalStateException("stuck");
        });
    teardown.add("pool", "pool", closed::add);

    teardown.close();

    assertThat(closed).containsExactly("pool", "database");
    assertThat(log.atLeast(Level.WARN))
        .singleElement()
        .extracting(ILoggingEvent::getFormattedMessage)
        .isEqualTo("vertx did not close cleanly");
  }

  @Test
  void closesEachPartOnce() {
    teardown.add("database", "database", closed::add);

    teardown.close();
    teardown.close();

    assertThat(closed).containsExactly("database");
  }

  @Test
  void yieldsThePartItAdds() {
    assertThat(teardown.add("pool", "the pool", closed::add)).isEqualTo("the pool");
  }
}
