package org.vfps.fhir;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.parser.IParser;
import ca.uhn.fhir.parser.StrictErrorHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import org.hl7.fhir.r4.model.Bundle;
import org.hl7.fhir.r4.model.CapabilityStatement.SystemRestfulInteraction;
import org.hl7.fhir.r4.model.OperationOutcome.IssueType;
import org.hl7.fhir.r4.model.Parameters;
import org.vfps.access.Caller;
import org.vfps.access.Operation;
import org.vfps.pseudonym.PseudonymService;

/**
 * The FHIR R4 edge, independent of the HTTP library: the operations of the base {@code /v1/fhir}
 * (the .NET service's {@code $create-pseudonym}, the MII interface module's {@code $pseudonymize},
 * {@code $get-pseudonym} and {@code $de-pseudonymize}, batch and transaction Bundles of them, the
 * CapabilityStatement). Every reply is FHIR JSON; every failure an {@code OperationOutcome}. One
 * instance serves every event loop: the HAPI context is thread-safe, and a parser is made per
 * request.
 */
public final class FhirOperations {

  /**
   * The caller of a request, authenticated for the operation it asks for; the operations call it
   * once, when they know what the request asks for.
   */
  @FunctionalInterface
  public interface Callers {
    Future<Caller> caller(Operation operation);
  }

  private static final String BUNDLE = "Bundle";

  private final FhirContext fhir;
  private final Clock clock;
  private final PseudonymCalls calls;
  private final Bundles bundles;

  FhirOperations(FhirContext fhir, PseudonymService pseudonyms, Clock clock, int maxBatchSize) {
    this.fhir = fhir;
    this.clock = clock;
    this.calls = new PseudonymCalls(pseudonyms);
    this.bundles = new Bundles(calls, maxBatchSize);
  }

  /**
   * Creates the HAPI context and runs its slow first parse (the model scan, about a second) on a
   * worker thread, so that no event loop and no first request waits for it.
   */
  public static Future<FhirOperations> start(Vertx vertx, PseudonymService pseudonyms) {
    return vertx.executeBlocking(
        () -> {
          FhirOperations operations =
              new FhirOperations(newContext(), pseudonyms, Clock.systemUTC(), 10_000);
          operations.warmUp();
          return operations;
        });
  }

  /** The R4 context, strict: a body with unknown elements or wrong JSON types is malformed. */
  static FhirContext newContext() {
    FhirContext fhir = FhirContext.forR4();
    fhir.setParserErrorHandler(new StrictErrorHandler());
    return fhir;
  }

  private void warmUp() {
    IParser parser = fhir.newJsonParser();
    Bundle parsed =
        parser.parseResource(
            Bundle.class,
            """
            {"resourceType": "Bundle", "type": "batch", "entry": [{
              "request": {"method": "POST", "url": "$pseudonymize"},
              "resource": {"resourceType": "Parameters", "parameter": [
                {"name": "context", "valueIdentifier": {"value": "warm-up"}},
                {"name": "original", "valueString": "warm-up"}]}}]}
            """);
    parser.encodeResourceToString(parsed);
    metadata(null);
    reply(FhirErrors.outcome(400, IssueType.PROCESSING, "warm-up", null));
  }

  /**
   * {@code POST $<code>}: one of the whole-system operations of {@code /v1/fhir} ({@code
   * create-pseudonym}, {@code pseudonymize}, {@code get-pseudonym}, {@code de-pseudonymize}) on a
   * {@code Parameters} body. The caller is authenticated first. Never fails: every failure is a
   * reply with an {@code OperationOutcome}.
   *
   * @param contentType the request's header, may be null
   * @param body the request body, may be null
   * @throws IllegalArgumentException for a code that is none of those
   */
  public Future<FhirReply> operation(
      String code, Callers callers, String contentType, Buffer body) {
    SystemOperation operation =
        SystemOperation.named(code)
            .orElseThrow(() -> new IllegalArgumentException("no such operation: " + code));
    return callers
        .caller(operation.access())
        .compose(
            caller -> {
              Parameters parameters =
                  RequestBodies.require(
                      RequestBodies.read(fhir, contentType, body), Parameters.class);
              return calls.run(caller, operation.read(parameters));
            })
        .otherwise(failure -> FhirErrors.fail("$" + code, failure))
        .map(this::reply);
  }

  /**
   * {@code POST /v1/fhir}: a batch or transaction Bundle of those operations (see {@link Bundles}).
   * The Bundle is read before the caller is authenticated, for the operation its entries ask for.
   * Never fails.
   */
  public Future<FhirReply> bundle(Callers callers, String contentType, Buffer body) {
    return Future.<Void>succeededFuture()
        .compose(
            ignored -> {
              Bundle bundle =
                  RequestBodies.require(RequestBodies.read(fhir, contentType, body), Bundle.class);
              bundles.check(bundle);
              return callers
                  .caller(Bundles.operationOf(bundle))
                  .compose(caller -> bundles.process(caller, bundle));
            })
        .otherwise(failure -> FhirErrors.fail(BUNDLE, failure))
        .map(this::reply);
  }

  /**
   * {@code GET /v1/fhir/metadata}: the CapabilityStatement, dated now in UTC without a zone (as the
   * .NET service writes it), listing every operation of the base.
   *
   * @param elements the {@code _elements} parameter, may be null
   */
  public FhirReply metadata(String elements) {
    return new FhirReply(
        200,
        CapabilityStatements.subset(fhir.newJsonParser(), elements)
            .encodeResourceToString(
                CapabilityStatements.of(
                    clock,
                    Arrays.stream(SystemOperation.values())
                        .map(op -> new CapabilityStatements.Listed(op.code(), op.definition()))
                        .toList(),
                    List.of(
                        SystemRestfulInteraction.BATCH, SystemRestfulInteraction.TRANSACTION))));
  }

  /**
   * The reply to a FHIR request the HTTP router failed before the operation ran, e.g. 413 for a
   * body over the limit.
   *
   * @param failure may be null
   */
  public FhirReply routerFailure(int status, Throwable failure) {
    return reply(FhirErrors.routerFailure(status, failure));
  }

  private FhirReply reply(Answer answer) {
    return new FhirReply(
        answer.status(), fhir.newJsonParser().encodeResourceToString(answer.resource()));
  }
}
