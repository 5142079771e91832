package org.vfps.grpc;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs requests an edge cannot read (a broken client, not a user's bad value): gRPC calls, and HTTP
 * requests whose target does not decode. One WARN line without a stack trace, at most once per
 * {@value #INTERVAL_SECONDS} s for the whole process: the first request of an interval, with the
 * number of requests left out before it. Never logs the input itself. Thread-safe.
 */
public final class MalformedInputLog {

  private static final Logger LOG = LoggerFactory.getLogger(MalformedInputLog.class);
  private static final long INTERVAL_SECONDS = 10;
  private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(INTERVAL_SECONDS);

  private static final AtomicLong nextLine = new AtomicLong(System.nanoTime());
  private static final AtomicLong leftOut = new AtomicLong();

  private MalformedInputLog() {}

  /**
   * @param request what was rejected, e.g. {@code gRPC call of vfps.api.v1.NamespaceService/Get}
   * @param problem what is wrong, in words of the service's own (never the client's bytes)
   */
  public static void warn(String request, String problem) {
    long now = System.nanoTime();
    long next = nextLine.get();
    if (now - next >= 0 && nextLine.compareAndSet(next, now + INTERVAL_NANOS)) {
      long others = leftOut.getAndSet(0);
      LOG.warn(
          "Rejected a malformed {}: {}{}",
          request,
          problem,
          others == 0 ? "" : " (" + others + " more since the last such line)");
    } else {
      leftOut.incrementAndGet();
    }
  }
}
