package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vfps.csv.CsvRecord;

class ChunkWindowTest {

  private final List<Long> prepared = new ArrayList<>();
  private int reads;

  private ChunkWindow<String> window(int rows, int batchSize, int depth, long rowsBefore) {
    StringBuilder csv = new StringBuilder();
    for (int i = 0; i < rows; i++) {
      csv.append("value-").append(rowsBefore + i).append('\n');
    }
    Iterator<CsvRecord> records = TestJobs.records(csv.toString()).iterator();
    return new ChunkWindow<>(
        () -> records.hasNext() ? records.next() : null,
        batchSize,
        depth,
        rowsBefore,
        (chunk, firstRow) -> {
          prepared.add(firstRow);
          return "prepared " + firstRow + " with " + chunk.getFirst().fields().getFirst();
        },
        since -> reads++);
  }

  @Test
  void handsOutChunksInTheFileOrderEachPreparedForItsRows() throws IOException {
    ChunkWindow<String> window = window(7, 3, 2, 10);

    ChunkWindow.Chunk<String> first = window.next();
    ChunkWindow.Chunk<String> second = window.next();
    ChunkWindow.Chunk<String> third = window.next();

    assertThat(first.firstRow()).isEqualTo(10);
    assertThat(first.records())
        .extracting(r -> r.fields().getFirst())
        .containsExactly("value-10", "value-11", "value-12");
    assertThat(first.prepared()).isEqualTo("prepared 10 with value-10");
    assertThat(second.firstRow()).isEqualTo(13);
    assertThat(second.prepared()).isEqualTo("prepared 13 with value-13");
    assertThat(third.firstRow()).isEqualTo(16);
    assertThat(third.records()).extracting(r -> r.fields().getFirst()).containsExactly("value-16");
    assertThat(window.drained()).isTrue();
    assertThat(window.next()).isNull();
    assertThat(prepared).containsExactly(10L, 13L, 16L);
  }

  @Test
  void preparesNoMoreThanDepthChunksAhead() throws IOException {
    ChunkWindow<String> window = window(100, 1, 3, 0);

    window.next();
    assertThat(prepared).containsExactly(0L, 1L, 2L);

    window.next();
    assertThat(prepared).containsExactly(0L, 1L, 2L, 3L);
    assertThat(window.drained()).isFalse();
  }

  @Test
  void aWindowOfOnePreparesEachChunkOnlyWhenItIsHandedOut() throws IOException {
    ChunkWindow<String> window = window(5, 2, 1, 0);

    assertThat(window.next().firstRow()).isZero();
    assertThat(prepared).containsExactly(0L);
    assertThat(window.next().firstRow()).isEqualTo(2);
    assertThat(prepared).containsExactly(0L, 2L);
  }

  @Test
  void aFileOfWholeChunksEndsWithTheReadThatFindsNothing() throws IOException {
    ChunkWindow<String> window = window(4, 2, 1, 0);

    assertThat(window.next().records()).hasSize(2);
    assertThat(window.next().records()).hasSize(2);
    assertThat(window.drained()).isFalse();
    assertThat(window.next()).isNull();
    assertThat(window.drained()).isTrue();
    assertThat(prepared).containsExactly(0L, 2L);
    assertThat(reads).isEqualTo(3);
  }

  @Test
  void anEmptyRestOfTheFileYieldsNoChunk() throws IOException {
    ChunkWindow<String> window = window(0, 5, 3, 42);

    assertThat(window.next()).isNull();
    assertThat(window.drained()).isTrue();
    assertThat(prepared).isEmpty();
  }
}
