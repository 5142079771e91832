package org.vfps.objectstore;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * An object store in memory, for unit tests: objects by key, multipart uploads by id with their
 * parts kept apart until completed, so that a test sees each part's size. Presigning is not
 * supported. Thread-safe.
 */
public final class InMemoryObjectStore implements ObjectStore {

  private final Map<String, byte[]> objects = new HashMap<>();
  private final Map<String, TreeMap<Integer, byte[]>> uploads = new HashMap<>();
  private final Map<String, List<Integer>> completedPartSizes = new HashMap<>();
  private int nextUpload;

  /** Stores an object, as a client's upload would. */
  public synchronized void put(String key, byte[] content) {
    objects.put(key, content.clone());
  }

  /** The object's content; null when there is none. */
  public synchronized byte[] content(String key) {
    byte[] content = objects.get(key);
    return content == null ? null : content.clone();
  }

  /** The sizes of the parts the object was completed from, part 1 first. */
  public synchronized List<Integer> partSizes(String key) {
    return List.copyOf(completedPartSizes.getOrDefault(key, List.of()));
  }

  /** Whether an upload is still open: started, neither completed nor aborted. */
  public synchronized boolean uploadOpen(String uploadId) {
    return uploads.containsKey(uploadId);
  }

  @Override
  public PresignedRequest presignUpload(String key, String contentType) {
    throw new UnsupportedOperationException("no presigning in memory");
  }

  @Override
  public PresignedRequest presignDownload(String key, String fileName, Duration expiry) {
    throw new UnsupportedOperationException("no presigning in memory");
  }

  @Override
  public synchronized OptionalLong size(String key) {
    byte[] content = objects.get(key);
    return content == null ? OptionalLong.empty() : OptionalLong.of(content.length);
  }

  @Override
  public synchronized InputStream read(String key, long offset) {
    byte[] content = objects.get(key);
    if (content == null) {
      throw new ObjectStoreException("no object " + key, false, null);
    }
    return new ByteArrayInputStream(content, (int) offset, content.length - (int) offset);
  }

  @Override
  public synchronized String startUpload(String key) {
    String uploadId = key + "#" + nextUpload++;
    uploads.put(uploadId, new TreeMap<>());
    return uploadId;
  }

  @Override
  public synchronized String uploadPart(
      String key, String uploadId, int partNumber, byte[] bytes, int length) {
    TreeMap<Integer, byte[]> parts = upload(uploadId);
    parts.put(partNumber, Arrays.copyOf(bytes, length));
    return "etag-" + partNumber;
  }

  @Override
  public synchronized void completeUpload(String key, String uploadId, List<String> partETags) {
    TreeMap<Integer, byte[]> parts = upload(uploadId);
    if (parts.size() != partETags.size()) {
      throw new ObjectStoreException(
          "upload " + uploadId + " has " + parts.size() + " parts, not " + partETags.size(),
          false,
          null);
    }
    ByteArrayOutputStream whole = new ByteArrayOutputStream();
    List<Integer> sizes = new ArrayList<>();
    parts
        .values()
        .forEach(
            part -> {
              whole.writeBytes(part);
              sizes.add(part.length);
            });
    objects.put(key, whole.toByteArray());
    completedPartSizes.put(key, sizes);
    uploads.remove(uploadId);
  }

  @Override
  public synchronized void abortUpload(String key, String uploadId) {
    uploads.remove(uploadId);
  }

  @Override
  public synchronized void delete(String key) {
    objects.remove(key);
  }

  @Override
  public String description() {
    return "in memory";
  }

  @Override
  public void close() {}

  private TreeMap<Integer, byte[]> upload(String uploadId) {
    TreeMap<Integer, byte[]> parts = uploads.get(uploadId);
    if (parts == null) {
      throw new ObjectStoreException("no upload " + uploadId, false, null);
    }
    return parts;
  }
}
