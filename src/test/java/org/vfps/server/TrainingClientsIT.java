package org.vfps.server;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.vfps.TestPostgres;
import org.vfps.TestService;

/** The calls of the AOT training run, against a service as the build's training starts it. */
class TrainingClientsIT {

  @Test
  void everyCallAnswersAsItShouldAndAnAnswerThatDoesNotFailsTheRun() {
    String database = TestPostgres.uri(TestPostgres.freshDatabase());
    try (VfpsServer server =
        TestService.start(
            Map.of(
                "ConnectionStrings__PostgreSQL",
                database,
                "ForceRunDatabaseMigrations",
                "true",
                "MetricsPort",
                Integer.toString(TestService.freePort())))) {
      assertThatCode(
              () -> TrainingClients.run(server.grpcPort(), server.httpPort(), server.metricsPort()))
          .doesNotThrowAnyException();

      // a second run finds its namespaces taken: the service answers otherwise than expected
      assertThatThrownBy(
              () -> TrainingClients.run(server.grpcPort(), server.httpPort(), server.metricsPort()))
          .hasMessageContaining("ALREADY_EXISTS");
    }
  }
}
