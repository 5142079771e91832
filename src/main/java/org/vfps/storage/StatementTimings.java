package org.vfps.storage;

import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Where storage reports how long its write statements took, in nanoseconds, so that meters can be
 * kept outside this package. Called on the event loop that ran the statement; the consumers must be
 * thread-safe and must not block.
 *
 * @param upsert each run of the single-pseudonym upsert, successful or not ({@code
 *     vfps_upsert_duration_seconds})
 * @param batchUpsert each multi-row upsert round trip ({@code vfps_batch_upsert_duration_seconds});
 *     nothing reports it until the write coalescer sends multi-row statements
 */
public record StatementTimings(LongConsumer upsert, LongConsumer batchUpsert) {

  /** Timings that go nowhere. */
  public static final StatementTimings NONE = new StatementTimings(nanos -> {}, nanos -> {});

  public StatementTimings {
    Objects.requireNonNull(upsert, "upsert");
    Objects.requireNonNull(batchUpsert, "batchUpsert");
  }
}
