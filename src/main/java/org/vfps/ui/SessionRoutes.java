package org.vfps.ui;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.Caller;
import org.vfps.access.Permission;
import org.vfps.access.Permissions;
import org.vfps.access.RoleModel;
import org.vfps.auth.SignIn;
import org.vfps.auth.UiSession;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;
import org.vfps.namespace.NamespaceService;

/**
 * What the pages ask of the UI itself: {@code GET /ui/session} (who is signed in and what the rules
 * let them do, the CSRF token for their requests; a session whose access token has expired is
 * renewed here with its refresh token; a signed-out one is none) and {@code GET /ui/access} (for
 * admins: the admin roles, the rules and the roles per namespace, for the Access control page). The
 * pages use this to show what a user may not do; the API decides.
 */
final class SessionRoutes {

  /**
   * The most namespaces whose effective roles the access page lists (in name order); past it the
   * answer says {@code namespacesTruncated}, so that one admin call never holds every namespace.
   */
  static final int EFFECTIVE_ROLES_LIMIT = 1_000;

  private static final Logger LOG = LoggerFactory.getLogger(SessionRoutes.class);

  private final boolean authorization;
  private final Optional<SignIn> signIn;
  private final Permissions permissions;
  private final NamespaceService namespaces;
  private final JsonObject service;
  private final SessionCookies cookies;

  /**
   * @param service the fields every session answer has (version, revision, limits, accessTokens,
   *     generation)
   */
  SessionRoutes(
      boolean authorization,
      Optional<SignIn> signIn,
      Permissions permissions,
      NamespaceService namespaces,
      JsonObject service,
      SessionCookies cookies) {
    this.authorization = authorization;
    this.signIn = signIn;
    this.cookies = cookies;
    this.permissions = permissions;
    this.namespaces = namespaces;
    this.service = service;
  }

  void mount(Router router) {
    router.get("/ui/session").handler(this::session);
    router.get("/ui/access").handler(this::access);
  }

  private void session(RoutingContext rc) {
    if (!authorization) {
      // everyone may do everything (an admin, as the .NET service has it)
      UiJson.send(rc, 200, answer(null, Caller.anonymous("")).put("authorization", false));
      return;
    }
    if (signIn.isEmpty()) {
      UiJson.send(rc, 200, signedOut());
      return;
    }
    SignIn flow = signIn.get();
    SessionCookies.session(flow, rc.request())
        .onSuccess(
            found -> {
              if (found.isEmpty()) {
                UiJson.send(rc, 200, signedOut());
              } else if (flow.current(found.get())) {
                UiJson.send(rc, 200, signedIn(found.get()));
              } else {
                renew(rc, flow, found.get());
              }
            })
        .onFailure(failure -> unavailable(rc, failure));
  }

  /** Answers the session renewed with its refresh token, or signed out when it cannot be. */
  private void renew(RoutingContext rc, SignIn flow, UiSession session) {
    flow.refresh(session)
        .onSuccess(
            renewed -> {
              cookies.setSession(rc, renewed.cookie());
              UiJson.send(rc, 200, signedIn(renewed.session()));
            })
        .onFailure(
            failure -> {
              ErrorCode code =
                  failure instanceof ServiceException e ? e.code() : ErrorCode.INTERNAL;
              if (code == ErrorCode.UNAUTHENTICATED) {
                LOG.debug("A session ended: {}", failure.getMessage());
              } else if (code == ErrorCode.UNAVAILABLE) {
                // the provider may be back soon: the cookie stays for the next try
                LOG.warn("A session could not be renewed: {}", failure.getMessage());
              } else {
                LOG.error("A session could not be renewed", failure);
              }
              if (code != ErrorCode.UNAVAILABLE) {
                cookies.clearSession(rc);
              }
              UiJson.send(rc, 200, signedOut());
            });
  }

  /** The answer when the database cannot say whether a session was signed out. */
  private static void unavailable(RoutingContext rc, Throwable failure) {
    LOG.warn("A session could not be checked: {}", failure.getMessage());
    UiJson.error(
        rc,
        503,
        ErrorCode.UNAVAILABLE,
        "The session cannot be checked right now (the database is not available); try again"
            + " shortly.");
  }

  private JsonObject signedOut() {
    return answer(null, null)
        .put("authorization", true)
        .put("signIn", new JsonObject().put("configured", signIn.isPresent()));
  }

  private JsonObject signedIn(UiSession session) {
    return answer(session, session.caller(""))
        .put("authorization", true)
        .put("signIn", new JsonObject().put("configured", true))
        .put("csrfToken", session.csrfToken())
        .put("expiresAt", Instant.ofEpochSecond(session.expiresAt()).toString());
  }

  /** The user and permissions of a caller; none for a null caller. */
  private JsonObject answer(UiSession session, Caller caller) {
    JsonObject user = null;
    if (session != null) {
      user =
          new JsonObject()
              .put("subject", session.subject())
              .put("name", session.name())
              .put("username", session.username())
              .put("email", session.email());
    }
    JsonObject granted =
        new JsonObject()
            .put("admin", caller != null && permissions.allows(caller, Permission.ADMIN, null))
            .put("read", namespaces(caller, Permission.READ))
            .put("write", namespaces(caller, Permission.WRITE))
            .put("reverseLookup", namespaces(caller, Permission.REVERSE_LOOKUP));
    return service
        .copy()
        .put("user", user)
        .put(
            "roles",
            new JsonArray(session == null ? List.of() : session.roles().stream().sorted().toList()))
        .put("permissions", granted);
  }

  private JsonArray namespaces(Caller caller, Permission permission) {
    return new JsonArray(
        caller == null ? List.of() : List.copyOf(permissions.namespaces(caller, permission)));
  }

  private void access(RoutingContext rc) {
    if (!authorization) {
      UiJson.send(rc, 200, new JsonObject().put("authorization", false));
      return;
    }
    if (signIn.isEmpty()) {
      UiJson.error(rc, 401, ErrorCode.UNAUTHENTICATED, "Sign in to see the access rules.");
      return;
    }
    SignIn flow = signIn.get();
    SessionCookies.session(flow, rc.request())
        .onSuccess(
            found ->
                access(
                    rc,
                    found.filter(flow::current).map(session -> session.caller("")).orElse(null)))
        .onFailure(failure -> unavailable(rc, failure));
  }

  private void access(RoutingContext rc, Caller caller) {
    if (caller == null) {
      UiJson.error(rc, 401, ErrorCode.UNAUTHENTICATED, "Sign in to see the access rules.");
      return;
    }
    if (!permissions.allows(caller, Permission.ADMIN, null)) {
      UiJson.error(
          rc, 403, ErrorCode.PERMISSION_DENIED, "Only administrators may see the access rules.");
      return;
    }
    List<String> names = new ArrayList<>();
    namespaces
        .getAll(
            caller,
            page -> {
              page.stream()
                  .limit(Math.max(0, EFFECTIVE_ROLES_LIMIT - names.size()))
                  .forEach(namespace -> names.add(namespace.name()));
              return Future.succeededFuture();
            })
        .map(ignored -> accessRules(names))
        .onSuccess(rules -> UiJson.send(rc, 200, rules))
        .onFailure(
            failure -> {
              LOG.warn("The access rules could not be listed: {}", failure.getMessage());
              UiJson.error(
                  rc,
                  503,
                  ErrorCode.UNAVAILABLE,
                  "The namespaces cannot be read right now; try again shortly.");
            });
  }

  private JsonObject accessRules(List<String> names) {
    RoleModel model = permissions.model();
    JsonArray rules = new JsonArray();
    for (RoleModel.Rule rule : model.rules()) {
      rules.add(
          roles(
              new JsonObject().put("namespace", rule.namespace()),
              rule.readRoles(),
              rule.writeRoles(),
              rule.reverseLookupRoles()));
    }
    JsonArray effective = new JsonArray();
    names.forEach(
        name ->
            effective.add(
                roles(
                    new JsonObject().put("namespace", name),
                    permissions.roles(Permission.READ, name),
                    permissions.roles(Permission.WRITE, name),
                    permissions.roles(Permission.REVERSE_LOOKUP, name))));
    return new JsonObject()
        .put("authorization", true)
        .put("adminRoles", new JsonArray(model.adminRoles()))
        .put("rules", rules)
        .put("namespaces", effective)
        .put("namespacesTruncated", names.size() >= EFFECTIVE_ROLES_LIMIT);
  }

  private static JsonObject roles(
      JsonObject entry, List<String> read, List<String> write, List<String> reverseLookup) {
    return entry
        .put("readRoles", new JsonArray(read))
        .put("writeRoles", new JsonArray(write))
        .put("reverseLookupRoles", new JsonArray(reverseLookup));
  }
}
