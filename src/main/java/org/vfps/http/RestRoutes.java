package org.vfps.http;

import com.google.protobuf.Message;
import io.vertx.core.Future;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.validation.RequestParameter;
import io.vertx.openapi.validation.ValidatedRequest;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.AccessAdmin;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceCreateResponse;
import org.vfps.api.v1.NamespaceServiceDeleteResponse;
import org.vfps.api.v1.NamespaceServiceGetResponse;
import org.vfps.api.v1.PseudonymServiceBatchCreateRequest;
import org.vfps.api.v1.PseudonymServiceBatchGetRequest;
import org.vfps.api.v1.PseudonymServiceCreateRequest;
import org.vfps.api.v1.PseudonymServiceGetResponse;
import org.vfps.api.v1.PseudonymServiceResolveRequest;
import org.vfps.api.x.access.v1.CreateAccessTokenRequest;
import org.vfps.api.x.access.v1.CreateGrantRequest;
import org.vfps.api.x.access.v1.CreateServiceAccountRequest;
import org.vfps.api.x.access.v1.DeleteAccessTokenResponse;
import org.vfps.api.x.access.v1.DeleteGrantResponse;
import org.vfps.api.x.access.v1.DeleteServiceAccountResponse;
import org.vfps.api.x.access.v1.UpdateGrantRequest;
import org.vfps.api.x.csvjobs.v1.CreateCsvJobRequest;
import org.vfps.api.x.withdrawal.v1.AnonymizeOriginalRequest;
import org.vfps.api.x.withdrawal.v1.BatchAnonymizeOriginalsRequest;
import org.vfps.api.x.withdrawal.v1.BatchDeletePseudonymsRequest;
import org.vfps.api.x.withdrawal.v1.DeletePseudonymsRequest;
import org.vfps.grpc.AccessMapping;
import org.vfps.grpc.CsvJobMapping;
import org.vfps.grpc.ProtoMapping;
import org.vfps.grpc.WithdrawalMapping;
import org.vfps.job.CsvJobService;
import org.vfps.namespace.NamespaceService;
import org.vfps.pseudonym.PseudonymService;
import org.vfps.pseudonym.Withdrawal;

/**
 * The ten RPCs on the routes of their {@code google.api.http} rules, bound to the operations of the
 * contract: path variables and query parameters (by proto or JSON name) and the JSON body become
 * the request, the caller comes from the {@code Authorization} header (or the admin UI's session
 * cookie, as {@link Authentication} admits it), the domain service answers, and the reply goes out
 * as protobuf JSON. A failure goes to the router's failure handler, {@link HttpErrors}.
 */
final class RestRoutes {

  /** The content type of every REST reply, errors included. */
  static final String JSON = "application/json; charset=utf-8";

  /** Where a request's operation id is kept for the failure log. */
  static final String OPERATION_KEY = "vfps.operation";

  private static final Pattern PATH_VARIABLE = Pattern.compile("\\{[^}]+}");
  private static final Logger LOG = LoggerFactory.getLogger(RestRoutes.class);

  private final NamespaceService namespaces;
  private final PseudonymService pseudonyms;
  private final AccessAdmin accessAdmin;
  private final CsvJobService csvJobs;
  private final Authentication authentication;

  RestRoutes(
      NamespaceService namespaces,
      PseudonymService pseudonyms,
      AccessAdmin accessAdmin,
      CsvJobService csvJobs,
      Authentication authentication) {
    this.namespaces = namespaces;
    this.pseudonyms = pseudonyms;
    this.accessAdmin = accessAdmin;
    this.csvJobs = csvJobs;
    this.authentication = authentication;
  }

  void bind(RouterBuilder builder) {
    on(
        builder,
        "NamespaceService_Create",
        Operation.NAMESPACE_CREATE,
        (rc, caller) -> {
          NamespaceServiceCreateRequest request =
              ProtoJson.read(body(rc), NamespaceServiceCreateRequest.newBuilder()).build();
          return namespaces
              .create(caller, ProtoMapping.toDraft(request))
              .map(
                  created ->
                      NamespaceServiceCreateResponse.newBuilder()
                          .setNamespace(ProtoMapping.toProto(created))
                          .build());
        });
    builder
        .getRoute("NamespaceService_GetAll")
        .addHandler(
            rc -> {
              NamespaceListStream list = new NamespaceListStream(rc.response());
              authentication
                  .caller(rc, Operation.NAMESPACE_GET_ALL)
                  .compose(caller -> namespaces.getAll(caller, list::write))
                  .compose(read -> list.end())
                  .onFailure(
                      failure -> {
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
                      });
            });
    on(
        builder,
        "NamespaceService_Get",
        Operation.NAMESPACE_GET,
        (rc, caller) ->
            namespaces
                .get(caller, rc.pathParam("name"))
                .map(
                    found ->
                        NamespaceServiceGetResponse.newBuilder()
                            .setNamespace(ProtoMapping.toProto(found))
                            .build()));
    on(
        builder,
        "NamespaceService_Delete",
        Operation.NAMESPACE_DELETE,
        (rc, caller) ->
            namespaces
                .delete(caller, rc.pathParam("name"))
                .map(deleted -> NamespaceServiceDeleteResponse.getDefaultInstance()));
    on(
        builder,
        "NamespaceService_ListChildren",
        Operation.NAMESPACE_LIST_CHILDREN,
        (rc, caller) ->
            namespaces
                .listChildren(caller, rc.pathParam("name"))
                .map(ProtoMapping::toListChildrenResponse));
    on(
        builder,
        "PseudonymService_Create",
        Operation.PSEUDONYM_CREATE,
        (rc, caller) -> {
          // the path variable wins over a namespace in the body, as in the .NET transcoding
          PseudonymServiceCreateRequest request =
              ProtoJson.read(body(rc), PseudonymServiceCreateRequest.newBuilder())
                  .setNamespace(rc.pathParam("namespace"))
                  .build();
          return pseudonyms
              .createCounted(
                  caller,
                  request.getNamespace(),
                  request.getOriginalValue(),
                  request.hasCount() ? OptionalLong.of(request.getCount()) : OptionalLong.empty())
              .map(ProtoMapping::toCreateResponse);
        });
    on(
        builder,
        "PseudonymService_Resolve",
        Operation.PSEUDONYM_RESOLVE,
        (rc, caller) -> {
          PseudonymServiceResolveRequest request =
              ProtoJson.read(body(rc), PseudonymServiceResolveRequest.newBuilder())
                  .setNamespace(rc.pathParam("namespace"))
                  .build();
          return pseudonyms
              .resolve(caller, request.getNamespace(), request.getOriginalValue())
              .map(ProtoMapping::toResolveResponse);
        });
    on(
        builder,
        "PseudonymService_Get",
        Operation.PSEUDONYM_GET,
        (rc, caller) ->
            pseudonyms
                .get(caller, rc.pathParam("namespace"), rc.pathParam("pseudonym_value"))
                .map(
                    found ->
                        PseudonymServiceGetResponse.newBuilder()
                            .setPseudonym(ProtoMapping.toProto(found))
                            .build()));
    on(
        builder,
        "PseudonymService_BatchCreate",
        Operation.PSEUDONYM_BATCH_CREATE,
        (rc, caller) -> {
          String namespace = rc.pathParam("namespace");
          PseudonymServiceBatchCreateRequest request =
              ProtoJson.read(body(rc), PseudonymServiceBatchCreateRequest.newBuilder()).build();
          return pseudonyms
              .createAll(caller, namespace, request.getOriginalValuesList())
              .map(created -> ProtoMapping.toBatchCreateResponse(namespace, created));
        });
    on(
        builder,
        "PseudonymService_BatchGet",
        Operation.PSEUDONYM_BATCH_GET,
        (rc, caller) -> {
          String namespace = rc.pathParam("namespace");
          PseudonymServiceBatchGetRequest request =
              ProtoJson.read(body(rc), PseudonymServiceBatchGetRequest.newBuilder()).build();
          return pseudonyms
              .getAll(caller, namespace, request.getPseudonymValuesList())
              .map(found -> ProtoMapping.toBatchGetResponse(namespace, found));
        });
    on(
        builder,
        "PseudonymService_List",
        Operation.PSEUDONYM_LIST,
        (rc, caller) -> {
          Map<String, RequestParameter> query = validated(rc).getQuery();
          // the token is read raw: the validator would turn one that looks like a number into one
          String pageToken = rc.queryParams().get("page_token");
          if (pageToken == null) {
            pageToken = rc.queryParams().get("pageToken");
          }
          return pseudonyms
              .list(
                  caller,
                  rc.pathParam("namespace"),
                  either(query, "page_size", "pageSize").getInteger(0),
                  pageToken == null ? "" : pageToken,
                  either(query, "include_total_size", "includeTotalSize").getBoolean(false))
              .map(ProtoMapping::toListResponse);
        });
    bindWithdrawals(builder);
    bindAccess(builder);
    bindCsvJobs(builder);
  }

  /** The five RPCs of {@code vfps.x.csvjobs.v1.CsvJobService}. */
  private void bindCsvJobs(RouterBuilder builder) {
    on(
        builder,
        "CsvJobService_CreateCsvJob",
        Operation.CSV_JOB_CREATE,
        (rc, caller) -> {
          CreateCsvJobRequest request =
              ProtoJson.read(body(rc), CreateCsvJobRequest.newBuilder()).build();
          return csvJobs
              .create(caller, CsvJobMapping.toNewJob(request))
              .map(CsvJobMapping::toProto);
        });
    on(
        builder,
        "CsvJobService_StartCsvJob",
        Operation.CSV_JOB_START,
        (rc, caller) ->
            csvJobs
                .start(caller, CsvJobMapping.toId(rc.pathParam("id")))
                .map(CsvJobMapping::toProto));
    on(
        builder,
        "CsvJobService_CancelCsvJob",
        Operation.CSV_JOB_CANCEL,
        (rc, caller) ->
            csvJobs
                .cancel(caller, CsvJobMapping.toId(rc.pathParam("id")))
                .map(CsvJobMapping::toProto));
    on(
        builder,
        "CsvJobService_GetCsvJob",
        Operation.CSV_JOB_GET,
        (rc, caller) ->
            csvJobs
                .get(caller, CsvJobMapping.toId(rc.pathParam("id")))
                .map(CsvJobMapping::toProto));
    on(
        builder,
        "CsvJobService_ListCsvJobs",
        Operation.CSV_JOB_LIST,
        (rc, caller) -> csvJobs.list(caller).map(CsvJobMapping::toListResponse));
  }

  /** The four RPCs of {@code vfps.x.withdrawal.v1.WithdrawalService}. */
  private void bindWithdrawals(RouterBuilder builder) {
    on(
        builder,
        "WithdrawalService_DeletePseudonyms",
        Withdrawal.DELETE.single(),
        (rc, caller) -> {
          String namespace = rc.pathParam("namespace");
          DeletePseudonymsRequest request =
              ProtoJson.read(body(rc), DeletePseudonymsRequest.newBuilder()).build();
          return pseudonyms
              .withdraw(caller, Withdrawal.DELETE, namespace, request.getOriginalValue())
              .map(deleted -> WithdrawalMapping.toDeleteResponse(namespace, deleted));
        });
    on(
        builder,
        "WithdrawalService_AnonymizeOriginal",
        Withdrawal.ANONYMIZE.single(),
        (rc, caller) -> {
          String namespace = rc.pathParam("namespace");
          AnonymizeOriginalRequest request =
              ProtoJson.read(body(rc), AnonymizeOriginalRequest.newBuilder()).build();
          return pseudonyms
              .withdraw(caller, Withdrawal.ANONYMIZE, namespace, request.getOriginalValue())
              .map(kept -> WithdrawalMapping.toAnonymizeResponse(namespace, kept));
        });
    on(
        builder,
        "WithdrawalService_BatchDeletePseudonyms",
        Withdrawal.DELETE.batch(),
        (rc, caller) -> {
          String namespace = rc.pathParam("namespace");
          BatchDeletePseudonymsRequest request =
              ProtoJson.read(body(rc), BatchDeletePseudonymsRequest.newBuilder()).build();
          return pseudonyms
              .withdrawAll(caller, Withdrawal.DELETE, namespace, request.getOriginalValuesList())
              .map(withdrawn -> WithdrawalMapping.toBatchDeleteResponse(namespace, withdrawn));
        });
    on(
        builder,
        "WithdrawalService_BatchAnonymizeOriginals",
        Withdrawal.ANONYMIZE.batch(),
        (rc, caller) -> {
          String namespace = rc.pathParam("namespace");
          BatchAnonymizeOriginalsRequest request =
              ProtoJson.read(body(rc), BatchAnonymizeOriginalsRequest.newBuilder()).build();
          return pseudonyms
              .withdrawAll(caller, Withdrawal.ANONYMIZE, namespace, request.getOriginalValuesList())
              .map(withdrawn -> WithdrawalMapping.toBatchAnonymizeResponse(namespace, withdrawn));
        });
  }

  /** The eleven RPCs of {@code vfps.x.access.v1.AccessService}. */
  private void bindAccess(RouterBuilder builder) {
    on(
        builder,
        "AccessService_ListGrants",
        Operation.ACCESS_LIST_GRANTS,
        (rc, caller) ->
            accessAdmin
                .listGrants(caller, query(rc, "namespace", "namespace"))
                .map(AccessMapping::toListGrantsResponse));
    on(
        builder,
        "AccessService_CreateGrant",
        Operation.ACCESS_CREATE_GRANT,
        (rc, caller) -> {
          CreateGrantRequest request =
              ProtoJson.read(body(rc), CreateGrantRequest.newBuilder()).build();
          return accessAdmin
              .createGrant(caller, AccessMapping.toGrantRequest(request))
              .map(AccessMapping::toCreateGrantResponse);
        });
    on(
        builder,
        "AccessService_UpdateGrant",
        Operation.ACCESS_UPDATE_GRANT,
        (rc, caller) -> {
          UpdateGrantRequest request =
              ProtoJson.read(body(rc), UpdateGrantRequest.newBuilder()).build();
          return accessAdmin
              .updateGrant(
                  caller,
                  rc.pathParam("id"),
                  request.getCanRead(),
                  request.getCanWrite(),
                  request.getCanReverseLookup())
              .map(AccessMapping::toUpdateGrantResponse);
        });
    on(
        builder,
        "AccessService_DeleteGrant",
        Operation.ACCESS_DELETE_GRANT,
        (rc, caller) ->
            accessAdmin
                .deleteGrant(caller, rc.pathParam("id"))
                .map(deleted -> DeleteGrantResponse.getDefaultInstance()));
    on(
        builder,
        "AccessService_ListServiceAccounts",
        Operation.ACCESS_LIST_SERVICE_ACCOUNTS,
        (rc, caller) ->
            accessAdmin
                .listServiceAccounts(caller)
                .map(AccessMapping::toListServiceAccountsResponse));
    on(
        builder,
        "AccessService_CreateServiceAccount",
        Operation.ACCESS_CREATE_SERVICE_ACCOUNT,
        (rc, caller) -> {
          CreateServiceAccountRequest request =
              ProtoJson.read(body(rc), CreateServiceAccountRequest.newBuilder()).build();
          return accessAdmin
              .createServiceAccount(caller, request.getName(), request.getDescription())
              .map(AccessMapping::toCreateServiceAccountResponse);
        });
    on(
        builder,
        "AccessService_DeleteServiceAccount",
        Operation.ACCESS_DELETE_SERVICE_ACCOUNT,
        (rc, caller) ->
            accessAdmin
                .deleteServiceAccount(caller, rc.pathParam("name"))
                .map(deleted -> DeleteServiceAccountResponse.getDefaultInstance()));
    on(
        builder,
        "AccessService_ListAccessTokens",
        Operation.ACCESS_LIST_TOKENS,
        (rc, caller) ->
            accessAdmin
                .listTokens(
                    caller,
                    "true".equals(query(rc, "all", "all")),
                    query(rc, "service_account", "serviceAccount"))
                .map(tokens -> AccessMapping.toListAccessTokensResponse(accessAdmin, tokens)));
    on(
        builder,
        "AccessService_CreateAccessToken",
        Operation.ACCESS_CREATE_TOKEN,
        (rc, caller) -> {
          CreateAccessTokenRequest request =
              ProtoJson.read(body(rc), CreateAccessTokenRequest.newBuilder()).build();
          return accessAdmin
              .createToken(
                  caller, request.getName(), request.getServiceAccount(), request.getLifetimeDays())
              .map(created -> AccessMapping.toCreateAccessTokenResponse(accessAdmin, created));
        });
    on(
        builder,
        "AccessService_RevokeAccessToken",
        Operation.ACCESS_REVOKE_TOKEN,
        (rc, caller) ->
            accessAdmin
                .revokeToken(caller, rc.pathParam("id"))
                .map(token -> AccessMapping.toRevokeAccessTokenResponse(accessAdmin, token)));
    on(
        builder,
        "AccessService_DeleteAccessToken",
        Operation.ACCESS_DELETE_TOKEN,
        (rc, caller) ->
            accessAdmin
                .deleteToken(caller, rc.pathParam("id"))
                .map(deleted -> DeleteAccessTokenResponse.getDefaultInstance()));
  }

  /** A query parameter by its proto name, else its JSON name; empty when neither is given. */
  private static String query(RoutingContext rc, String protoName, String jsonName) {
    String value = rc.queryParams().get(protoName);
    if (value == null) {
      value = rc.queryParams().get(jsonName);
    }
    return value == null ? "" : value;
  }

  /**
   * Names each contract route after its path template as written ({@code /v1/csv-jobs/{id}:start}),
   * the {@code route} label of the HTTP server metrics, and makes the routes of custom methods
   * ({@code .../pseudonyms:batchCreate}) match their path as written. Vert.x reads {@code :name}
   * anywhere in a route's path as a path parameter, so such a suffix would become a parameter that
   * matches any text, and {@code :batchGet} would reach the {@code :batchCreate} route; these
   * routes match a regex with the suffix as literal text instead.
   */
  static void matchCustomMethodsLiterally(Router router) {
    java.util.Map<String, java.util.Set<HttpMethod>> methodsByTemplate = new java.util.TreeMap<>();
    for (Route route : router.getRoutes()) {
      io.vertx.openapi.contract.Operation operation =
          route.getMetadata(RouterBuilder.KEY_META_DATA_OPERATION);
      if (operation == null) {
        continue;
      }
      String template = pathTemplate(operation.getOpenAPIPath());
      route.setName(template);
      if (operation.getOpenAPIPath().contains(":")) {
        route.pathRegex(customMethodRegex(operation.getOpenAPIPath()));
        methodsByTemplate
            .computeIfAbsent(template, t -> new java.util.HashSet<>())
            .addAll(route.methods());
      }
    }
    // a custom method's path is its own: another method there is a 405, though the path's last
    // segment would also fill the variable of a plainer route (GET /v1/csv-jobs/{id}); the guard
    // sees only the other methods, so that a call of the path's own method passes one route alone
    // and is labelled by its template alone
    methodsByTemplate.forEach(
        (template, methods) -> {
          Route guard = router.routeWithRegex(literalPathRegex(template)).order(-1);
          guard.setName(template);
          for (HttpMethod method : HttpMethod.values()) {
            if (!methods.contains(method)) {
              guard.method(method);
            }
          }
          String allowed =
              String.join(", ", methods.stream().map(HttpMethod::name).sorted().toList());
          guard.handler(
              rc -> {
                rc.response().putHeader(io.vertx.core.http.HttpHeaders.ALLOW, allowed);
                rc.fail(405);
              });
        });
  }

  /** The path of an operation as the contract writes it, from the path the parser read. */
  static String pathTemplate(String parsedPath) {
    return parsedPath.replace(ApiContract.CUSTOM_METHOD_AFTER_VARIABLE, "}:");
  }

  /** The regex of the path of a custom method's operation as the parser read it. */
  static String customMethodRegex(String parsedPath) {
    return literalPathRegex(pathTemplate(parsedPath));
  }

  /**
   * The regex of a contract path: its text literal, each {@code {variable}} one segment, captured
   * as {@code p0}, {@code p1}, ..., which Vert.x names after the route's parameters in order.
   */
  static String literalPathRegex(String contractPath) {
    StringBuilder regex = new StringBuilder();
    Matcher variable = PATH_VARIABLE.matcher(contractPath);
    int literalFrom = 0;
    int index = 0;
    while (variable.find()) {
      regex
          .append(Pattern.quote(contractPath.substring(literalFrom, variable.start())))
          .append("(?<p")
          .append(index++)
          .append(">[^/]+)");
      literalFrom = variable.end();
    }
    return regex.append(Pattern.quote(contractPath.substring(literalFrom))).toString();
  }

  /**
   * Binds an operation, which runs {@code operation}, once its caller is authenticated: the handler
   * may throw or fail its future; either ends in the failure handler.
   */
  private void on(
      RouterBuilder builder,
      String operationId,
      Operation operation,
      BiFunction<RoutingContext, Caller, Future<? extends Message>> handler) {
    builder
        .getRoute(operationId)
        .addHandler(
            rc ->
                authentication
                    .caller(rc, operation)
                    .compose(caller -> handler.apply(rc, caller))
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

  private static ValidatedRequest validated(RoutingContext rc) {
    return rc.get(RouterBuilder.KEY_META_DATA_VALIDATED_REQUEST);
  }

  /** The validated body; the contract makes it a JSON object. */
  private static JsonObject body(RoutingContext rc) {
    return validated(rc).getBody().getJsonObject();
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
