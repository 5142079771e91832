package org.vfps.http;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.contract.Location;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.Parameter;
import io.vertx.openapi.validation.RequestParameter;
import io.vertx.openapi.validation.ValidatedRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the request message of one REST operation is read, as the {@code google.api.http} rules
 * transcode it: the JSON body, then the query parameters the contract declares (each by the field's
 * proto name or its JSON name, the proto name winning), then the path variables, which win over a
 * body field of the same name. The body is not read where the path's variables are the message's
 * only fields ({@code POST /v1/csv-jobs/{id}:start}): the path names the whole request.
 *
 * <p>A string parameter is taken as sent (a page token that looks like a number stays text); a
 * boolean or integer as the contract's validator read it. Thread-safe.
 */
final class RestRequest<Req extends Message> {

  /** A message field set from the query, and the two names it may be given by. */
  private record QueryField(FieldDescriptor field, String protoName, String jsonName) {}

  private final Req prototype;
  private final boolean readsBody;
  private final List<FieldDescriptor> pathFields;
  private final List<QueryField> queryFields;

  private RestRequest(
      Req prototype,
      boolean readsBody,
      List<FieldDescriptor> pathFields,
      List<QueryField> queryFields) {
    this.prototype = prototype;
    this.readsBody = readsBody;
    this.pathFields = List.copyOf(pathFields);
    this.queryFields = List.copyOf(queryFields);
  }

  /**
   * The reading of {@code operation}'s request into messages like {@code prototype}.
   *
   * @throws IllegalStateException when a parameter of the operation names no field of the message,
   *     or a field of a kind a parameter cannot carry: the contract and the protos disagree
   */
  static <Req extends Message> RestRequest<Req> of(Operation operation, Req prototype) {
    Descriptor message = prototype.getDescriptorForType();
    List<FieldDescriptor> pathFields = new ArrayList<>();
    Map<FieldDescriptor, QueryField> queryFields = new LinkedHashMap<>();
    for (Parameter parameter : operation.getParameters()) {
      FieldDescriptor field = field(operation, message, parameter.getName());
      if (parameter.getIn() == Location.PATH) {
        if (field.getJavaType() != FieldDescriptor.JavaType.STRING) {
          throw mismatch(operation, parameter.getName() + " is a path variable of no string field");
        }
        pathFields.add(field);
      } else if (parameter.getIn() == Location.QUERY) {
        if (field.isRepeated()
            || switch (field.getJavaType()) {
              case STRING, BOOLEAN, INT, LONG -> false;
              default -> true;
            }) {
          throw mismatch(operation, parameter.getName() + " is a query parameter of no scalar");
        }
        queryFields.putIfAbsent(field, new QueryField(field, field.getName(), field.getJsonName()));
      }
    }
    boolean readsBody =
        operation.getRequestBody() != null && message.getFields().size() > pathFields.size();
    return new RestRequest<>(
        prototype, readsBody, pathFields, new ArrayList<>(queryFields.values()));
  }

  private static FieldDescriptor field(Operation operation, Descriptor message, String name) {
    FieldDescriptor byProtoName = message.findFieldByName(name);
    if (byProtoName != null) {
      return byProtoName;
    }
    for (FieldDescriptor field : message.getFields()) {
      if (field.getJsonName().equals(name)) {
        return field;
      }
    }
    throw mismatch(operation, name + " names no field of " + message.getFullName());
  }

  private static IllegalStateException mismatch(Operation operation, String problem) {
    return new IllegalStateException(
        "The contract's operation " + operation.getOperationId() + " does not fit: " + problem);
  }

  /**
   * The request message of a request the contract validated.
   *
   * @throws org.vfps.error.ServiceException with {@code INVALID_ARGUMENT} when the body does not
   *     read as the message
   */
  @SuppressWarnings("unchecked")
  Req read(RoutingContext rc) {
    ValidatedRequest validated = rc.get(RouterBuilder.KEY_META_DATA_VALIDATED_REQUEST);
    Message.Builder builder = prototype.newBuilderForType();
    if (readsBody) {
      // the contract makes the body a JSON object
      ProtoJson.read(validated.getBody().getJsonObject(), builder);
    }
    for (QueryField query : queryFields) {
      Object value = queryValue(rc, validated, query);
      if (value != null) {
        builder.setField(query.field(), value);
      }
    }
    for (FieldDescriptor path : pathFields) {
      builder.setField(path, rc.pathParam(path.getName()));
    }
    return (Req) builder.build();
  }

  /** The field's value from the query; null when it is not given. */
  private static Object queryValue(
      RoutingContext rc, ValidatedRequest validated, QueryField query) {
    if (query.field().getJavaType() == FieldDescriptor.JavaType.STRING) {
      String value = rc.queryParams().get(query.protoName());
      return value != null ? value : rc.queryParams().get(query.jsonName());
    }
    RequestParameter parameter = either(validated.getQuery(), query.protoName(), query.jsonName());
    if (parameter == null || parameter.isNull()) {
      return null;
    }
    return switch (query.field().getJavaType()) {
      case BOOLEAN -> parameter.getBoolean(false);
      case INT -> parameter.getInteger(0);
      case LONG -> parameter.getLong(0L);
      default -> throw new IllegalStateException("no query field: " + query.field());
    };
  }

  /** The parameter given by its proto name, else the one given by its JSON name. */
  private static RequestParameter either(
      Map<String, RequestParameter> query, String protoName, String jsonName) {
    RequestParameter byProtoName = query.get(protoName);
    if (byProtoName != null && !byProtoName.isNull()) {
      return byProtoName;
    }
    RequestParameter byJsonName = query.get(jsonName);
    return byJsonName != null ? byJsonName : byProtoName;
  }
}
