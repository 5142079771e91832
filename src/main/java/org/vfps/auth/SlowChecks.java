package org.vfps.auth;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * The slow checks of client accounts' secrets, shared fairly. They run one at a time on one worker
 * thread, so that they never take more than one core, and at most {@link #MAX_WAITING} wait. They
 * wait in a queue per account and, within it, per client address, and are taken in turn: each
 * account with checks waiting gets the next check, and within an account each address. When every
 * place is taken, a new check takes the place of the newest check of the longest queue (the account
 * with the most waiting, within it the address with the most), or is refused with {@code
 * UNAVAILABLE} when that queue is its own. So wrong secrets, which anyone can send without
 * credentials, hold only the places nobody else asks for: a flood of them for one account starves
 * neither another account's check nor its own account's from another address. Concurrent checks of
 * one secret share one check. Thread-safe.
 */
final class SlowChecks {

  /** The most checks waiting at a time, besides the one running. */
  static final int MAX_WAITING = 16;

  private final Vertx vertx;
  private final WorkerExecutor worker;

  // guarded by this
  private final Map<String, Check> byKey = new HashMap<>();
  private final Map<String, Map<String, ArrayDeque<Check>>> queues = new LinkedHashMap<>();
  private int waiting;
  private boolean running;
  private long sequence;

  SlowChecks(Vertx vertx) {
    this.vertx = vertx;
    this.worker = vertx.createSharedWorkerExecutor("vfps-secret-checks", 1);
  }

  /**
   * The result of {@code work}, run in turn as the class describes, completed on the caller's
   * context; fails with {@code UNAVAILABLE} when the check finds no place or loses its place.
   *
   * @param account the account whose secret is checked
   * @param address the client address that sent it
   * @param key the same for the same secret of the same account (the checks share one)
   */
  Future<Boolean> check(String account, String address, String key, Callable<Boolean> work) {
    Context context = vertx.getOrCreateContext();
    Check shared;
    Check dropped = null;
    Check next = null;
    synchronized (this) {
      shared = byKey.get(key);
      if (shared == null) {
        shared = new Check(key, ++sequence, work);
        queues
            .computeIfAbsent(account, ignored -> new LinkedHashMap<>())
            .computeIfAbsent(address, ignored -> new ArrayDeque<>())
            .addLast(shared);
        waiting++;
        byKey.put(key, shared);
        if (waiting > MAX_WAITING) {
          dropped = dropNewestOfLongest();
          byKey.remove(dropped.key);
        }
        if (!running) {
          next = take();
          running = next != null;
        }
      }
    }
    if (dropped != null) {
      dropped.result.fail(
          new ServiceException(
              ErrorCode.UNAVAILABLE,
              "Too many client credentials are being checked; try again shortly."));
    }
    if (next != null) {
      run(next);
    }
    Promise<Boolean> onCallersContext = Promise.promise();
    shared
        .result
        .future()
        .onComplete(done -> context.runOnContext(v -> onCallersContext.handle(done)));
    return onCallersContext.future();
  }

  private void run(Check check) {
    Future<Boolean> checked;
    try {
      checked = worker.executeBlocking(check.work, false);
    } catch (RejectedExecutionException closed) {
      // Vert.x is closing and took the worker with it: this check and those behind it fail
      checked =
          Future.failedFuture(
              new ServiceException(
                  ErrorCode.UNAVAILABLE, "The service is stopping; try again on another replica."));
    }
    checked.onComplete(
        done -> {
          Check next;
          synchronized (this) {
            byKey.remove(check.key);
            next = take();
            running = next != null;
          }
          check.result.handle(done);
          if (next != null) {
            run(next);
          }
        });
  }

  /** The next check in turn: the first account's first address's oldest; null when none waits. */
  private Check take() {
    Iterator<Map.Entry<String, Map<String, ArrayDeque<Check>>>> accounts =
        queues.entrySet().iterator();
    if (!accounts.hasNext()) {
      return null;
    }
    Map.Entry<String, Map<String, ArrayDeque<Check>>> account = accounts.next();
    accounts.remove();
    Iterator<Map.Entry<String, ArrayDeque<Check>>> addresses =
        account.getValue().entrySet().iterator();
    Map.Entry<String, ArrayDeque<Check>> address = addresses.next();
    addresses.remove();
    Check next = address.getValue().pollFirst();
    waiting--;
    // both go to the end of their turn, if they have more waiting
    if (!address.getValue().isEmpty()) {
      account.getValue().put(address.getKey(), address.getValue());
    }
    if (!account.getValue().isEmpty()) {
      queues.put(account.getKey(), account.getValue());
    }
    return next;
  }

  /**
   * Removes and returns the newest check of the address with the most waiting, within the account
   * with the most; of equal ones, that whose newest check is newer (the new check's own, if it is
   * one of them).
   */
  private Check dropNewestOfLongest() {
    Map.Entry<String, Map<String, ArrayDeque<Check>>> account = longestAccount(queues);
    Map.Entry<String, ArrayDeque<Check>> address = longestAddress(account.getValue());
    Check dropped = address.getValue().pollLast();
    waiting--;
    if (address.getValue().isEmpty()) {
      account.getValue().remove(address.getKey());
      if (account.getValue().isEmpty()) {
        queues.remove(account.getKey());
      }
    }
    return dropped;
  }

  private static Map.Entry<String, Map<String, ArrayDeque<Check>>> longestAccount(
      Map<String, Map<String, ArrayDeque<Check>>> accounts) {
    Map.Entry<String, Map<String, ArrayDeque<Check>>> longest = null;
    Queue longestSize = Queue.NONE;
    for (Map.Entry<String, Map<String, ArrayDeque<Check>>> account : accounts.entrySet()) {
      Queue size = Queue.NONE;
      for (ArrayDeque<Check> checks : account.getValue().values()) {
        size = size.plus(checks);
      }
      if (size.longerThan(longestSize)) {
        longest = account;
        longestSize = size;
      }
    }
    return longest;
  }

  private static Map.Entry<String, ArrayDeque<Check>> longestAddress(
      Map<String, ArrayDeque<Check>> addresses) {
    Map.Entry<String, ArrayDeque<Check>> longest = null;
    Queue longestSize = Queue.NONE;
    for (Map.Entry<String, ArrayDeque<Check>> address : addresses.entrySet()) {
      Queue size = Queue.NONE.plus(address.getValue());
      if (size.longerThan(longestSize)) {
        longest = address;
        longestSize = size;
      }
    }
    return longest;
  }

  /** How many checks a queue holds, and the sequence number of its newest. */
  private record Queue(int size, long newest) {

    static final Queue NONE = new Queue(0, -1);

    Queue plus(ArrayDeque<Check> checks) {
      return new Queue(size + checks.size(), Math.max(newest, checks.peekLast().sequence));
    }

    boolean longerThan(Queue other) {
      return size > other.size || (size == other.size && newest > other.newest);
    }
  }

  /** A check, shared by the requests that present its secret while it waits or runs. */
  private static final class Check {

    final String key;
    final long sequence;
    final Callable<Boolean> work;
    final Promise<Boolean> result = Promise.promise();

    Check(String key, long sequence, Callable<Boolean> work) {
      this.key = key;
      this.sequence = sequence;
      this.work = work;
    }
  }
}
