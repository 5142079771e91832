package org.vfps.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.vfps.objectstore.InMemoryObjectStore;
import org.vfps.objectstore.ObjectStoreException;

class MultipartOutputTest {

  private static final String KEY = "csv-jobs/test/output.csv";

  private final InMemoryObjectStore store = new InMemoryObjectStore();

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void holdsTheOutputUntilItFillsAPart() {
    MultipartOutput output = new MultipartOutput(store, KEY, store.startUpload(KEY), List.of(), 10);

    output.append(bytes("abcd"));
    assertThat(output.partDue()).isFalse();
    assertThat(output.heldBytes()).isEqualTo(4);

    output.append(bytes("efghijk"));
    assertThat(output.partDue()).isTrue();
    output.uploadPart();

    assertThat(output.heldBytes()).isZero();
    assertThat(output.partETags()).containsExactly("etag-1");
    assertThat(output.isEmpty()).isFalse();
  }

  @Test
  void everyPartButTheLastHoldsAtLeastAPartsBytes() {
    MultipartOutput output = new MultipartOutput(store, KEY, store.startUpload(KEY), List.of(), 10);
    StringBuilder written = new StringBuilder();
    for (String chunk : List.of("0123", "4567", "89ab", "cdefghijklmn", "op")) {
      output.append(bytes(chunk));
      written.append(chunk);
      if (output.partDue()) {
        output.uploadPart();
      }
    }

    output.complete();

    assertThat(store.partSizes(KEY)).containsExactly(12, 12, 2);
    assertThat(new String(store.content(KEY), StandardCharsets.UTF_8))
        .isEqualTo(written.toString());
  }

  @Test
  void anEmptyOutputCompletesAsOneEmptyPart() {
    MultipartOutput output = new MultipartOutput(store, KEY, store.startUpload(KEY), List.of(), 10);
    assertThat(output.isEmpty()).isTrue();

    output.complete();

    assertThat(store.partSizes(KEY)).containsExactly(0);
    assertThat(store.content(KEY)).isEmpty();
  }

  @Test
  void aResumedOutputNumbersItsPartsAfterTheUploadedOnes() {
    String uploadId = store.startUpload(KEY);
    store.uploadPart(KEY, uploadId, 1, bytes("first part"), 10);

    MultipartOutput output = new MultipartOutput(store, KEY, uploadId, List.of("etag-1"), 10);
    assertThat(output.isEmpty()).isFalse();
    output.append(bytes("rest"));
    output.complete();

    assertThat(output.partETags()).containsExactly("etag-1", "etag-2");
    assertThat(store.partSizes(KEY)).containsExactly(10, 4);
    assertThat(new String(store.content(KEY), StandardCharsets.UTF_8)).isEqualTo("first partrest");
  }

  @Test
  void growsBeyondItsFirstBufferWithoutLosingBytes() {
    MultipartOutput output =
        new MultipartOutput(store, KEY, store.startUpload(KEY), List.of(), 1 << 20);
    byte[] chunk = new byte[100 * 1024];
    for (int i = 0; i < chunk.length; i++) {
      chunk[i] = (byte) i;
    }

    output.append(chunk);
    output.append(chunk);
    output.complete();

    assertThat(store.partSizes(KEY)).containsExactly(200 * 1024);
    byte[] content = store.content(KEY);
    assertThat(content[100 * 1024 + 7]).isEqualTo(chunk[7]);
    assertThat(content[200 * 1024 - 1]).isEqualTo(chunk[chunk.length - 1]);
  }

  @Test
  void anUploadAnEarlierAttemptCompletedCountsAsCompletedWhileItsObjectExists() {
    String uploadId = store.startUpload(KEY);
    MultipartOutput earlier = new MultipartOutput(store, KEY, uploadId, List.of(), 10);
    earlier.append(bytes("done"));
    earlier.complete();

    MultipartOutput again = new MultipartOutput(store, KEY, uploadId, List.of("etag-1"), 10);
    assertThatCode(again::complete).doesNotThrowAnyException();
    assertThat(store.content(KEY)).isEqualTo(bytes("done"));

    store.delete(KEY);
    MultipartOutput unknown = new MultipartOutput(store, KEY, uploadId, List.of("etag-1"), 10);
    assertThatThrownBy(unknown::complete).isInstanceOf(ObjectStoreException.class);
  }

  @Test
  void abortDropsTheUpload() {
    String uploadId = store.startUpload(KEY);
    MultipartOutput output = new MultipartOutput(store, KEY, uploadId, List.of(), 10);
    output.append(bytes("0123456789"));
    output.uploadPart();

    output.abort();

    assertThat(store.uploadOpen(uploadId)).isFalse();
    assertThat(store.size(KEY)).isEmpty();
  }
}
