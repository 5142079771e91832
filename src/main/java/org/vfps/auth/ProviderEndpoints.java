package org.vfps.auth;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.URISyntaxException;
import org.vfps.error.ErrorCode;
import org.vfps.error.ServiceException;

/**
 * The endpoints of the OIDC provider the admin UI's sign-in uses, from its discovery document, and
 * how the client authenticates at them.
 *
 * @param authorization {@code authorization_endpoint}
 * @param token {@code token_endpoint}
 * @param pushedAuthorizationRequest {@code pushed_authorization_request_endpoint}; null when the
 *     provider offers none
 * @param endSession {@code end_session_endpoint}; null when the provider offers none
 * @param secretInBody whether the client sends its secret in the form ({@code client_secret_post})
 *     rather than as Basic credentials ({@code client_secret_basic}, the default)
 */
record ProviderEndpoints(
    URI authorization,
    URI token,
    URI pushedAuthorizationRequest,
    URI endSession,
    boolean secretInBody) {

  /**
   * The endpoints the document names; fails with {@code UNAVAILABLE} naming a required one that is
   * missing, or any that is not a URL of an allowed scheme (https, or http when {@code
   * requireHttps} is false), or when the provider takes the client's secret neither way.
   */
  static ProviderEndpoints of(JsonObject discovery, boolean requireHttps) {
    URI authorization = endpoint(discovery, "authorization_endpoint", requireHttps, true);
    URI token = endpoint(discovery, "token_endpoint", requireHttps, true);
    URI par = endpoint(discovery, "pushed_authorization_request_endpoint", requireHttps, false);
    URI endSession = endpoint(discovery, "end_session_endpoint", requireHttps, false);
    Object methods = discovery.getValue("token_endpoint_auth_methods_supported");
    boolean secretInBody = false;
    if (methods instanceof JsonArray supported && !supported.contains("client_secret_basic")) {
      if (!supported.contains("client_secret_post")) {
        throw new ServiceException(
            ErrorCode.UNAVAILABLE,
            "The OIDC provider takes a client secret neither as client_secret_basic nor as"
                + " client_secret_post (token_endpoint_auth_methods_supported).");
      }
      secretInBody = true;
    }
    return new ProviderEndpoints(authorization, token, par, endSession, secretInBody);
  }

  private static URI endpoint(
      JsonObject discovery, String name, boolean requireHttps, boolean required) {
    Object value = discovery.getValue(name);
    if (value == null && !required) {
      return null;
    }
    URI uri = null;
    if (value instanceof String text) {
      try {
        uri = new URI(text);
      } catch (URISyntaxException e) {
        // named below
      }
    }
    if (uri == null || uri.getHost() == null || !ProviderKeys.allowedScheme(uri, requireHttps)) {
      throw new ServiceException(
          ErrorCode.UNAVAILABLE,
          "The OIDC provider's discovery document names no usable "
              + name
              + (requireHttps
                  ? " (an https URL; http needs Authorization__RequireHttpsMetadata=false)."
                  : " (an http or https URL)."));
    }
    return uri;
  }
}
