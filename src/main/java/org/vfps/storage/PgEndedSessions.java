package org.vfps.storage;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import org.vfps.access.EndedSessions;

/** The admin UI's signed-out sessions in the table {@code vfps_ended_ui_sessions}. Thread-safe. */
final class PgEndedSessions implements EndedSessions {

  private final Pool pool;

  PgEndedSessions(Pool pool) {
    this.pool = pool;
  }

  @Override
  public Future<Void> end(String id, Instant keptUntil, Instant now) {
    return pool.preparedQuery(SessionQueries.END)
        .execute(Tuple.of(id, utc(keptUntil), utc(now)))
        .<Void>mapEmpty()
        .recover(PgEndedSessions::failed);
  }

  @Override
  public Future<Boolean> ended(String id) {
    return pool.preparedQuery(SessionQueries.ENDED)
        .execute(Tuple.of(id))
        .map(rows -> rows.size() > 0)
        .recover(PgEndedSessions::failed);
  }

  private static OffsetDateTime utc(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  private static <T> Future<T> failed(Throwable failure) {
    return Future.failedFuture(PgFailures.translate(failure, Map.of()));
  }
}
