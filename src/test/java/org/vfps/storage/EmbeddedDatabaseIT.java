package org.vfps.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vfps.config.ConfigLoader;
import org.vfps.config.ConnectionSettings;

/** The embedded PostgreSQL flushes every commit to disk unless told not to. */
class EmbeddedDatabaseIT {

  @Test
  void isDurableByDefault(@TempDir Path dir) {
    assertThat(ConfigLoader.load(Map.of()).database().embeddedDurable()).isTrue();
    try (EmbeddedDatabase database = EmbeddedDatabase.start(dir.resolve("postgres"), true)) {
      assertThat(setting(database.connection(), "fsync")).isEqualTo("on");
      assertThat(setting(database.connection(), "synchronous_commit")).isEqualTo("on");
    }
  }

  @Test
  void durabilityCanBeTradedForSpeed(@TempDir Path dir) {
    try (EmbeddedDatabase database = EmbeddedDatabase.start(dir.resolve("postgres"), false)) {
      assertThat(setting(database.connection(), "fsync")).isEqualTo("off");
      assertThat(setting(database.connection(), "synchronous_commit")).isEqualTo("off");
    }
  }

  private static String setting(ConnectionSettings database, String name) {
    try (Connection connection =
            DriverManager.getConnection(
                "jdbc:postgresql://"
                    + database.host()
                    + ":"
                    + database.port()
                    + "/"
                    + database.database(),
                database.user(),
                database.password());
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SHOW " + name)) {
      result.next();
      return result.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
