package org.vfps.job;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Set;
import org.vfps.access.Caller;

/**
 * The caller a job runs for, as stored with the job: its permissions are checked again on every
 * chunk, against the grants of that moment, so a revoked grant stops the job.
 */
final class Creators {

  private Creators() {}

  static String encode(Caller caller) {
    return new JsonObject()
        .put("subject", caller.subject())
        .put(
            "roles",
            new JsonArray(caller.roles().stream().sorted().map(Object.class::cast).toList()))
        .put("clientAddress", caller.clientAddress())
        .put("credential", caller.credential().name())
        .put("email", caller.email())
        .put("username", caller.username())
        .put("serviceAccount", caller.serviceAccount())
        .put("tokenId", caller.tokenId())
        .encode();
  }

  static Caller decode(String encoded) {
    JsonObject json = new JsonObject(encoded);
    Set<String> roles = new HashSet<>();
    json.getJsonArray("roles", new JsonArray()).forEach(role -> roles.add((String) role));
    return new Caller(
        json.getString("subject"),
        roles,
        json.getString("clientAddress", ""),
        Caller.Credential.valueOf(json.getString("credential")),
        json.getString("email"),
        json.getString("username"),
        json.getString("serviceAccount"),
        json.getString("tokenId"));
  }
}
