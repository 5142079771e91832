package org.vfps.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.vfps.TestPostgres;
import org.vfps.config.ConnectionSettings;

/** Databases as the .NET vfps leaves them, for the tests of adopting and handing back. */
final class DotnetDatabases {

  /** The schema and rows of the .NET vfps 1.22.3 (a test resource written from its reference). */
  static final String VERSION_1_22 = "/dotnet/vfps-1.22.3.sql";

  private DotnetDatabases() {}

  /** Fills the empty database as the .NET vfps 1.22.3 leaves it, rows of every kind included. */
  static void load122(ConnectionSettings database) {
    try (InputStream in = DotnetDatabases.class.getResourceAsStream(VERSION_1_22)) {
      TestPostgres.execute(database, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
