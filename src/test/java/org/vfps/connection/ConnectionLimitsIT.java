package org.vfps.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.vfps.ClassResources;
import org.vfps.GrpcTestClient;
import org.vfps.TcpProxy;
import org.vfps.TestPostgres;
import org.vfps.TestService;
import org.vfps.api.v1.NamespaceServiceGetRequest;
import org.vfps.api.v1.NamespaceServiceGrpcClient;
import org.vfps.server.VfpsServer;

/**
 * Connections that send nothing, send their headers too slowly, go quiet after a request or lose
 * their peer are closed by the listeners, within a second of their limit.
 */
class ConnectionLimitsIT {

  @RegisterExtension static final ClassResources resources = new ClassResources();

  /** Far more than any limit here: a connection still open by then was never closed. */
  private static final int READ_PATIENCE_MILLIS = 20_000;

  private static VfpsServer server;

  @BeforeAll
  static void start() {
    server =
        resources.own(
            TestService.start(
                Map.of(
                    "ConnectionStrings__PostgreSQL", TestPostgres.uri(),
                    "Http__RequestHeadersTimeout", "00:00:01",
                    "Http__IdleTimeout", "00:00:02",
                    "Grpc__RequestHeadersTimeout", "00:00:01",
                    "Grpc__MaxConnectionIdle", "00:00:02",
                    // a connection that sends nothing is closed after a ping time and
                    // a ping timeout
                    "Grpc__KeepAliveTime", "00:00:01",
                    "Grpc__KeepAliveTimeout", "00:00:01")));
  }

  @Test
  void anHttpConnectionThatSendsNothingIsClosed() throws IOException {
    try (Socket socket = connect(server.httpPort())) {
      assertClosedByTheServer(socket);
    }
  }

  @Test
  void anHttpConnectionThatSendsItsHeadersTooSlowlyIsClosed() throws IOException {
    try (Socket socket = connect(server.httpPort())) {
      OutputStream out = socket.getOutputStream();
      out.write("GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
      // one header byte every 200 ms: each byte is traffic, but the head never completes
      boolean closed = false;
      for (int i = 0; i < 200 && !closed; i++) {
        try {
          out.write('X');
          out.flush();
        } catch (IOException e) {
          closed = true;
        }
        LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
      }
      assertThat(closed).as("the server closed the slow connection").isTrue();
    }
  }

  @Test
  void anHttpConnectionIsClosedWhenQuietAfterARequestButNotWhileItSendsRequests()
      throws IOException {
    try (Socket socket = connect(server.httpPort())) {
      // requests every 300 ms for 3 s: longer than the idle timeout, never idle that long
      for (int i = 0; i < 10; i++) {
        assertThat(get(socket, "/livez")).startsWith("HTTP/1.1 200");
        LockSupport.parkNanos(Duration.ofMillis(300).toNanos());
      }
      assertClosedByTheServer(socket);
    }
  }

  @Test
  void aGrpcConnectionThatSendsNothingIsClosed() throws IOException {
    try (Socket socket = connect(server.grpcPort())) {
      assertClosedByTheServer(socket);
    }
  }

  @Test
  void aQuietGrpcConnectionGetsAGoAwayAfterItsLastCall() {
    try (TcpProxy proxy = new TcpProxy("127.0.0.1", server.grpcPort());
        GrpcTestClient client = new GrpcTestClient(proxy.port())) {
      getNamespace(client);
      assertThat(proxy.targetConnections()).isEqualTo(1);

      await("the server closes the quiet connection")
          .atMost(Duration.ofSeconds(20))
          .until(proxy::targetConnections, open -> open == 0);
    }
  }

  @Test
  void aGrpcPeerThatStopsAnsweringPingsIsDisconnected() {
    try (VfpsServer pinging =
            TestService.start(
                Map.of(
                    "ConnectionStrings__PostgreSQL", TestPostgres.uri(),
                    "Grpc__MaxConnectionIdle", "00:00:00",
                    "Grpc__KeepAliveTime", "00:00:01",
                    "Grpc__KeepAliveTimeout", "00:00:01"));
        TcpProxy proxy = new TcpProxy("127.0.0.1", pinging.grpcPort());
        GrpcTestClient client = new GrpcTestClient(proxy.port())) {
      getNamespace(client);
      // pings are answered: the connection stays, though quiet for longer than the ping time
      LockSupport.parkNanos(Duration.ofSeconds(3).toNanos());
      assertThat(proxy.targetConnections()).isEqualTo(1);

      proxy.freeze();
      await("the server drops the connection whose peer does not answer its pings")
          .atMost(Duration.ofSeconds(20))
          .until(proxy::targetConnections, open -> open == 0);
    }
  }

  private static void getNamespace(GrpcTestClient client) {
    client.call(
        NamespaceServiceGrpcClient.Get,
        NamespaceServiceGetRequest.newBuilder().setName("none-" + UUID.randomUUID()).build());
  }

  private static Socket connect(int port) throws IOException {
    Socket socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(READ_PATIENCE_MILLIS);
    return socket;
  }

  /** Sends a GET on the kept-alive connection and reads the whole response (with a length). */
  private static String get(Socket socket, String path) throws IOException {
    socket
        .getOutputStream()
        .write(
            ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
    InputStream in = socket.getInputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("closed in the middle of a response");
      }
      head.append((char) b);
    }
    int length = 0;
    for (String line : head.toString().split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Integer.parseInt(line.substring("content-length:".length()).strip());
      }
    }
    in.readNBytes(length);
    return head.toString();
  }

  /** The server closes the connection: a read ends (or is reset) before the patience runs out. */
  private static void assertClosedByTheServer(Socket socket) {
    try {
      while (socket.getInputStream().read() >= 0) {
        // an HTTP/2 server may send its settings or a GOAWAY first
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the server kept the connection open", e);
    } catch (IOException e) {
      if (!String.valueOf(e.getMessage()).contains("reset")) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
