package org.vfps.fhir;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.parser.IParser;
import ca.uhn.fhir.parser.StrictErrorHandler;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.hl7.fhir.instance.model.api.IBaseResource;
import org.hl7.fhir.r4.model.CapabilityStatement;
import org.hl7.fhir.r4.model.CapabilityStatement.CapabilityStatementKind;
import org.hl7.fhir.r4.model.CapabilityStatement.RestfulCapabilityMode;
import org.hl7.fhir.r4.model.DateTimeType;
import org.hl7.fhir.r4.model.Enumerations.FHIRVersion;
import org.hl7.fhir.r4.model.Enumerations.PublicationStatus;
import org.hl7.fhir.r4.model.OperationOutcome.IssueType;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.Parameters.ParametersParameterComponent;
import org.hl7.fhir.r4.model.StringType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.access.Caller;
import org.vfps.pseudonym.PseudonymService;

/**
 * The FHIR R4 operations of the .NET service: {@code $create-pseudonym} (a {@code Parameters}
 * resource with the {@code valueString} parameters {@code namespace} and {@code originalValue} in,
 * the same plus {@code pseudonymValue} out) and {@code metadata} (a {@code CapabilityStatement}).
 * Failures are {@code OperationOutcome}s. One instance serves every event loop: the HAPI context is
 * thread-safe, and a parser is made per request.
 */
public final class FhirOperations {

  private static final Logger LOG = LoggerFactory.getLogger(FhirOperations.class);

  private static final String CREATE_PSEUDONYM = "$create-pseudonym";
  private static final DateTimeFormatter METADATA_DATE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss", Locale.ROOT);

  private final FhirContext fhir;
  private final PseudonymService pseudonyms;
  private final Clock clock;

  FhirOperations(FhirContext fhir, PseudonymService pseudonyms, Clock clock) {
    this.fhir = fhir;
    this.pseudonyms = pseudonyms;
    this.clock = clock;
  }

  /**
   * Creates the HAPI context and runs its slow first parse (the model scan, about a second) on a
   * worker thread, so that no event loop and no first request waits for it.
   */
  public static Future<FhirOperations> start(Vertx vertx, PseudonymService pseudonyms) {
    return vertx.executeBlocking(
        () -> {
          FhirOperations operations =
              new FhirOperations(newContext(), pseudonyms, Clock.systemUTC());
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
    Parameters parsed =
        parser.parseResource(
            Parameters.class,
            """
            {"resourceType": "Parameters", "parameter": [
              {"name": "namespace", "valueString": "warm-up"},
              {"name": "originalValue", "valueString": "warm-up"}]}
            """);
    parser.encodeResourceToString(parsed);
    metadata();
    FhirErrors.outcome(parser, 400, IssueType.PROCESSING, "warm-up");
  }

  /**
   * {@code POST $create-pseudonym}: the pseudonym of the original value, created on first use.
   * Never fails: every failure is a reply with an {@code OperationOutcome}.
   *
   * @param caller who asks, as the edge authenticated it
   * @param contentType the request's header, may be null
   * @param body the request body, may be null
   */
  public Future<FhirReply> createPseudonym(Caller caller, String contentType, Buffer body) {
    IParser parser = fhir.newJsonParser();
    if (!isFhirJson(contentType)) {
      return Future.succeededFuture(
          FhirErrors.reject(
              parser,
              415,
              IssueType.NOTSUPPORTED,
              "The request body must be application/fhir+json or application/json."));
    }
    Optional<Charset> charset = charset(contentType);
    if (charset.isEmpty()) {
      return Future.succeededFuture(
          FhirErrors.reject(
              parser, 415, IssueType.NOTSUPPORTED, "The request body must be UTF-8 or UTF-16."));
    }
    Optional<String> text = decode(body, charset.get());
    if (text.isEmpty() || text.get().isBlank()) {
      return Future.succeededFuture(
          FhirErrors.reject(parser, 400, IssueType.PROCESSING, FhirErrors.MALFORMED));
    }
    if (!JsonLimits.within(text.get())) {
      return Future.succeededFuture(
          FhirErrors.reject(
              parser,
              400,
              IssueType.TOOCOSTLY,
              FhirErrors.MALFORMED
                  + ": nested deeper than "
                  + JsonLimits.MAX_DEPTH
                  + " levels, or a number with an exponent beyond "
                  + JsonLimits.MAX_EXPONENT));
    }
    IBaseResource resource;
    try {
      resource = parser.parseResource(text.get());
    } catch (RuntimeException e) {
      // DataFormatException, mostly; but HAPI's parser throws others on input it cannot read (a
      // StringIndexOutOfBoundsException for an empty property name), and whatever it throws on
      // the client's body means the body is malformed. Its message may quote the body, and with
      // it an original value, so only the type is logged.
      LOG.debug("$create-pseudonym: the body did not parse ({})", e.getClass().getName());
      return Future.succeededFuture(
          FhirErrors.reject(parser, 400, IssueType.PROCESSING, FhirErrors.MALFORMED));
    }
    if (!(resource instanceof Parameters parameters)) {
      return Future.succeededFuture(
          FhirErrors.reject(
              parser,
              400,
              IssueType.PROCESSING,
              FhirErrors.MALFORMED
                  + ": expected a Parameters resource, not "
                  + fhir.getResourceType(resource)));
    }
    Optional<String> namespace = stringParameter(parameters, "namespace");
    Optional<String> originalValue = stringParameter(parameters, "originalValue");
    Optional<String> missing = missing(parameters, namespace, originalValue);
    if (missing.isPresent()) {
      return Future.succeededFuture(
          FhirErrors.reject(parser, 400, IssueType.PROCESSING, missing.get()));
    }
    return Future.<Void>succeededFuture()
        .compose(ignored -> pseudonyms.create(caller, namespace.get(), originalValue.get()))
        .map(
            created -> {
              Parameters reply = new Parameters();
              reply.addParameter().setName("namespace").setValue(new StringType(namespace.get()));
              reply
                  .addParameter()
                  .setName("originalValue")
                  .setValue(new StringType(originalValue.get()));
              reply
                  .addParameter()
                  .setName("pseudonymValue")
                  .setValue(new StringType(created.pseudonymValue()));
              return new FhirReply(200, parser.encodeResourceToString(reply));
            })
        .otherwise(failure -> FhirErrors.fail(parser, CREATE_PSEUDONYM, failure));
  }

  /**
   * {@code GET metadata}: the .NET service's CapabilityStatement, dated now in UTC without a zone
   * (as it writes it).
   */
  public FhirReply metadata() {
    CapabilityStatement statement = new CapabilityStatement();
    statement.setStatus(PublicationStatus.ACTIVE);
    statement.setDateElement(
        new DateTimeType(
            METADATA_DATE.format(
                LocalDateTime.ofInstant(
                    clock.instant().truncatedTo(ChronoUnit.SECONDS), ZoneOffset.UTC))));
    statement.setKind(CapabilityStatementKind.INSTANCE);
    statement.getSoftware().setName("VFPS FHIR API");
    statement.setFhirVersion(FHIRVersion._4_0_1);
    statement.addFormat("application/fhir+json");
    statement.addRest().setMode(RestfulCapabilityMode.SERVER);
    return new FhirReply(200, fhir.newJsonParser().encodeResourceToString(statement));
  }

  /**
   * The reply to a FHIR request the HTTP router failed before the operation ran, e.g. 413 for a
   * body over the limit.
   *
   * @param failure may be null
   */
  public FhirReply routerFailure(int status, Throwable failure) {
    return FhirErrors.routerFailure(fhir.newJsonParser(), status, failure);
  }

  /** The .NET checks: each parameter present once as a string, the original value not blank. */
  private static Optional<String> missing(
      Parameters parameters, Optional<String> namespace, Optional<String> originalValue) {
    List<String> problems = new ArrayList<>();
    for (String name : List.of("namespace", "originalValue")) {
      if (count(parameters, name) > 1) {
        problems.add("the parameter '" + name + "' must be given once");
      }
    }
    if (namespace.isEmpty()) {
      problems.add("the parameter 'namespace' (valueString) is missing");
    }
    if (originalValue.isEmpty()) {
      problems.add("the parameter 'originalValue' (valueString) is missing");
    } else if (originalValue.get().isBlank()) {
      problems.add("the parameter 'originalValue' is blank");
    }
    return problems.isEmpty()
        ? Optional.empty()
        : Optional.of("Invalid request: " + String.join("; ", problems) + ".");
  }

  /** The string value of the one parameter of that name; empty when absent or not a string. */
  private static Optional<String> stringParameter(Parameters parameters, String name) {
    if (count(parameters, name) != 1) {
      return Optional.empty();
    }
    return parameters.getParameter().stream()
        .filter(parameter -> name.equals(parameter.getName()))
        .map(ParametersParameterComponent::getValue)
        .filter(value -> value instanceof StringType string && string.getValue() != null)
        .map(value -> ((StringType) value).getValue())
        .findFirst();
  }

  private static long count(Parameters parameters, String name) {
    return parameters.getParameter().stream()
        .filter(parameter -> name.equals(parameter.getName()))
        .count();
  }

  /** {@code application/fhir+json} or {@code application/json}, whatever the parameters. */
  static boolean isFhirJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    String type = mediaType(contentType);
    return type.equals("application/fhir+json") || type.equals("application/json");
  }

  /** The declared charset, UTF-8 when none is; empty for one the service does not read. */
  static Optional<Charset> charset(String contentType) {
    String[] parts = contentType.split(";");
    for (int i = 1; i < parts.length; i++) {
      String[] pair = parts[i].split("=", 2);
      if (pair.length == 2 && pair[0].strip().equalsIgnoreCase("charset")) {
        String name = pair[1].strip().replace("\"", "").toUpperCase(Locale.ROOT);
        return switch (name) {
          case "UTF-8", "UTF8" -> Optional.of(StandardCharsets.UTF_8);
          case "UTF-16" -> Optional.of(StandardCharsets.UTF_16);
          case "UTF-16LE" -> Optional.of(StandardCharsets.UTF_16LE);
          case "UTF-16BE" -> Optional.of(StandardCharsets.UTF_16BE);
          default -> Optional.empty();
        };
      }
    }
    return Optional.of(StandardCharsets.UTF_8);
  }

  private static String mediaType(String contentType) {
    int semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.substring(0, semicolon))
        .strip()
        .toLowerCase(Locale.ROOT);
  }

  /** The body as text; empty when there is none or it is not valid in the charset. */
  private static Optional<String> decode(Buffer body, Charset charset) {
    if (body == null || body.length() == 0) {
      return Optional.empty();
    }
    try {
      String text =
          charset
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(body.getBytes()))
              .toString();
      return Optional.of(text.startsWith("\uFEFF") ? text.substring(1) : text);
    } catch (CharacterCodingException e) {
      return Optional.empty();
    }
  }
}
