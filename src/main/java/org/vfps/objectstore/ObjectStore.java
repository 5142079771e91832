package org.vfps.objectstore;

import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * The bucket of CSV jobs' files. Every method blocks: call them on a worker thread, never on an
 * event loop. Failures are {@link ObjectStoreException}s whose messages name the key, never an
 * object's content or a credential.
 */
public interface ObjectStore extends AutoCloseable {

  /**
   * A URL a client uploads the object to with {@code PUT}, valid for the configured expiry.
   *
   * @param contentType the {@code Content-Type} the upload must carry (it is signed)
   */
  PresignedRequest presignUpload(String key, String contentType);

  /**
   * A URL a client downloads the object from with {@code GET}, valid for {@code expiry} (at most 7
   * days); the download is offered under {@code fileName}.
   */
  PresignedRequest presignDownload(String key, String fileName, Duration expiry);

  /** The object's size in bytes; empty when there is no such object. */
  OptionalLong size(String key);

  /**
   * The object's bytes from {@code offset} to its end. A broken transfer is resumed where it broke
   * (a ranged GET, only if the object is unchanged), a few times, before the stream fails.
   */
  InputStream read(String key, long offset);

  /** Starts a multipart upload of {@code key}; returns its upload id. */
  String startUpload(String key);

  /**
   * Uploads part {@code partNumber} (1 to 10,000) of an upload: {@code length} bytes of {@code
   * bytes}; uploading a number again replaces that part. Returns the part's ETag.
   */
  String uploadPart(String key, String uploadId, int partNumber, byte[] bytes, int length);

  /** Completes an upload from its parts' ETags, part 1 first; the object then exists. */
  void completeUpload(String key, String uploadId, List<String> partETags);

  /** Aborts an upload and drops its parts; an unknown upload id is no error. */
  void abortUpload(String key, String uploadId);

  /** Deletes the object; a missing one is no error. */
  void delete(String key);

  /** Where the store is, for the start-up log line: never a credential. */
  String description();

  @Override
  void close();
}
