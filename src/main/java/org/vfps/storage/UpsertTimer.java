package org.vfps.storage;

/** Receives the duration of every upsert statement, for the upsert metrics. Thread-safe. */
public interface UpsertTimer {

  /** Times nothing. */
  UpsertTimer NONE =
      new UpsertTimer() {
        @Override
        public void single(long nanos) {}

        @Override
        public void batch(long nanos, int rows) {}
      };

  /** One run of the single-row upsert statement took {@code nanos}. */
  void single(long nanos);

  /** One multi-row upsert statement for {@code rows} distinct pairs took {@code nanos}. */
  void batch(long nanos, int rows);
}
