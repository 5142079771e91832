import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.vfps.config.S3Config;
import org.vfps.objectstore.EmbeddedObjectStore;

/**
 * An S3 server for the CSV job benchmark: the service's own development store (s3proxy with its
 * filesystem store, checking signatures) on 127.0.0.1, in DIRECTORY. Prints the S3__* settings
 * that point vfps at it, one per line, then serves until it is killed. Run from source against
 * the jar: java -cp target/vfps.jar loadtest/S3Server.java DIRECTORY PORT
 */
public class S3Server {

  public static void main(String[] args) throws InterruptedException {
    Path directory = Path.of(args[0]);
    S3Config base =
        new S3Config(
            false, Optional.empty(), "", "", "", "us-east-1", true, Duration.ofHours(1), 0,
            List.of(), directory, 0);
    EmbeddedObjectStore store =
        EmbeddedObjectStore.start(directory, Integer.parseInt(args[1]), List.of("*"), base);
    S3Config config = store.config();
    System.out.println("S3__IsEnabled=true");
    System.out.println("S3__ServiceUrl=" + config.serviceUrl().orElseThrow());
    System.out.println("S3__AccessKey=" + config.accessKey());
    System.out.println("S3__SecretKey=" + config.secretKey());
    System.out.println("S3__Bucket=" + config.bucket());
    System.out.println("S3__ObjectRetentionDays=0");
    System.out.flush();
    Thread.currentThread().join();
  }
}
