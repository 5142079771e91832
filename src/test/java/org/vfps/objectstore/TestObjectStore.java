package org.vfps.objectstore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.vfps.config.S3Config;

/**
 * One S3 server per test JVM: s3proxy with its filesystem store in a temporary directory, checking
 * signatures, started on first use and stopped when the JVM exits.
 */
public final class TestObjectStore {

  private static EmbeddedObjectStore store;
  private static S3ObjectStore client;

  private TestObjectStore() {}

  private static synchronized EmbeddedObjectStore store() {
    if (store == null) {
      Path directory;
      try {
        directory = Files.createTempDirectory("vfps-test-s3-server");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      S3Config base =
          new S3Config(
              false,
              Optional.empty(),
              "",
              "",
              "",
              "us-east-1",
              true,
              Duration.ofMinutes(15),
              0,
              List.of(),
              directory,
              0);
      store = EmbeddedObjectStore.start(directory, 0, List.of("*"), base);
      client = S3ObjectStore.connect(store.config());
      Path created = directory;
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    client.close();
                    store.close();
                    deleteRecursively(created);
                  }));
    }
    return store;
  }

  /** The {@code S3__*} settings that make a service use this store. */
  public static Map<String, String> environment() {
    S3Config config = store().config();
    return Map.of(
        "S3__IsEnabled", "true",
        "S3__ServiceUrl", config.serviceUrl().orElseThrow().toString(),
        "S3__AccessKey", config.accessKey(),
        "S3__SecretKey", config.secretKey(),
        "S3__Bucket", config.bucket(),
        "S3__Region", config.region(),
        "S3__ForcePathStyle", "true",
        "S3__ObjectRetentionDays", "0");
  }

  /** A client of the store, for tests to put and inspect objects; shared, do not close it. */
  public static synchronized S3ObjectStore client() {
    store();
    return client;
  }

  private static void deleteRecursively(Path directory) {
    try (var paths = Files.walk(directory)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // a temporary directory the machine cleans up anyway
    }
  }

  /** The store's settings, for a test's own client. */
  public static S3Config config() {
    return store().config();
  }
}
