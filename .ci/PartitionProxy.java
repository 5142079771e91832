import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A TCP relay that can be partitioned, for {@code .ci/ha-rehearsal.sh}: it forwards every
 * connection from {@code --listen} to {@code --upstream}, and while the file {@code --partition}
 * exists it forwards nothing, in either direction, and accepts no new connection.
 *
 * <p>That is what a network partition that drops packets looks like to both ends: connections stay
 * open, nothing is reset, writes pile up in the kernel's buffers, a new connection gets no answer,
 * and when the partition heals what was sent arrives late (TCP would retransmit it). A proxy that
 * closed or reset connections would show the clients a quick, clean failure instead, which is the
 * easy case.
 *
 * <pre>
 * java .ci/PartitionProxy.java --listen 25402 --upstream 25400 --partition /tmp/partition
 * </pre>
 *
 * Runs until killed; one virtual thread per direction of each connection.
 */
public final class PartitionProxy {

  private static final long POLL_MILLIS = 20;

  private final int upstreamPort;
  private final Path partition;

  private PartitionProxy(int upstreamPort, Path partition) {
    this.upstreamPort = upstreamPort;
    this.partition = partition;
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    int listen = 0;
    int upstream = 0;
    Path partition = null;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--listen" -> listen = Integer.parseInt(args[i + 1]);
        case "--upstream" -> upstream = Integer.parseInt(args[i + 1]);
        case "--partition" -> partition = Path.of(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (listen == 0 || upstream == 0 || partition == null) {
      throw new IllegalArgumentException("needs --listen, --upstream and --partition");
    }
    new PartitionProxy(upstream, partition).serve(listen);
  }

  private void serve(int port) throws IOException, InterruptedException {
    InetAddress loopback = InetAddress.getLoopbackAddress();
    try (ServerSocket server = new ServerSocket(port, 512, loopback)) {
      System.out.println("relaying 127.0.0.1:" + port + " to 127.0.0.1:" + upstreamPort);
      while (true) {
        awaitHealed();
        Socket client = server.accept();
        Thread.ofVirtual().start(() -> relay(client));
      }
    }
  }

  private void relay(Socket client) {
    Socket upstream = new Socket();
    try {
      awaitHealed();
      upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), upstreamPort), 2000);
      client.setTcpNoDelay(true);
      upstream.setTcpNoDelay(true);
      Thread back = Thread.ofVirtual().start(() -> pump(upstream, client));
      pump(client, upstream);
      back.join();
    } catch (IOException | InterruptedException e) {
      // the peer went away; both sockets are closed below
    } finally {
      closeQuietly(client);
      closeQuietly(upstream);
    }
  }

  /** Copies {@code from} to {@code to} until the end of the stream, holding data while cut off. */
  private void pump(Socket from, Socket to) {
    byte[] buffer = new byte[16 * 1024];
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      while (true) {
        awaitHealed();
        int read = in.read(buffer);
        // what was read just before the partition began, or the end of the stream, is held
        // until it heals, as the network would hold it
        awaitHealed();
        if (read < 0) {
          to.shutdownOutput();
          return;
        }
        out.write(buffer, 0, read);
      }
    } catch (IOException e) {
      try {
        awaitHealed();
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
      closeQuietly(from);
      closeQuietly(to);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void awaitHealed() throws InterruptedException {
    while (Files.exists(partition)) {
      Thread.sleep(POLL_MILLIS);
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }
}
