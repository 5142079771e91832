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
 * The context locals of one call: its {@link CallDeadline}, its {@link ReplyBytes} and the close of
 * the HTTP stream it came on, put on the call's own (duplicated) context by the edge that serves it
 * and found there by the storage and the call's ending, some futures further on. Vert.x sizes the
 * locals of its contexts when an instance is built, so the locals must exist before: Vert.x loads
 * this provider (listed in {@code META-INF/services}) before it builds any instance.
 */
public final class CallLocals implements VertxServiceProvider {

  static final ContextLocal<CallDeadline> DEADLINE = ContextLocal.registerLocal(CallDeadline.class);
  static final ContextLocal<ReplyBytes> REPLY_BYTES = ContextLocal.registerLocal(ReplyBytes.class);

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static final ContextLocal<Future<Void>> STREAM_CLOSED =
      (ContextLocal) ContextLocal.registerLocal(Future.class);

  @Override
  public void init(VertxBootstrap builder) {
    // registering the locals, above, is all
  }

  /**
   * Keeps {@code value} on {@code context} when that is a call's own (duplicated) context, so that
   * work of other calls never sees it.
   */
  static <T> void put(Context context, ContextLocal<T> local, T value) {
    if (context instanceof ContextInternal internal && internal.isDuplicate()) {
      context.putLocal(local, value);
    }
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

  /** The value of the call whose context the current thread runs on; {@code none} if none. */
  static <T> T current(ContextLocal<T> local, T none) {
    Context context = Vertx.currentContext();
    T value = context == null ? null : context.getLocal(local);
    return value == null ? none : value;
  }
}
