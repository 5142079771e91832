package org.vfps.admission;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Decides whether the replica takes on more work: a request (a gRPC call, an HTTP request) while
 * fewer than {@code maxConcurrentRequests} are in flight and its caller holds fewer than {@code
 * maxRequestsPerCaller} of them, a stream (a {@code CreateStream} call, which holds a request's
 * place too) while its caller holds fewer than {@code maxStreamsPerCaller}, values into the write
 * coalescers' queues while fewer than {@code maxQueuedWrites} wait there, and bytes of a reply
 * built whole in memory while fewer than {@code maxReplyBytes} are held by such replies. Work
 * beyond any bound is refused at once, never queued, and the caller answers it with {@link
 * #overloaded}. The edges ask {@link #tryStartRequest} (or {@link #tryOpenStream}) once a request's
 * caller is known and its work starts, and {@linkplain ReplyBytes#begin begin} a reservation of
 * reply bytes per call, into which the storage reserves the rows it reads for the reply (and a
 * GetAll its encoded pages); the storage asks {@link #tryQueueWrites(int)}. Each refusal is
 * counted. A stream that makes no progress for {@link #streamIdleTimeout()} is closed by its edge,
 * so that it gives its places back. Thread-safe: one instance serves every verticle of the process.
 *
 * <p>A caller is known by a key (see {@code Caller#admissionKey()}); the places each one holds are
 * counted in a map that keeps a caller only while it holds a place, so the map never holds more
 * callers than there are requests in flight. Per request that is one map lookup and one atomic
 * update when it starts and again when it ends; an entry (one small object) is made only when the
 * caller held no place before.
 */
public final class Admission {

  /** How long a refused client is told to wait before it tries again ({@code Retry-After}). */
  public static final int RETRY_AFTER_SECONDS = 1;

  /** The bounds, each named as its refusals are counted. */
  public enum Limit {
    /** {@code Admission__MaxConcurrentRequests}. */
    CONCURRENT_REQUESTS("concurrent_requests"),
    /** {@code Admission__MaxConcurrentRequestsPerCaller}. */
    CALLER_REQUESTS("caller_requests"),
    /** {@code Admission__MaxOpenStreamsPerCaller}. */
    CALLER_STREAMS("caller_streams"),
    /** {@code Admission__MaxQueuedWrites}. */
    QUEUED_WRITES("queued_writes"),
    /** {@code Admission__MaxReplyBytes}. */
    REPLY_BYTES("reply_bytes");

    private final String label;
    private final Optional<Limit> refusal;

    Limit(String label) {
      this.label = label;
      this.refusal = Optional.of(this);
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

  /** An admission: nothing refused. */
  private static final Optional<Limit> ADMITTED = Optional.empty();

  private static final Function<Object, Share> NEW_SHARE = key -> new Share();

  private final int maxConcurrentRequests;
  private final int maxRequestsPerCaller;
  private final int maxStreamsPerCaller;
  private final int maxQueuedWrites;
  private final long maxReplyBytes;
  private final Duration streamIdleTimeout;
  private final Refusals refusals;
  private final AtomicInteger requests = new AtomicInteger();
  private final ConcurrentHashMap<Object, Share> shares = new ConcurrentHashMap<>();
  private final AtomicInteger queuedWrites = new AtomicInteger();
  private final AtomicLong replyBytes = new AtomicLong();

  /**
   * @param maxConcurrentRequests requests in flight at once, at least 1
   * @param maxRequestsPerCaller requests in flight of one caller at once, from 1 to {@code
   *     maxConcurrentRequests}
   * @param maxStreamsPerCaller streams of one caller open at once, from 1 to {@code
   *     maxRequestsPerCaller}
   * @param maxQueuedWrites values waiting in the write coalescers at once, at least 1
   * @param maxReplyBytes bytes held by replies built whole in memory at once, at least 1
   * @param streamIdleTimeout how long a stream may make no progress before it is closed; zero for
   *     as long as it likes
   * @param refusals counts each refusal
   */
  public Admission(
      int maxConcurrentRequests,
      int maxRequestsPerCaller,
      int maxStreamsPerCaller,
      int maxQueuedWrites,
      long maxReplyBytes,
      Duration streamIdleTimeout,
      Refusals refusals) {
    if (maxConcurrentRequests < 1 || maxQueuedWrites < 1 || maxReplyBytes < 1) {
      throw new IllegalArgumentException("admission bounds must be positive");
    }
    if (maxRequestsPerCaller < 1
        || maxRequestsPerCaller > maxConcurrentRequests
        || maxStreamsPerCaller < 1
        || maxStreamsPerCaller > maxRequestsPerCaller) {
      throw new IllegalArgumentException("a caller's share must be positive and within the whole");
    }
    if (streamIdleTimeout.isNegative()) {
      throw new IllegalArgumentException("streamIdleTimeout is negative: " + streamIdleTimeout);
    }
    this.maxConcurrentRequests = maxConcurrentRequests;
    this.maxRequestsPerCaller = maxRequestsPerCaller;
    this.maxStreamsPerCaller = maxStreamsPerCaller;
    this.maxQueuedWrites = maxQueuedWrites;
    this.maxReplyBytes = maxReplyBytes;
    this.streamIdleTimeout = streamIdleTimeout;
    this.refusals = refusals;
  }

  /**
   * Admission without a bound per caller and without an idle timeout of streams: any caller may
   * take every place.
   */
  public Admission(
      int maxConcurrentRequests, int maxQueuedWrites, long maxReplyBytes, Refusals refusals) {
    this(
        maxConcurrentRequests,
        maxConcurrentRequests,
        maxConcurrentRequests,
        maxQueuedWrites,
        maxReplyBytes,
        Duration.ZERO,
        refusals);
  }

  /** Admission without bounds, for tests and tools that use the storage alone. */
  public static Admission unbounded() {
    return new Admission(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE, Refusals.NONE);
  }

  /**
   * Takes a place for one request of the caller known by {@code caller}: empty when admitted, else
   * the bound that refused it (the refusal counted), the replica's before the caller's share. An
   * admitted request must be ended with {@link #endRequest}, exactly once, with the same key.
   */
  public Optional<Limit> tryStartRequest(Object caller) {
    if (!tryTakePlace()) {
      return refuse(Limit.CONCURRENT_REQUESTS);
    }
    if (!tryTakeCallerPlace(caller)) {
      requests.decrementAndGet();
      return refuse(Limit.CALLER_REQUESTS);
    }
    return ADMITTED;
  }

  /** Gives back the place of a request {@link #tryStartRequest} admitted for {@code caller}. */
  public void endRequest(Object caller) {
    requests.decrementAndGet();
    giveCallerPlaceBack(caller, shares.get(caller));
  }

  /**
   * Opens a stream of the caller known by {@code caller}: takes a request's place, as {@link
   * #tryStartRequest}, and one of the caller's open streams. Empty when admitted, else the bound
   * that refused it (the refusal counted). An open stream must be closed with {@link #closeStream},
   * exactly once, with the same key.
   */
  public Optional<Limit> tryOpenStream(Object caller) {
    Optional<Limit> refused = tryStartRequest(caller);
    if (refused.isPresent()) {
      return refused;
    }
    Share share = shares.get(caller);
    if (!share.tryOpenStream(maxStreamsPerCaller)) {
      giveCallerPlaceBack(caller, share);
      requests.decrementAndGet();
      return refuse(Limit.CALLER_STREAMS);
    }
    return ADMITTED;
  }

  /** Gives back the places of a stream {@link #tryOpenStream} opened for {@code caller}. */
  public void closeStream(Object caller) {
    requests.decrementAndGet();
    Share share = shares.get(caller);
    share.closeStream();
    giveCallerPlaceBack(caller, share);
  }

  /**
   * How long a stream may go without progress (no request read, no reply written, no work of its
   * own waiting in the service) before its edge closes it; zero for as long as it likes.
   */
  public Duration streamIdleTimeout() {
    return streamIdleTimeout;
  }

  /** The callers that hold a place now. */
  public int callersHoldingPlaces() {
    return shares.size();
  }

  private boolean tryTakePlace() {
    if (requests.incrementAndGet() <= maxConcurrentRequests) {
      return true;
    }
    requests.decrementAndGet();
    return false;
  }

  /**
   * Takes one of the caller's places unless it holds all of its share. The share of a caller that
   * gives its last place back is retired before it leaves the map, so that a place is never counted
   * in a share that left it: a caller that finds its share retired helps remove it and takes a new
   * one.
   */
  private boolean tryTakeCallerPlace(Object caller) {
    while (true) {
      Share share = shares.computeIfAbsent(caller, NEW_SHARE);
      int held = share.requests;
      if (held == Share.RETIRED) {
        shares.remove(caller, share);
      } else if (held >= maxRequestsPerCaller) {
        return false;
      } else if (Share.REQUESTS.compareAndSet(share, held, held + 1)) {
        return true;
      }
    }
  }

  /** Gives one of the caller's places back; its share leaves the map with its last place. */
  private void giveCallerPlaceBack(Object caller, Share share) {
    if (Share.REQUESTS.decrementAndGet(share) == 0
        && Share.REQUESTS.compareAndSet(share, 0, Share.RETIRED)) {
      shares.remove(caller, share);
    }
  }

  private Optional<Limit> refuse(Limit limit) {
    refusals.refused(limit);
    return limit.refusal;
  }

  /** The places one caller holds: requests in flight, and of them open streams. */
  private static final class Share {

    static final int RETIRED = -1;
    static final AtomicIntegerFieldUpdater<Share> REQUESTS =
        AtomicIntegerFieldUpdater.newUpdater(Share.class, "requests");
    static final AtomicIntegerFieldUpdater<Share> STREAMS =
        AtomicIntegerFieldUpdater.newUpdater(Share.class, "streams");

    /** {@link #RETIRED} once the share has left, or is leaving, the map. */
    volatile int requests;

    volatile int streams;

    boolean tryOpenStream(int max) {
      while (true) {
        int open = streams;
        if (open >= max) {
          return false;
        }
        if (STREAMS.compareAndSet(this, open, open + 1)) {
          return true;
        }
      }
    }

    void closeStream() {
      STREAMS.decrementAndGet(this);
    }
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
          case CALLER_REQUESTS ->
              "The caller is at its share of the requests in flight"
                  + " (Admission__MaxConcurrentRequestsPerCaller); retry once one of its requests"
                  + " has ended.";
          case CALLER_STREAMS ->
              "The caller is at its share of open streams (Admission__MaxOpenStreamsPerCaller);"
                  + " end one of its streams first.";
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
