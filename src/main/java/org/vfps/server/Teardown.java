package org.vfps.server;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a start has opened so far, closed in the reverse order: when a later step fails, and when
 * the server stops. A part that does not close cleanly is logged and the next one closed.
 * Thread-safe: steps run on the caller's thread and on Vert.x threads.
 */
final class Teardown {

  private static final Logger LOG = LoggerFactory.getLogger(Teardown.class);

  /** A part's way of closing. */
  interface Closing<T> {
    void close(T part) throws Exception;
  }

  private interface Close {
    void run() throws Exception;
  }

  private record Part(String name, Close close) {}

  private final Deque<Part> opened = new ArrayDeque<>();

  /** Closes {@code part} (named in the warning when it fails) before all that was opened before. */
  synchronized <T> T add(String name, T part, Closing<? super T> closing) {
    opened.push(new Part(name, () -> closing.close(part)));
    return part;
  }

  /** Closes what was opened, the last first; a second call does nothing. */
  void close() {
    for (Part part = next(); part != null; part = next()) {
      try {
        part.close().run();
      } catch (Exception e) {
        LOG.warn("{} did not close cleanly", part.name(), e);
      }
    }
  }

  private synchronized Part next() {
    return opened.poll();
  }
}
