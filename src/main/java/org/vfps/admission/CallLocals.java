package org.vfps.admission;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxBootstrap;
import io.vertx.core.spi.VertxServiceProvider;
import io.vertx.core.spi.context.storage.ContextLocal;

/**
 * The one place through which the state of one call travels on its Vert.x context: the state that
 * must reach work some futures further on (the storage, the call's ending), past methods whose
 * parameters do not carry it. Each value is kept on the call's own (duplicated) context only, so
 * that work of other calls never sees it, and read from the context the current thread runs on; no
 * other class reaches into the context's locals for it.
 *
 * <table>
 *   <caption>Who puts what, and who reads it</caption>
 *   <tr><th>state</th><th>put by (at the call's start)</th><th>read by</th></tr>
 *   <tr><td>{@link CallDeadline}</td>
 *       <td>{@link CallDeadline#begin}: the gRPC edge's unary calls, the HTTP edge's request
 *           admission</td>
 *       <td>{@link CallDeadline#current()}: the storage's write coalescer, namespace lookups and
 *           reply-budgeted pseudonym reads, which send no work for a call that has passed
 *           it</td></tr>
 *   <tr><td>{@link ReplyBytes}</td>
 *       <td>{@link ReplyBytes#begin}: the same edges, which release it when the call ends</td>
 *       <td>{@link ReplyBytes#current()}: the storage's pseudonym reads, which reserve the bytes of
 *           the rows they read for the reply</td></tr>
 *   <tr><td>the close of the HTTP stream</td>
 *       <td>{@link #watchStreamClose}: the gRPC verticle, as a request arrives</td>
 *       <td>{@link #streamClosed()}: the gRPC edge's unary calls and call ending, which abandon
 *           the call's deadline when its client leaves</td></tr>
 * </table>
 *
 * <p>Outside a call (start-up, a tool, a test's thread) nothing is kept, and the readers get a
 * deadline that never passes and a reservation without bound. Vert.x sizes the locals of its
 * contexts when an instance is built, so the locals must exist before: Vert.x loads this provider
 * (listed in {@code META-INF/services}) before it builds any instance.
 */
public final class CallLocals implements VertxServiceProvider {

  private static final ContextLocal<CallDeadline> DEADLINE =
      ContextLocal.registerLocal(CallDeadline.class);
  private static final ContextLocal<ReplyBytes> REPLY_BYTES =
      ContextLocal.registerLocal(ReplyBytes.class);

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final ContextLocal<Future<Void>> STREAM_CLOSED =
      (ContextLocal) ContextLocal.registerLocal(Future.class);

  @Override
  public void init(VertxBootstrap builder) {
    // registering the locals, above, is all
  }

  /** Keeps the call's deadline on {@code context}, when that is a call's own context. */
  static void putDeadline(Context context, CallDeadline deadline) {
    put(context, DEADLINE, deadline);
  }

  /** The deadline of the call the current thread runs for; {@code none} outside a call. */
  static CallDeadline deadline(CallDeadline none) {
    return current(DEADLINE, none);
  }

  /** Keeps the call's reply reservation on {@code context}, when that is a call's own context. */
  static void putReplyBytes(Context context, ReplyBytes bytes) {
    put(context, REPLY_BYTES, bytes);
  }

  /** The reply reservation of the call the current thread runs for; {@code none} outside a call. */
  static ReplyBytes replyBytes(ReplyBytes none) {
    return current(REPLY_BYTES, none);
  }

  /**
   * Notes on the current call's context when the HTTP stream of {@code response} closes, as it does
   * when the call ends, when its client resets it, and when the connection closes. Call it where
   * the request arrives, before the call's own handlers run.
   */
  public static void watchStreamClose(HttpServerResponse response) {
    Promise<Void> closed = Promise.promise();
    response.closeHandler(ignored -> closed.tryComplete());
    put(Vertx.currentContext(), STREAM_CLOSED, closed.future());
  }

  /**
   * Completes when the HTTP stream of the current call has closed; never for a call whose stream
   * was not {@linkplain #watchStreamClose watched}.
   */
  public static Future<Void> streamClosed() {
    Future<Void> closed = current(STREAM_CLOSED, null);
    return closed == null ? Promise.<Void>promise().future() : closed;
  }

  /**
   * Keeps {@code value} on {@code context} when that is a call's own (duplicated) context, so that
   * work of other calls never sees it.
   */
  private static <T> void put(Context context, ContextLocal<T> local, T value) {
    if (context instanceof ContextInternal internal && internal.isDuplicate()) {
      context.putLocal(local, value);
    }
  }

  /** The value of the call whose context the current thread runs on; {@code none} if none. */
  private static <T> T current(ContextLocal<T> local, T none) {
    Context context = Vertx.currentContext();
    T value = context == null ? null : context.getLocal(local);
    return value == null ? none : value;
  }
}
