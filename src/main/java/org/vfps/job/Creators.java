package org.vfps.job;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Set;
import org.vfps.access.Caller;
import org.vfps.access.CallerId;

/**
 * The caller a job runs for, as stored with the job ({@code vfps_csv_job_runs.creator}): who it is
 * ({@code issuer} and {@code subject}: the job's owner) and its permissions, which are checked
 * again on every chunk, against the grants of that moment, so a revoked grant stops the job.
 */
final class Creators {

  private Creators() {}

  static String encode(Caller caller) {
    return new JsonObject()
        .put("issuer", caller.id().issuer().name())
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
    Caller.Credential credential = Caller.Credential.valueOf(json.getString("credential"));
    String subject = json.getString("subject");
    String issuer = json.getString("issuer");
    return new Caller(
        new CallerId(
            issuer != null
                ? CallerId.Issuer.valueOf(issuer)
                : issuerBefore(credential, json.getString("serviceAccount")),
            subject),
        roles,
        json.getString("clientAddress", ""),
        credential,
        json.getString("email"),
        json.getString("username"),
        json.getString("serviceAccount"),
        json.getString("tokenId"));
  }

  /**
   * The issuer of a creator stored before creators named theirs, from its credential; as {@code
   * CsvJobQueries.CREATOR_ISSUER} derives it.
   */
  private static CallerId.Issuer issuerBefore(Caller.Credential credential, String serviceAccount) {
    if (serviceAccount != null) {
      return CallerId.Issuer.SERVICE_ACCOUNT;
    }
    return switch (credential) {
      case NONE -> CallerId.Issuer.NONE;
      case CLIENT_ACCOUNT -> CallerId.Issuer.CLIENT_ACCOUNT;
      case PROVIDER_TOKEN, ACCESS_TOKEN -> CallerId.Issuer.PROVIDER_SUB;
    };
  }
}
