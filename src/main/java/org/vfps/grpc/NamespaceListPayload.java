package org.vfps.grpc;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import io.vertx.grpc.common.WireFormat;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.vfps.api.v1.NamespaceServiceGetAllResponse;
import org.vfps.namespace.Namespace;
import org.vfps.rpc.ProtoMapping;

/**
 * A {@code NamespaceServiceGetAllResponse} encoded page by page, each page into a chunk of its own
 * exact size, so that a GetAll holds its encoded bytes and one page of namespaces, never a message
 * object or JSON tree of them all, nor the spare capacity of a growing buffer. In protobuf, the
 * encodings of responses concatenated are the encoding of the response with all of their namespaces
 * (repeated fields merge); in JSON the namespaces are written into the array one by one. Not
 * thread-safe.
 */
final class NamespaceListPayload {

  private static final JsonFormat.Printer JSON =
      JsonFormat.printer().omittingInsignificantWhitespace();

  private final WireFormat format;
  private final CompositeByteBuf chunks = Unpooled.compositeBuffer(Integer.MAX_VALUE);
  private int count;

  NamespaceListPayload(WireFormat format) {
    this.format = format;
    if (format == WireFormat.JSON) {
      add("{\"namespaces\":[".getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * Appends the page; yields the bytes it holds until the reply is written: twice its encoding,
   * since sending the reply copies it once more into the gRPC frame.
   */
  long append(List<Namespace> page) {
    byte[] encoded;
    if (format == WireFormat.JSON) {
      StringBuilder json = new StringBuilder();
      for (Namespace namespace : page) {
        if (count++ > 0) {
          json.append(',');
        }
        json.append(json(ProtoMapping.toProto(namespace)));
      }
      encoded = json.toString().getBytes(StandardCharsets.UTF_8);
    } else {
      NamespaceServiceGetAllResponse.Builder response = NamespaceServiceGetAllResponse.newBuilder();
      for (Namespace namespace : page) {
        response.addNamespaces(ProtoMapping.toProto(namespace));
      }
      count += page.size();
      encoded = response.build().toByteArray();
    }
    add(encoded);
    return 2L * encoded.length;
  }

  /** The encoded response; append no more after it. */
  Buffer finish() {
    if (format == WireFormat.JSON) {
      add("]}".getBytes(StandardCharsets.UTF_8));
    }
    return BufferInternal.buffer(chunks);
  }

  private void add(byte[] chunk) {
    chunks.addComponent(true, Unpooled.wrappedBuffer(chunk));
  }

  private static String json(org.vfps.api.v1.Namespace message) {
    try {
      return JSON.print(message);
    } catch (InvalidProtocolBufferException e) {
      // only Any fields with unknown types fail to print, and a Namespace has none
      throw new IllegalStateException("Cannot print a namespace", e);
    }
  }
}
