package org.vfps.admission;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Decides whether the replica takes on more work: a request (a gRPC call, an HTTP request) while
 * fewer than {@code maxConcurrentRequests} are in flight, values into the write coalescers' queues
 * while fewer than {@code maxQueuedWrites} wait there, and bytes of a reply built whole in memory
 * while fewer than {@code maxReplyBytes} are held by such replies. Work beyond any bound is refused
 * at once, never queued, and the caller answers it with {@link #overloaded}. The edges ask {@link
 * #tryStartRequest()} when a request's work starts and {@linkplain ReplyBytes#begin begin} a
 * reservation of reply bytes per call, into which the storage reserves the rows it reads for the
 * reply (and a GetAll its encoded pages); the storage asks {@link #tryQueueWrites(int)}. Each
 * refusal is counted. Thread-safe: one instance serves every verticle of the process.
 */
public final class Admission {

  /** How long a refused client is told to wait before it tries again ({@code Retry-After}). */
  public static final int RETRY_AFTER_SECONDS = 1;

  /** The bounds, each named as its refusals are counted. */
  public enum Limit {
    /** {@code Admission__MaxConcurrentRequests}. */
    CONCURRENT_REQUESTS("concurrent_requests"),
    /** {@code Admission__MaxQueuedWrites}. */
    QUEUED_WRITES("queued_writes"),
    /** {@code Admission__MaxReplyBytes}. */
    REPLY_BYTES("reply_bytes");

    private final String label;

    Limit(String label) {
      this.label = label;
    }

    /** The limit's name as a metric label value. */
    public String label() {
      return label;
    }
  }

  /** Counts refusals; implementations must be thread-safe and must not block. */
  public interface Refusals {

    /** Counts nothing. */
    Refusals NONE = limit -> {};

    void refused(Limit limit);
  }

  private final int maxConcurrentRequests;
  private final int maxQueuedWrites;
  private final long maxReplyBytes;
  private final Refusals refusals;
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger queuedWrites = new AtomicInteger();
  private final AtomicLong replyBytes = new AtomicLong();

  /**
   * @param maxConcurrentRequests requests in flight at once, at least 1
   * @param maxQueuedWrites values waiting in the write coalescers at once, at least 1
   * @param maxReplyBytes bytes held by replies built whole in memory at once, at least 1
   * @param refusals counts each refusal
   */
  public Admission(
      int maxConcurrentRequests, int maxQueuedWrites, long maxReplyBytes, Refusals refusals) {
    if (maxConcurrentRequests < 1 || maxQueuedWrites < 1 || maxReplyBytes < 1) {
      throw new IllegalArgumentException("admission bounds must be positive");
    }
    this.maxConcurrentRequests = maxConcurrentRequests;
    this.maxQueuedWrites = maxQueuedWrites;
    this.maxReplyBytes = maxReplyBytes;
    this.refusals = refusals;
  }

  /** Admission without bounds, for tests and tools that use the storage alone. */
  public static Admission unbounded() {
    return new Admission(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE, Refusals.NONE);
  }

  /**
   * Takes a place for one request; false (and the refusal counted) when every place is taken. An
   * admitted request must be ended with {@link #endRequest()}, exactly once.
   */
  public boolean tryStartRequest() {
    if (requests.incrementAndGet() <= maxConcurrentRequests) {
      return true;
    }
    requests.decrementAndGet();
    refusals.refused(Limit.CONCURRENT_REQUESTS);
    return false;
  }

  /** Gives back the place of a request {@link #tryStartRequest()} admitted. */
  public void endRequest() {
    requests.decrementAndGet();
  }

  /**
   * Takes places for {@code count} values in the write queues; false (and the refusal counted) when
   * they do not fit. Values that find the queues empty always fit, so that a bound smaller than one
   * statement's chunk still lets work through. Each value admitted must be given back with {@link
   * #writesDequeued(int)} when it leaves the queue.
   */
  public boolean tryQueueWrites(int count) {
    int queued = queuedWrites.addAndGet(count);
    if (queued <= maxQueuedWrites || queued == count) {
      return true;
    }
    queuedWrites.addAndGet(-count);
    refusals.refused(Limit.QUEUED_WRITES);
    return false;
  }

  /** Gives back the places of {@code count} values that left the write queues. */
  public void writesDequeued(int count) {
    queuedWrites.addAndGet(-count);
  }

  /** A new, empty reservation for the bytes of one reply that is built whole in memory. */
  public ReplyBytes replyBytes() {
    return new ReplyBytes(this);
  }

  /**
   * Reserves {@code bytes} more for a reply; false (and the refusal counted) when they do not fit.
   */
  boolean tryReserveReplyBytes(long bytes) {
    if (replyBytes.addAndGet(bytes) <= maxReplyBytes) {
      return true;
    }
    replyBytes.addAndGet(-bytes);
    refusals.refused(Limit.REPLY_BYTES);
    return false;
  }

  /** Gives back {@code bytes} a reply had reserved. */
  void releaseReplyBytes(long bytes) {
    replyBytes.addAndGet(-bytes);
  }

  /** The bytes reserved by replies being built or sent now. */
  public long replyBytesHeld() {
    return replyBytes.get();
  }

  /** The requests in flight now. */
  public int requestsInFlight() {
    return requests.get();
  }

  /** The values waiting in the write queues now. */
  public int queuedWrites() {
    return queuedWrites.get();
  }

  /**
   * The failure a refused request is answered with: {@link ErrorCode#OVERLOADED}, naming the bound
   * that was reached.
   */
  public static ServiceException overloaded(Limit limit) {
    return new ServiceException(
        ErrorCode.OVERLOADED,
        switch (limit) {
          case CONCURRENT_REQUESTS ->
              "The service is at its limit of requests in flight"
                  + " (Admission__MaxConcurrentRequests); retry in a moment.";
          case QUEUED_WRITES ->
              "The service is at its limit of values waiting for the database"
                  + " (Admission__MaxQueuedWrites); retry in a moment.";
          case REPLY_BYTES ->
              "The service is at its limit of bytes of replies built in memory"
                  + " (Admission__MaxReplyBytes); retry in a moment. A reply larger than the"
                  + " limit never fits: look up fewer values per call, and list namespaces with"
                  + " GET /v1/namespaces, which streams.";
        });
  }
}
