package org.vfps.http;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;
import org.vfps.namespace.Namespace;
import org.vfps.rpc.ProtoMapping;

/**
 * The body of {@code GET /v1/namespaces}, {@code {"namespaces":[...]}}, written to the response a
 * page at a time as the pages are read, each namespace printed on its own: a GetAll holds one page,
 * never the whole list or a JSON tree of it. The head goes out with the first page, so that a
 * failure before it is still answered with an error status. Not thread-safe.
 */
final class NamespaceListStream {

  private final HttpServerResponse response;
  private boolean started;
  private boolean empty = true;

  NamespaceListStream(HttpServerResponse response) {
    this.response = response;
  }

  /** Writes the page; completes when it is written, so a slow reader slows the reading. */
  Future<Void> write(List<Namespace> page) {
    Buffer chunk = Buffer.buffer();
    start(chunk);
    for (Namespace namespace : page) {
      if (!empty) {
        chunk.appendByte((byte) ',');
      }
      chunk.appendBuffer(ProtoJson.writeBuffer(ProtoMapping.toProto(namespace)));
      empty = false;
    }
    return whenDrained(response.write(chunk));
  }

  /**
   * The write, once the response's write queue has room again: the write's own future completes
   * when the chunk is queued, not sent, so waiting for it alone would let a slow reader's queue
   * grow without bound.
   */
  private Future<Void> whenDrained(Future<Void> written) {
    if (!response.writeQueueFull()) {
      return written;
    }
    Promise<Void> drained = Promise.promise();
    response.drainHandler(room -> drained.tryComplete());
    response.exceptionHandler(drained::tryFail);
    return written.compose(queued -> drained.future());
  }

  /** Ends the body. */
  Future<Void> end() {
    Buffer chunk = Buffer.buffer();
    start(chunk);
    return response.end(chunk.appendString("]}"));
  }

  /** Whether the head has gone out, after which a failure can only break the stream off. */
  boolean started() {
    return started;
  }

  private void start(Buffer chunk) {
    if (!started) {
      started = true;
      response.setChunked(true).putHeader(HttpHeaders.CONTENT_TYPE, RestRoutes.JSON);
      chunk.appendString("{\"namespaces\":[");
    }
  }
}
