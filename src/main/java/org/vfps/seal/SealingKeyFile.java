package org.vfps.seal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A key file in use, read again when it changes, so that a replica takes a rotated file (a new data
 * key version) without a restart: {@link #sealer()} is always the newest good reading. A reading
 * that fails (the file half-written, its mode widened, malformed) keeps the keys read before, and
 * is logged once, naming the file, never a key. Thread-safe.
 */
public final class SealingKeyFile {

  private static final Logger LOG = LoggerFactory.getLogger(SealingKeyFile.class);

  private final Path path;
  private volatile Sealer sealer;
  private volatile FileTime modified;
  private volatile String lastProblem;
  private volatile long lastReadNanos = System.nanoTime();

  /** The least time between two readings that nothing but a failed opening asked for. */
  private static final long MIN_REREAD_NANOS = 1_000_000_000L;

  private SealingKeyFile(Path path, Sealer sealer, FileTime modified) {
    this.path = path;
    this.sealer = sealer;
    this.modified = modified;
  }

  /**
   * Reads the key file a first time.
   *
   * @throws SealingException when it cannot be used ({@link SealingKeys#read})
   */
  public static SealingKeyFile open(Path path) throws SealingException {
    Objects.requireNonNull(path, "path");
    FileTime modified = modifiedTime(path);
    return new SealingKeyFile(path, new Sealer(SealingKeys.read(path)), modified);
  }

  /** Fixed keys, read from no file: never read again (tests, commands that read the file once). */
  public static SealingKeyFile fixed(Sealer sealer) {
    return new SealingKeyFile(null, Objects.requireNonNull(sealer, "sealer"), null);
  }

  /** The keys as last read. */
  public Sealer sealer() {
    return sealer;
  }

  /** Reads the file again if it changed since the last reading; returns the sealer to use. */
  public Sealer reloadIfChanged() {
    if (path == null) {
      return sealer;
    }
    FileTime now = modifiedTime(path);
    if (now != null && !now.equals(modified)) {
      reload(now);
    }
    return sealer;
  }

  /** Reads the file again, changed or not (a value sealed under an unknown version was met). */
  public Sealer reload() {
    if (path == null || System.nanoTime() - lastReadNanos < MIN_REREAD_NANOS) {
      return sealer;
    }
    reload(modifiedTime(path));
    return sealer;
  }

  private synchronized void reload(FileTime now) {
    lastReadNanos = System.nanoTime();
    try {
      SealingKeys keys = SealingKeys.read(path);
      Sealer previous = sealer;
      if (!keys.versions().equals(previous.keys().versions())
          || keys.currentIndexVersion() != previous.keys().currentIndexVersion()) {
        LOG.info(
            "Read the sealing key file {} again: data key versions {}, sealing with {}; index key"
                + " {} for new namespaces",
            path,
            keys.versions(),
            keys.currentVersion(),
            keys.currentIndexVersion());
      }
      sealer = new Sealer(keys);
      modified = now;
      lastProblem = null;
    } catch (SealingException e) {
      if (!e.getMessage().equals(lastProblem)) {
        LOG.warn(
            "Sealing__KeyFile cannot be read again, the keys read before stay in use: {}",
            e.getMessage());
        lastProblem = e.getMessage();
      }
    }
  }

  private static FileTime modifiedTime(Path path) {
    try {
      return Files.getLastModifiedTime(path);
    } catch (IOException e) {
      return null;
    }
  }
}
