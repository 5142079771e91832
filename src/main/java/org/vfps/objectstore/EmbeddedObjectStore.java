package org.vfps.objectstore;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.gaul.s3proxy.CrossOriginResourceSharing;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.vfps.config.S3Config;

/**
 * The development store: s3proxy with its filesystem store in a local directory, on 127.0.0.1,
 * checking signatures with credentials made at random at each start. Started with the embedded
 * database when no bucket is configured, so that CSV jobs work on a fresh machine.
 */
public final class EmbeddedObjectStore implements AutoCloseable {

  /** The bucket the development store holds. */
  static final String BUCKET = "vfps";

  private static final SecureRandom RANDOM = new SecureRandom();

  private final S3Proxy proxy;
  private final Path dataDirectory;
  private final S3Config config;

  private EmbeddedObjectStore(S3Proxy proxy, Path dataDirectory, S3Config config) {
    this.proxy = proxy;
    this.dataDirectory = dataDirectory;
    this.config = config;
  }

  /**
   * Starts the store on 127.0.0.1.
   *
   * @param port 0 for any free one
   * @param allowedOrigins the origins that may upload and download from a browser (the admin UI's)
   * @param base the settings the store's own {@link #config()} keeps (the URL expiry)
   * @throws ObjectStoreException naming the key when it cannot start
   */
  public static EmbeddedObjectStore start(
      Path dataDirectory, int port, List<String> allowedOrigins, S3Config base) {
    Path directory = dataDirectory.toAbsolutePath().normalize();
    try {
      Files.createDirectories(directory);
    } catch (IOException e) {
      throw new ObjectStoreException(
          "S3__Embedded__DataDirectory: " + directory + " cannot be created: " + e.getMessage(),
          false,
          e);
    }
    String accessKey = "vfps-" + HexFormat.of().formatHex(bytes(8));
    String secretKey = HexFormat.of().formatHex(bytes(24));
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(new FilesystemNio2BlobStore(directory.toString()))
            .endpoint(URI.create("http://127.0.0.1:" + port))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, accessKey, secretKey)
            .corsRules(
                new CrossOriginResourceSharing(
                    List.copyOf(allowedOrigins),
                    List.of("GET", "PUT", "HEAD"),
                    List.of("*"),
                    List.of("ETag"),
                    "false"))
            .ignoreUnknownHeaders(true)
            .build();
    try {
      proxy.start();
      waitUntilStarted(proxy);
    } catch (Exception e) {
      stopQuietly(proxy);
      throw new ObjectStoreException(
          "S3__Embedded__Port: the embedded S3 store cannot listen on 127.0.0.1:"
              + port
              + " ("
              + e.getMessage()
              + ")",
          false,
          e);
    }
    S3Config config =
        new S3Config(
            true,
            Optional.of(URI.create("http://127.0.0.1:" + proxy.getPort())),
            accessKey,
            secretKey,
            BUCKET,
            "us-east-1",
            true,
            base.presignedUrlExpiry(),
            0,
            List.of(),
            directory,
            proxy.getPort());
    try {
      S3ObjectStore.connectCreatingBucket(config).close();
    } catch (RuntimeException e) {
      stopQuietly(proxy);
      throw e;
    }
    return new EmbeddedObjectStore(proxy, directory, config);
  }

  private static void waitUntilStarted(S3Proxy proxy) throws InterruptedException {
    for (int i = 0; i < 200 && !"STARTED".equals(proxy.getState()); i++) {
      Thread.sleep(25);
    }
    if (!"STARTED".equals(proxy.getState())) {
      throw new IllegalStateException("it did not start: " + proxy.getState());
    }
  }

  private static byte[] bytes(int count) {
    byte[] bytes = new byte[count];
    RANDOM.nextBytes(bytes);
    return bytes;
  }

  /** The settings that point {@link S3ObjectStore} at this store. */
  public S3Config config() {
    return config;
  }

  public int port() {
    return proxy.getPort();
  }

  public Path dataDirectory() {
    return dataDirectory;
  }

  @Override
  public void close() {
    stopQuietly(proxy);
  }

  private static void stopQuietly(S3Proxy proxy) {
    try {
      proxy.stop();
    } catch (Exception e) {
      // stopping a store that did not start, or twice
    }
  }
}
