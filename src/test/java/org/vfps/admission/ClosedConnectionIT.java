package org.vfps.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.vfps.GrpcTestClient;
import org.vfps.LogCapture;
import org.vfps.api.v1.PseudonymServiceGrpcClient;

/**
 * A client that closes its connection while its Create waits for the database: the Create is still
 * stored once the database lets it (it was sent), the call counts as cancelled, and the reply the
 * service can no longer send leaves no ERROR and no stack trace in the log.
 */
class ClosedConnectionIT {

  @RegisterExtension final LogCapture logs = LogCapture.of(Logger.ROOT_LOGGER_NAME);

  @Test
  void aCreateWhoseClientClosedItsConnectionLeavesNoErrorInTheLog() throws Exception {
    try (LockableService service = new LockableService(Map.of())) {
      service.lock();
      GrpcTestClient leaving = new GrpcTestClient(service.server.grpcPort());
      leaving.callAsync(PseudonymServiceGrpcClient.Create, service.create("left"));
      await("the Create waiting for the lock")
          .atMost(Duration.ofMinutes(1))
          .until(() -> service.lockWaiters() == 1);
      leaving.close();

      service.unlock();
      await("the Create stored").atMost(Duration.ofMinutes(1)).until(() -> service.stored() == 1);
      service.awaitGauge("vfps_admission_requests_in_flight", 0);
      await("its call ended")
          .atMost(Duration.ofMinutes(1))
          .until(() -> handled(service, "CANCELLED") + handled(service, "OK") == 1);

      assertThat(handled(service, "CANCELLED")).isEqualTo(1);
      List<ILoggingEvent> all = logs.atLeast(Level.TRACE);
      assertThat(all)
          .noneSatisfy(event -> assertThat(event.getLevel()).isEqualTo(Level.ERROR))
          .noneSatisfy(event -> assertThat(event.getThrowableProxy()).isNotNull());
    }
  }

  private static double handled(LockableService service, String code) {
    return service
        .scrape()
        .value(
            "grpc_server_handled_total",
            Map.of(
                "grpc_service",
                "vfps.api.v1.PseudonymService",
                "grpc_method",
                "Create",
                "grpc_code",
                code));
  }
}
