package org.vfps.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.List;

/**
 * {@code vfps_service_account_token_expiration_timestamp_seconds{service_account,token_id,
 * token_name}}: the expiry of every service-account token not revoked (expired ones included), as
 * the last read found them; a series goes when its token is revoked or deleted. Every replica
 * serves it, so a query aggregates with {@code max}.
 */
public final class TokenExpiryGauges {

  /** A token's expiry, as the gauge shows it. */
  public record Expiry(String serviceAccount, String tokenId, String tokenName, long epochSecond) {}

  private final MultiGauge gauge;

  TokenExpiryGauges(MeterRegistry registry) {
    this.gauge =
        MultiGauge.builder("vfps.service_account.token.expiration.timestamp.seconds")
            .description(
                "When each service-account token not revoked expires, in seconds since the epoch")
            .register(registry);
  }

  /** Sets the series to a finished read: one per token, the others removed. */
  void read(List<Expiry> expiries) {
    gauge.register(
        expiries.stream()
            .map(
                expiry ->
                    MultiGauge.Row.of(
                        Tags.of(
                            "service_account", expiry.serviceAccount(),
                            "token_id", expiry.tokenId(),
                            "token_name", expiry.tokenName()),
                        expiry.epochSecond()))
            .toList(),
        true);
  }
}
