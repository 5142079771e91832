package org.vfps.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.vfps.config.ConfigLoader;
import org.vfps.config.ConnectionSettings;

/**
 * The training run's database is reached as production databases are: its connection string has the
 * default SSL mode, the server speaks TLS, and it asks for the password.
 */
class TrainingDatabaseIT {

  @Test
  void speaksTlsAndAsksForThePassword(@TempDir Path scratch) throws Exception {
    try (TrainingDatabase database = TrainingDatabase.start(scratch)) {
      ConnectionSettings settings =
          ConfigLoader.load(Map.of("ConnectionStrings__PostgreSQL", database.connectionString()))
              .database()
              .connection()
              .orElseThrow();
      assertThat(settings.sslMode()).isEqualTo(ConnectionSettings.SslMode.PREFER);

      try (Connection connection = connect(settings, settings.password());
          Statement statement = connection.createStatement();
          ResultSet result =
              statement.executeQuery(
                  "SELECT ssl, current_user FROM pg_stat_ssl WHERE pid = pg_backend_pid()")) {
        assertThat(result.next()).isTrue();
        assertThat(result.getBoolean("ssl")).isTrue();
        assertThat(result.getString("current_user")).isEqualTo(settings.user());
      }
      assertThatThrownBy(() -> connect(settings, "wrong").close())
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("password authentication failed");
    }
  }

  private static Connection connect(ConnectionSettings settings, String password)
      throws SQLException {
    Properties properties = new Properties();
    properties.put("user", settings.user());
    properties.put("password", password);
    properties.put("sslmode", "prefer");
    return DriverManager.getConnection(
        "jdbc:postgresql://" + settings.host() + ":" + settings.port() + "/" + settings.database(),
        properties);
  }
}
