package org.vfps.objectstore;

import java.net.URI;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A request a client sends straight to the object store.
 *
 * @param url the presigned URL
 * @param headers the headers the request must carry because the signature covers them (besides
 *     {@code Host}); unmodifiable
 * @param expiresAt when the URL stops working
 */
public record PresignedRequest(URI url, Map<String, String> headers, Instant expiresAt) {

  public PresignedRequest {
    Objects.requireNonNull(url, "url");
    headers = Map.copyOf(headers);
    Objects.requireNonNull(expiresAt, "expiresAt");
  }
}
