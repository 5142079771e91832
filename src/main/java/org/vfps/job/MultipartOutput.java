package org.vfps.job;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.vfps.objectstore.ObjectStore;
import org.vfps.objectstore.ObjectStoreException;

/**
 * A job's output on its way into the object store as one multipart upload: the output since the
 * last uploaded part is held here until it reaches {@code CsvProcessing__CheckpointBytes}, then it
 * becomes the next part. The held bytes grow by doubling up to about a part's size, so a job holds
 * little more than a part and a chunk. Not thread-safe: one worker thread uses it.
 */
final class MultipartOutput {

  private static final int INITIAL_BYTES = 64 * 1024;

  private final ObjectStore store;
  private final String key;
  private final String uploadId;
  private final List<String> partETags;
  private final int partBytes;
  private byte[] bytes = new byte[INITIAL_BYTES];
  private int size;

  /**
   * The output of an upload under way.
   *
   * @param partETags the parts uploaded so far, part 1 first
   * @param partBytes the bytes held before they become a part
   */
  MultipartOutput(
      ObjectStore store, String key, String uploadId, List<String> partETags, int partBytes) {
    this.store = store;
    this.key = key;
    this.uploadId = uploadId;
    this.partETags = new ArrayList<>(partETags);
    this.partBytes = partBytes;
  }

  /** Holds {@code chunk} after the output held so far. */
  void append(byte[] chunk) {
    if (size + chunk.length > bytes.length) {
      int doubled = (int) Math.min((long) bytes.length * 2, partBytes + (long) INITIAL_BYTES);
      bytes = Arrays.copyOf(bytes, Math.max(doubled, size + chunk.length));
    }
    System.arraycopy(chunk, 0, bytes, size, chunk.length);
    size += chunk.length;
  }

  /** Whether the held output fills a part. */
  boolean partDue() {
    return size >= partBytes;
  }

  /** Uploads the held output as the next part and holds nothing then. */
  void uploadPart() {
    partETags.add(store.uploadPart(key, uploadId, partETags.size() + 1, bytes, size));
    size = 0;
  }

  /** The bytes held, not yet in a part. */
  int heldBytes() {
    return size;
  }

  /** Whether nothing was written: no part uploaded, nothing held. */
  boolean isEmpty() {
    return partETags.isEmpty() && size == 0;
  }

  String uploadId() {
    return uploadId;
  }

  /** The parts' ETags, part 1 first; unmodifiable. */
  List<String> partETags() {
    return Collections.unmodifiableList(partETags);
  }

  /**
   * Uploads what is held as the last part (an empty output as one empty part) and completes the
   * upload: the object then exists. An upload an earlier attempt completed, without saying so,
   * counts as completed.
   *
   * @throws ObjectStoreException when the store fails
   */
  void complete() {
    if (size > 0 || partETags.isEmpty()) {
      uploadPart();
    }
    try {
      store.completeUpload(key, uploadId, partETags);
    } catch (ObjectStoreException e) {
      // completed by an earlier attempt that stopped before it could say so
      if (e.unavailable() || store.size(key).isEmpty()) {
        throw e;
      }
    }
  }

  /**
   * Aborts the upload and drops its parts.
   *
   * @throws ObjectStoreException when the store fails
   */
  void abort() {
    store.abortUpload(key, uploadId);
  }
}
