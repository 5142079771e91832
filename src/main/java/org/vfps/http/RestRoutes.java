package org.vfps.http;

import com.google.protobuf.Message;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.OpenAPIRoute;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.rpc.ApiMethod;
import org.vfps.rpc.ApiService;
import org.vfps.rpc.ClientStreamMethod;
import org.vfps.rpc.PagedListMethod;
import org.vfps.rpc.UnaryMethod;

/**
 * The API's methods ({@link org.vfps.rpc.ApiMethods}) on the routes of their {@code
 * google.api.http} rules, each bound to the contract's operation {@code <Service>_<Method>}: the
 * path, the query and the JSON body become the request message ({@link RestRequest}), the caller
 * comes from the {@code Authorization} header (or the admin UI's session cookie, as {@link
 * Authentication} admits it), the method's call answers, and the reply goes out as protobuf JSON.
 * The namespace list is written page by page as it is read ({@link NamespaceListStream}); the gRPC
 * stream has no route. A failure goes to the router's failure handler, {@link HttpErrors}.
 */
final class RestRoutes {

  /** The content type of every REST reply, errors included. */
  static final String JSON = "application/json; charset=utf-8";

  /** Where a request's operation id is kept for the failure log. */
  static final String OPERATION_KEY = "vfps.operation";

  private static final Logger LOG = LoggerFactory.getLogger(RestRoutes.class);

  private final List<ApiService> services;
  private final Authentication authentication;

  RestRoutes(List<ApiService> services, Authentication authentication) {
    this.services = services;
    this.authentication = authentication;
  }

  /**
   * Binds every method with a REST route to its contract operation.
   *
   * @throws IllegalStateException when the contract lacks an operation, or its parameters do not
   *     fit the method's request message
   */
  void bind(RouterBuilder builder) {
    for (ApiService service : services) {
      for (ApiMethod method : service.methods()) {
        switch (method) {
          case UnaryMethod<?, ?> unary -> bindUnary(route(builder, unary), unary);
          case PagedListMethod list -> bindList(route(builder, list), list);
          case ClientStreamMethod stream -> {
            // a gRPC stream only: its HTTP rule has no REST route
          }
        }
      }
    }
  }

  private static OpenAPIRoute route(RouterBuilder builder, ApiMethod method) {
    OpenAPIRoute route = builder.getRoute(method.operationId());
    if (route == null) {
      throw new IllegalStateException(
          "The contract has no operation " + method.operationId() + " for " + method.method());
    }
    return route;
  }

  /**
   * Runs the method once its caller is authenticated; reading the request may throw and the call
   * fail its future: either ends in the failure handler.
   */
  private <Req extends Message, Resp extends Message> void bindUnary(
      OpenAPIRoute route, UnaryMethod<Req, Resp> method) {
    RestRequest<Req> request = RestRequest.of(route.getOperation(), method.requestPrototype());
    route.addHandler(
        rc ->
            authentication
                .caller(rc, method.permission())
                .compose(caller -> method.call().apply(caller, request.read(rc)))
                .onComplete(
                    reply -> {
                      if (RequestAdmission.answered(rc)) {
                        return;
                      }
                      if (reply.succeeded()) {
                        rc.response()
                            .putHeader(HttpHeaders.CONTENT_TYPE, JSON)
                            .end(ProtoJson.writeBuffer(reply.result()));
                      } else {
                        rc.fail(reply.cause());
                      }
                    }));
  }

  /** Writes the list's pages as they are read; its request is empty. */
  private void bindList(OpenAPIRoute route, PagedListMethod method) {
    route.addHandler(
        rc -> {
          NamespaceListStream list = new NamespaceListStream(rc.response());
          authentication
              .caller(rc, method.permission())
              .compose(caller -> method.list().apply(caller, list::write))
              .compose(read -> list.end())
              .onFailure(failure -> listFailed(rc, list, failure));
        });
  }

  private static void listFailed(RoutingContext rc, NamespaceListStream list, Throwable failure) {
    if (RequestAdmission.answered(rc)) {
      return;
    }
    if (!list.started()) {
      rc.fail(failure);
    } else if (!rc.response().closed()) {
      // the head is out: a reset tells the client the list is incomplete
      LOG.warn("A namespace list broke off: {}", failure.getMessage());
      rc.response().reset();
    }
  }
}
