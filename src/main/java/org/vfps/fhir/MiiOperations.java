package org.vfps.fhir;

import java.util.List;
import org.hl7.fhir.r4.model.CodeableConcept;
import org.hl7.fhir.r4.model.Coding;
import org.hl7.fhir.r4.model.Identifier;
import org.hl7.fhir.r4.model.OperationOutcome;
import org.hl7.fhir.r4.model.OperationOutcome.IssueSeverity;
import org.hl7.fhir.r4.model.OperationOutcome.IssueType;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.Parameters.ParametersParameterComponent;
import org.hl7.fhir.r4.model.StringType;
import org.hl7.fhir.r4.model.Type;
import org.vfps.log.EdgeWarnings;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymService;

/**
 * The operations of the MII pseudonymization interface module, in two shapes. The 2026 shape
 * (2026.1 ballot): {@code context} and {@code original} or {@code pseudonym} as {@code
 * valueIdentifier}, the namespace being the context's {@code value}, answers with identifiers. The
 * version 1.1 shape (what the FHIR pseudonymizer's MII backend sends): {@code target} and {@code
 * original} or {@code pseudonym} as {@code valueString} or {@code valueIdentifier}, optionally
 * {@code allowCreate}, answering {@code pseudonym} as {@code valueString}. Either way the input
 * values are echoed unchanged, as the module allows.
 *
 * <ul>
 *   <li>{@code $pseudonymize}: create or get; with {@code allowCreate=false} (version 1.1) get
 *       only.
 *   <li>{@code $get-pseudonym}: get only, 404 when the original value has none.
 *   <li>{@code $pseudonymize-multiple} (2026 shape only): {@code count} new pseudonyms for the
 *       original value, answering those ({@code 201} in a batch-response), or with {@code count=0}
 *       every stored one (404 when it has none), each as a {@code pseudonym} with the parts {@code
 *       context}, {@code original} and {@code value}. The limits are those of {@code count} over
 *       gRPC: at most {@link PseudonymService#MAX_COUNT} pseudonyms per value, more than one only
 *       in a namespace that allows multiple pseudonyms.
 *   <li>{@code $de-pseudonymize}: the original value of a pseudonym (the reverse lookup); 410
 *       {@code deleted} when it was withdrawn.
 *   <li>{@code $delete-pseudonym} and {@code $anonymize-original}: consent withdrawal of an
 *       original value, answered with an {@code OperationOutcome} ({@code MSG_DELETED}, {@code
 *       MSG_UPDATED}), 404 when the value has no pseudonym.
 * </ul>
 *
 * An unknown context is 404 {@code not-found} with the module's expression; the other failures are
 * those of {@link FhirErrors}.
 */
final class MiiOperations {

  static final String PSEUDONYMIZE = "pseudonymize";
  static final String GET_PSEUDONYM = "get-pseudonym";
  static final String PSEUDONYMIZE_MULTIPLE = "pseudonymize-multiple";
  static final String DE_PSEUDONYMIZE = "de-pseudonymize";
  static final String DELETE_PSEUDONYM = "delete-pseudonym";
  static final String ANONYMIZE_ORIGINAL = "anonymize-original";

  private MiiOperations() {}

  /** {@code $pseudonymize}. */
  static PseudonymCall pseudonymize(Parameters parameters) {
    ParameterReader reader = new ParameterReader(parameters);
    Request request = Request.read(reader, "original");
    boolean allowCreate =
        reader.optional("allowCreate").map(ParameterReader::bool).orElse(Boolean.TRUE);
    return request.call(
        allowCreate ? PseudonymCall.Kind.CREATE : PseudonymCall.Kind.FIND,
        new PseudonymReply(PSEUDONYMIZE, request));
  }

  /** {@code $get-pseudonym}. */
  static PseudonymCall getPseudonym(Parameters parameters) {
    Request request = Request.read(new ParameterReader(parameters), "original");
    return request.call(PseudonymCall.Kind.FIND, new PseudonymReply(GET_PSEUDONYM, request));
  }

  /**
   * {@code $pseudonymize-multiple}: {@code context}, {@code original} and {@code count} (a {@code
   * valueInteger} from 0 to {@link PseudonymService#MAX_COUNT}).
   */
  static PseudonymCall pseudonymizeMultiple(Parameters parameters) {
    ParameterReader reader = new ParameterReader(parameters);
    if (reader.has("target")) {
      throw RefusedFhirRequest.invalid(
          "$pseudonymize-multiple takes 'context' (the 2026 interface), not 'target'.",
          ParameterReader.expression("target"));
    }
    Request request = Request.read(reader, "original");
    int count = ParameterReader.integer(reader.one("count"));
    if (count < 0 || count > PseudonymService.MAX_COUNT) {
      throw RefusedFhirRequest.invalid(
          "count must be at least 0 (0 answers the stored pseudonyms) and at most "
              + PseudonymService.MAX_COUNT
              + ", not "
              + count
              + ".",
          ParameterReader.expression("count"));
    }
    MultipleReply reply = new MultipleReply(request);
    return count == 0
        ? request.call(PseudonymCall.Kind.FIND_ALL, reply)
        : new PseudonymCall(
            PseudonymCall.Kind.ADD, request.namespace(), request.value(), count, reply);
  }

  /** {@code $de-pseudonymize}. */
  static PseudonymCall dePseudonymize(Parameters parameters) {
    Request request = Request.read(new ParameterReader(parameters), "pseudonym");
    return request.call(PseudonymCall.Kind.REVERSE_LOOKUP, new OriginalReply(request));
  }

  /** {@code $delete-pseudonym}. */
  static PseudonymCall deletePseudonym(Parameters parameters) {
    Request request = Request.read(new ParameterReader(parameters), "original");
    return request.call(
        PseudonymCall.Kind.DELETE,
        new WithdrawalReply(DELETE_PSEUDONYM, request, "MSG_DELETED", "Entry deleted."));
  }

  /** {@code $anonymize-original}. */
  static PseudonymCall anonymizeOriginal(Parameters parameters) {
    Request request = Request.read(new ParameterReader(parameters), "original");
    return request.call(
        PseudonymCall.Kind.ANONYMIZE,
        new WithdrawalReply(ANONYMIZE_ORIGINAL, request, "MSG_UPDATED", "Entry anonymized."));
  }

  /**
   * A request in either shape.
   *
   * @param contextName {@code context} (2026) or {@code target} (version 1.1)
   * @param context the context parameter's value as sent, for the echo
   * @param sent the value parameter's ({@code original} or {@code pseudonym}) value as sent, for
   *     the echo
   */
  private record Request(
      String contextName, Type context, String namespace, Type sent, String value) {

    static Request read(ParameterReader reader, String valueName) {
      boolean context = reader.has("context");
      if (context && reader.has("target")) {
        throw RefusedFhirRequest.invalid(
            "Give either 'context' (the 2026 interface) or 'target' (version 1.1), not both.",
            ParameterReader.expression("target"));
      }
      if (context || !reader.has("target")) {
        ParametersParameterComponent contextParameter = reader.one("context");
        ParametersParameterComponent valueParameter = reader.one(valueName);
        return new Request(
            "context",
            contextParameter.getValue(),
            ParameterReader.identifier(contextParameter).getValue(),
            valueParameter.getValue(),
            ParameterReader.identifier(valueParameter).getValue());
      }
      ParametersParameterComponent target = reader.one("target");
      ParametersParameterComponent valueParameter = reader.one(valueName);
      return new Request(
          "target",
          target.getValue(),
          ParameterReader.stringOrIdentifier(target),
          valueParameter.getValue(),
          ParameterReader.stringOrIdentifier(valueParameter));
    }

    /** The call that asks the domain for {@code kind} on this request's namespace and value. */
    PseudonymCall call(PseudonymCall.Kind kind, CallReply reply) {
      return new PseudonymCall(kind, namespace, value, reply);
    }

    boolean version11() {
      return contextName.equals("target");
    }

    /** A value the service returns, typed as this shape answers. */
    Type answered(String value) {
      return version11() ? new StringType(value) : new Identifier().setValue(value);
    }

    /** 404 for an original value without a pseudonym. */
    Answer originalUnknown() {
      return FhirErrors.notFound(
          "The original value has no pseudonym in the pseudonymization context '"
              + namespace
              + "'.",
          ParameterReader.expression("original"));
    }

    Answer failure(String operation, Throwable failure, EdgeWarnings warnings) {
      if (FhirErrors.isUnknownNamespace(failure)) {
        return FhirErrors.notFound(
            "The pseudonymization context '" + namespace + "' was not found.",
            ParameterReader.expression(contextName));
      }
      return FhirErrors.fail("$" + operation, failure, warnings);
    }
  }

  /**
   * The reply of an operation on an original value: 404 when it has no pseudonym, the failures
   * worded for the request's shape.
   */
  private interface OriginalValueReply extends CallReply {

    String operation();

    Request request();

    @Override
    default Answer unknownValue() {
      return request().originalUnknown();
    }

    @Override
    default Answer failure(Throwable failure, EdgeWarnings warnings) {
      return request().failure(operation(), failure, warnings);
    }
  }

  /** The reply of a call that creates or finds pseudonyms: a new pair is {@code 201 Created}. */
  private interface ForwardReply extends OriginalValueReply {

    @Override
    default boolean createdIs201() {
      return true;
    }
  }

  /** {@code context}, {@code original}, {@code pseudonym}: the answer of the two forward calls. */
  private record PseudonymReply(String operation, Request request) implements ForwardReply {

    @Override
    public Parameters success(Pseudonym pseudonym) {
      Parameters reply = new Parameters();
      reply.addParameter().setName(request.contextName()).setValue(request.context().copy());
      reply.addParameter().setName("original").setValue(request.sent().copy());
      reply
          .addParameter()
          .setName("pseudonym")
          .setValue(request.answered(pseudonym.pseudonymValue()));
      return reply;
    }
  }

  /**
   * {@code pseudonym} with the parts {@code context}, {@code original} and {@code value}, once per
   * pseudonym: the answer of {@code $pseudonymize-multiple}.
   */
  private record MultipleReply(Request request) implements ForwardReply {

    @Override
    public String operation() {
      return PSEUDONYMIZE_MULTIPLE;
    }

    @Override
    public Parameters success(Pseudonym pseudonym) {
      return successes(List.of(pseudonym));
    }

    @Override
    public Parameters successes(List<Pseudonym> pseudonyms) {
      Parameters reply = new Parameters();
      for (Pseudonym pseudonym : pseudonyms) {
        ParametersParameterComponent answered = reply.addParameter().setName("pseudonym");
        answered.addPart().setName("context").setValue(request.context().copy());
        answered.addPart().setName("original").setValue(request.sent().copy());
        answered.addPart().setName("value").setValue(request.answered(pseudonym.pseudonymValue()));
      }
      return reply;
    }
  }

  /** {@code original} with the parts context, {@code value} and {@code pseudonym}. */
  private record OriginalReply(Request request) implements CallReply {

    @Override
    public Parameters success(Pseudonym pseudonym) {
      Parameters reply = new Parameters();
      ParametersParameterComponent original = reply.addParameter().setName("original");
      original.addPart().setName(request.contextName()).setValue(request.context().copy());
      original.addPart().setName("value").setValue(request.answered(pseudonym.originalValue()));
      original.addPart().setName("pseudonym").setValue(request.sent().copy());
      return reply;
    }

    @Override
    public Answer unknownValue() {
      return FhirErrors.notFound(
          "The pseudonym was not found in the pseudonymization context '"
              + request.namespace()
              + "'.",
          ParameterReader.expression("pseudonym"));
    }

    @Override
    public Answer failure(Throwable failure, EdgeWarnings warnings) {
      return request.failure(DE_PSEUDONYMIZE, failure, warnings);
    }
  }

  /**
   * {@code successStatus}: the {@code OperationOutcome} of a withdrawal, answered as the module's
   * examples answer it, on its own.
   *
   * @param message the code of {@code http://terminology.hl7.org/CodeSystem/operation-outcome}
   */
  private record WithdrawalReply(
      String operation, Request request, String message, String diagnostics)
      implements OriginalValueReply {

    private static final String MESSAGES =
        "http://terminology.hl7.org/CodeSystem/operation-outcome";

    @Override
    public Parameters success(Pseudonym pseudonym) {
      throw new IllegalStateException("a withdrawal is answered by withdrawn()");
    }

    @Override
    public Answer withdrawn() {
      OperationOutcome outcome = new OperationOutcome();
      outcome
          .addIssue()
          .setSeverity(IssueSeverity.INFORMATION)
          .setCode(IssueType.INFORMATIONAL)
          .setDetails(new CodeableConcept(new Coding(MESSAGES, message, null)))
          .setDiagnostics(diagnostics);
      return Answer.ok(outcome);
    }
  }
}
