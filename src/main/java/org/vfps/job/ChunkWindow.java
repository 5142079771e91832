package org.vfps.job;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.vfps.csv.CsvRecord;

/**
 * The chunks of a file read ahead of the one being written: up to {@code depth} chunks of {@code
 * batchSize} rows each, every one prepared (its calls sent) as it is read, so that the database
 * works on the next chunks while one is written and checkpointed. Chunks come out in the file's
 * order. Not thread-safe: one worker thread uses it.
 *
 * @param <R> what preparing a chunk yields
 */
final class ChunkWindow<R> {

  /** The source of the rows: the next record, null at the end of the file. */
  @FunctionalInterface
  interface Records {
    CsvRecord next() throws IOException;
  }

  /** Prepares a chunk as it is read: sends its calls, for instance. */
  @FunctionalInterface
  interface Preparation<R> {
    /**
     * @param firstRow the rows of the file (the header row not counted) before the chunk's
     */
    R prepare(List<CsvRecord> records, long firstRow);
  }

  /**
   * Rows read, with what preparing them yielded.
   *
   * @param firstRow the rows of the file (the header row not counted) before this chunk's
   */
  record Chunk<R>(List<CsvRecord> records, long firstRow, R prepared) {}

  private final Records records;
  private final int batchSize;
  private final int depth;
  private final Preparation<R> preparation;
  private final ReadTime readTime;
  private final Deque<Chunk<R>> window = new ArrayDeque<>();
  private long rowsRead;
  private boolean end;

  /**
   * @param rowsBefore the rows (the header row not counted) the run processed before {@code
   *     records}' first
   * @param readTime where the time spent reading each chunk goes
   */
  ChunkWindow(
      Records records,
      int batchSize,
      int depth,
      long rowsBefore,
      Preparation<R> preparation,
      ReadTime readTime) {
    this.readTime = readTime;
    this.records = records;
    this.batchSize = batchSize;
    this.depth = depth;
    this.rowsRead = rowsBefore;
    this.preparation = preparation;
  }

  /**
   * Reads and prepares chunks until {@code depth} are under way or the file ends; returns the
   * oldest, null when no row is left.
   */
  Chunk<R> next() throws IOException {
    while (!end && window.size() < depth) {
      long reading = System.nanoTime();
      List<CsvRecord> read = new ArrayList<>(batchSize);
      CsvRecord record;
      while (read.size() < batchSize && (record = records.next()) != null) {
        read.add(record);
      }
      readTime.took(reading);
      end = read.size() < batchSize;
      if (!read.isEmpty()) {
        window.add(new Chunk<>(read, rowsRead, preparation.prepare(read, rowsRead)));
        rowsRead += read.size();
      }
    }
    return window.poll();
  }

  /** Whether every row was read and handed out. */
  boolean drained() {
    return end && window.isEmpty();
  }

  /** Where the time spent reading a chunk goes. */
  @FunctionalInterface
  interface ReadTime {
    /** A chunk was read since {@code since} ({@link System#nanoTime()}). */
    void took(long since);
  }
}
