package org.vfps.grpc;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.vertx.core.buffer.Buffer;
import io.vertx.grpc.common.WireFormat;
import java.util.List;
import org.vfps.api.v1.NamespaceServiceGetAllResponse;
import org.vfps.namespace.Namespace;
import org.vfps.rpc.ProtoMapping;

/**
 * A {@code NamespaceServiceGetAllResponse} encoded namespace by namespace straight into one buffer,
 * so that a GetAll holds its encoded bytes and one page of namespaces, never a message object or
 * JSON tree of them all. In protobuf, the encodings of one-namespace responses concatenated are the
 * encoding of the response with all of them (repeated fields merge); in JSON the namespaces are
 * written into the array one by one. Not thread-safe.
 */
final class NamespaceListPayload {

  private static final JsonFormat.Printer JSON =
      JsonFormat.printer().omittingInsignificantWhitespace();

  private final WireFormat format;
  private final Buffer payload = Buffer.buffer();
  private int count;

  NamespaceListPayload(WireFormat format) {
    this.format = format;
    if (format == WireFormat.JSON) {
      payload.appendString("{\"namespaces\":[");
    }
  }

  /** Appends the page; yields how many bytes it added. */
  int append(List<Namespace> page) {
    int before = payload.length();
    for (Namespace namespace : page) {
      org.vfps.api.v1.Namespace message = ProtoMapping.toProto(namespace);
      if (format == WireFormat.JSON) {
        if (count > 0) {
          payload.appendByte((byte) ',');
        }
        payload.appendString(json(message));
      } else {
        payload.appendBytes(
            NamespaceServiceGetAllResponse.newBuilder()
                .addNamespaces(message)
                .build()
                .toByteArray());
      }
      count++;
    }
    return payload.length() - before;
  }

  /** The encoded response; append no more after it. */
  Buffer finish() {
    if (format == WireFormat.JSON) {
      payload.appendString("]}");
    }
    return payload;
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
