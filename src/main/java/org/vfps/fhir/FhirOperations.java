package org.vfps.fhir;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.parser.StrictErrorHandler;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
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
import org.vfps.log.EdgeWarnings;
import org.vfps.pseudonym.PseudonymService;

/**
 * The FHIR R4 edge, independent of the HTTP library: the operations of the base {@code /v1/fhir}
 * (the .NET service's {@code $create-pseudonym}, the MII interface module's {@code $pseudonymize},
 * {@code $get-pseudonym}, {@code $pseudonymize-multiple} and {@code $de-pseudonymize}, batch and
 * transaction Bundles of them, the CapabilityStatement) and the gPAS TTP-FHIR gateway dialect of
 * {@code /ttp-fhir/fhir/gpas}. Every reply is FHIR JSON; every failure an {@code OperationOutcome}.
 * One instance serves every event loop: the HAPI context is thread-safe, and a parser is made per
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

  /** The whole-system interactions of the base {@code /v1/fhir}. */
  static final List<SystemRestfulInteraction> BASE_INTERACTIONS =
      List.of(SystemRestfulInteraction.BATCH, SystemRestfulInteraction.TRANSACTION);

  private final FhirContext fhir;
  private final Clock clock;
  private final PseudonymCalls calls;
  private final Bundles bundles;
  private final GpasOperations gpas;
  private final EdgeWarnings warnings;

  FhirOperations(
      FhirContext fhir,
      PseudonymService pseudonyms,
      Clock clock,
      int maxBatchSize,
      EdgeWarnings warnings) {
    this.fhir = fhir;
    this.clock = clock;
    this.calls = new PseudonymCalls(pseudonyms, warnings);
    this.bundles = new Bundles(calls, maxBatchSize);
    this.gpas = new GpasOperations(pseudonyms, maxBatchSize, warnings);
    this.warnings = warnings;
  }

  /** The R4 context, strict: a body with unknown elements or wrong JSON types is malformed. */
  static FhirContext newContext() {
    FhirContext fhir = FhirContext.forR4();
    fhir.setParserErrorHandler(new StrictErrorHandler());
    return fhir;
  }

  /**
   * {@code POST $<code>}: one of the whole-system operations of {@code /v1/fhir} (a {@link
   * SystemOperation}) on a {@code Parameters} body. The caller is authenticated first. Never fails:
   * every failure is a reply with an {@code OperationOutcome}.
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
        .otherwise(failure -> FhirErrors.fail("$" + code, failure, warnings))
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
        .otherwise(failure -> FhirErrors.fail(BUNDLE, failure, warnings))
        .map(this::reply);
  }

  /**
   * {@code GET /v1/fhir/metadata}: the CapabilityStatement, dated now in UTC without a zone (as the
   * .NET service writes it), listing every operation of the base.
   *
   * @param elements the {@code _elements} parameter, may be null
   */
  public FhirReply metadata(String elements) {
    return capabilities(elements, List.of(SystemOperation.values()), BASE_INTERACTIONS);
  }

  /**
   * {@code POST /ttp-fhir/fhir/gpas/$<code>}: an operation of the gPAS TTP-FHIR gateway dialect
   * ({@code pseudonymizeAllowCreate}, {@code pseudonymize}, {@code dePseudonymize}, or the older
   * {@code pseudonymize-allow-create} and {@code de-pseudonymize}) on a {@code Parameters} body;
   * see {@link GpasOperations}. The caller is authenticated first. Never fails.
   *
   * @throws IllegalArgumentException for a code that is none of those
   */
  public Future<FhirReply> gpas(String code, Callers callers, String contentType, Buffer body) {
    GpasOperation operation = GpasOperation.named(code);
    return callers
        .caller(operation.access())
        .compose(
            caller ->
                gpas.post(
                    operation,
                    caller,
                    RequestBodies.require(
                        RequestBodies.read(fhir, contentType, body), Parameters.class)))
        .otherwise(failure -> FhirErrors.fail("gPAS $" + code, failure, warnings))
        .map(this::reply);
  }

  /**
   * {@code GET /ttp-fhir/fhir/gpas/$<code>?domain=&original=} (or {@code pseudonym=}): the older
   * {@code pseudonymize-allow-create} and {@code de-pseudonymize} of gPAS before 1.10.2. Never
   * fails.
   *
   * @throws IllegalArgumentException for a code that is none of those two
   */
  public Future<FhirReply> gpasQuery(String code, Callers callers, MultiMap query) {
    GpasOperation operation = GpasOperation.named(code);
    if (!operation.legacy()) {
      throw new IllegalArgumentException("$" + code + " takes no query");
    }
    return callers
        .caller(operation.access())
        .compose(caller -> gpas.get(operation, caller, query))
        .otherwise(failure -> FhirErrors.fail("gPAS $" + code, failure, warnings))
        .map(this::reply);
  }

  /**
   * {@code GET /ttp-fhir/fhir/gpas/metadata}: the CapabilityStatement of the gPAS base, listing its
   * operations.
   *
   * @param elements the {@code _elements} parameter, may be null
   */
  public FhirReply gpasMetadata(String elements) {
    return capabilities(elements, List.of(GpasOperation.values()), List.of());
  }

  private FhirReply capabilities(
      String elements,
      List<? extends CapabilityStatements.Listed> operations,
      List<SystemRestfulInteraction> interactions) {
    return new FhirReply(
        200,
        CapabilityStatements.subset(fhir.newJsonParser(), elements)
            .encodeResourceToString(CapabilityStatements.of(clock, operations, interactions)));
  }

  /**
   * The reply to a FHIR request the HTTP router failed before the operation ran, e.g. 413 for a
   * body over the limit.
   *
   * @param failure may be null
   */
  public FhirReply routerFailure(int status, Throwable failure) {
    return reply(FhirErrors.routerFailure(status, failure, warnings));
  }

  /** The base of the .NET service's and the MII operations. */
  public static final String BASE = "/v1/fhir";

  /** The base of the gPAS TTP-FHIR gateway dialect. */
  public static final String GPAS_BASE = "/ttp-fhir/fhir/gpas";

  /**
   * The reply to a request under a FHIR base that no route serves: 404 {@code not-found} for a path
   * (such as a mistyped operation, {@code $create-pseudonyms}) naming the base's operations, 405
   * {@code not-supported} for a path that takes other methods.
   *
   * @param gpas whether the path lies under {@value #GPAS_BASE} (else under {@value #BASE})
   * @param operation the path's last segment if it names an operation ({@code $...}), else null;
   *     echoed, so the caller bounds it
   * @param allowed the methods the path takes, for a 405
   */
  public FhirReply unrouted(
      int status, boolean gpas, String method, String operation, String allowed) {
    if (status == 405) {
      return reply(
          FhirErrors.reject(
              "FHIR request",
              405,
              IssueType.NOTSUPPORTED,
              "This path of the FHIR base takes " + allowed + ", not " + method + ".",
              warnings));
    }
    String base = gpas ? GPAS_BASE : BASE;
    List<String> codes =
        gpas
            ? Arrays.stream(GpasOperation.values()).map(GpasOperation::code).toList()
            : Arrays.stream(SystemOperation.values()).map(SystemOperation::code).toList();
    String what =
        operation == null
            ? "nothing at this path"
            : "no operation '" + operation + "' (names are case-sensitive)";
    return reply(
        FhirErrors.reject(
            "FHIR request",
            404,
            IssueType.NOTFOUND,
            "The FHIR base "
                + base
                + " has "
                + what
                + ". Its operations: $"
                + String.join(", $", codes)
                + (gpas ? "" : "; a batch or transaction Bundle is POSTed to the base")
                + "; GET "
                + base
                + "/metadata lists them.",
            warnings));
  }

  private FhirReply reply(Answer answer) {
    return new FhirReply(
        answer.status(),
        fhir.newJsonParser().encodeResourceToString(answer.resource()),
        FhirErrors.retryAfterSeconds(answer));
  }
}
