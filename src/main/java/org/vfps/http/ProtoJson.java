package org.vfps.http;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * Protobuf messages as the .NET service's JSON transcoding writes and reads them: the protobuf JSON
 * mapping with lowerCamelCase names, fields without presence always written, enums as names,
 * timestamps in RFC 3339 and, unlike {@link JsonFormat}, 64-bit integers as JSON numbers. On input
 * both the JSON and the proto field names are accepted, enums by name or number, and unknown fields
 * are skipped as .NET skips them; unknown enum names are rejected. Thread-safe.
 */
final class ProtoJson {

  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().alwaysPrintFieldsWithNoPresence().omittingInsignificantWhitespace();

  // strict: an unknown enum name fails; unknown fields are removed before it sees them
  private static final JsonFormat.Parser PARSER = JsonFormat.parser();

  private ProtoJson() {}

  /** The message as a JSON object. */
  static JsonObject write(MessageOrBuilder message) {
    String printed;
    try {
      printed = PRINTER.print(message);
    } catch (InvalidProtocolBufferException e) {
      // only Any fields with unknown types fail to print, and the vfps messages have none
      throw new IllegalStateException("Cannot print " + message.getDescriptorForType(), e);
    }
    JsonObject json = new JsonObject(printed);
    int64AsNumbers(message.getDescriptorForType(), json);
    return json;
  }

  /** The message as JSON text in a buffer, ready to send. */
  static Buffer writeBuffer(MessageOrBuilder message) {
    return write(message).toBuffer();
  }

  /**
   * Merges the JSON object into the builder.
   *
   * @throws ServiceException with {@code INVALID_ARGUMENT} when a field has a value of the wrong
   *     kind or an enum name that does not exist
   */
  static <B extends Message.Builder> B read(JsonObject json, B builder) {
    JsonObject known = withoutUnknownFields(json, builder.getDescriptorForType());
    if (hasUnpairedSurrogate(known)) {
      // a JSON escape such as \uD800 alone is no character, and UTF-8 cannot carry it
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT,
          "The request body is not valid: a string holds an unpaired surrogate escape.");
    }
    try {
      PARSER.merge(known.encode(), builder);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new ServiceException(
          ErrorCode.INVALID_ARGUMENT, "The request body is not valid: " + reason(e) + ".");
    }
    return builder;
  }

  private static boolean hasUnpairedSurrogate(Object value) {
    if (value instanceof String text) {
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)
            && i + 1 < text.length()
            && Character.isLowSurrogate(text.charAt(i + 1))) {
          i++;
        } else if (Character.isSurrogate(c)) {
          return true;
        }
      }
      return false;
    }
    if (value instanceof JsonObject object) {
      for (Map.Entry<String, Object> entry : object) {
        if (hasUnpairedSurrogate(entry.getKey()) || hasUnpairedSurrogate(entry.getValue())) {
          return true;
        }
      }
    } else if (value instanceof JsonArray array) {
      for (Object item : array) {
        if (hasUnpairedSurrogate(item)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The reason of a parse failure, without the parser's class names. */
  private static String reason(Exception e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getMessage() == null) {
      cause = cause.getCause();
    }
    String message = cause.getMessage();
    if (message == null) {
      return "malformed JSON";
    }
    return message.endsWith(".") ? message.substring(0, message.length() - 1) : message;
  }

  /** The fields of {@code json} that name a field of the message, recursively. */
  private static JsonObject withoutUnknownFields(JsonObject json, Descriptor descriptor) {
    Map<String, FieldDescriptor> fields = new HashMap<>();
    for (FieldDescriptor field : descriptor.getFields()) {
      fields.put(field.getName(), field);
      fields.put(field.getJsonName(), field);
    }
    JsonObject known = new JsonObject();
    for (Map.Entry<String, Object> entry : json) {
      FieldDescriptor field = fields.get(entry.getKey());
      if (field == null) {
        continue;
      }
      Object value = entry.getValue();
      if (isPlainMessage(field) && value instanceof JsonObject nested) {
        value = withoutUnknownFields(nested, field.getMessageType());
      } else if (isPlainMessage(field) && value instanceof JsonArray items) {
        List<Object> cleaned = new ArrayList<>(items.size());
        for (Object item : items) {
          cleaned.add(
              item instanceof JsonObject nested
                  ? withoutUnknownFields(nested, field.getMessageType())
                  : item);
        }
        value = new JsonArray(cleaned);
      }
      known.put(entry.getKey(), value);
    }
    return known;
  }

  /** Rewrites the 64-bit integers JsonFormat prints as strings into numbers, recursively. */
  private static void int64AsNumbers(Descriptor descriptor, JsonObject json) {
    for (FieldDescriptor field : descriptor.getFields()) {
      Object value = json.getValue(field.getJsonName());
      if (value == null) {
        continue;
      }
      if (isPlainMessage(field)) {
        if (value instanceof JsonObject nested) {
          int64AsNumbers(field.getMessageType(), nested);
        } else if (value instanceof JsonArray items) {
          for (Object item : items) {
            if (item instanceof JsonObject nested) {
              int64AsNumbers(field.getMessageType(), nested);
            }
          }
        }
      } else if (is64Bit(field)) {
        if (value instanceof String text) {
          json.put(field.getJsonName(), new BigInteger(text));
        } else if (value instanceof JsonArray items) {
          List<Object> numbers = new ArrayList<>(items.size());
          items.forEach(item -> numbers.add(new BigInteger((String) item)));
          json.put(field.getJsonName(), new JsonArray(numbers));
        }
      }
    }
  }

  /** A message field other than a map or a well-known type with its own JSON form. */
  private static boolean isPlainMessage(FieldDescriptor field) {
    return field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
        && !field.isMapField()
        && !field.getMessageType().getFullName().startsWith("google.protobuf.");
  }

  private static boolean is64Bit(FieldDescriptor field) {
    return switch (field.getType()) {
      case INT64, UINT64, SINT64, FIXED64, SFIXED64 -> true;
      default -> false;
    };
  }
}
