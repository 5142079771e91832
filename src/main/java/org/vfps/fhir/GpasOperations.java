package org.vfps.fhir;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.hl7.fhir.r4.model.Coding;
import org.hl7.fhir.r4.model.Identifier;
import org.hl7.fhir.r4.model.OperationOutcome.IssueType;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.Parameters.ParametersParameterComponent;
import org.hl7.fhir.r4.model.StringType;
import org.vfps.access.Caller;
import org.vfps.log.EdgeWarnings;
import org.vfps.pseudonym.Pseudonym;
import org.vfps.pseudonym.PseudonymService;
import org.vfps.pseudonym.ReverseLookup;
import org.vfps.pseudonym.Withdrawal;

/**
 * The gPAS TTP-FHIR gateway dialect, so that gPAS clients (the FHIR pseudonymizer's gPAS backend,
 * FTS-next's trust centre agent) work unchanged: the domain is the namespace.
 *
 * <p>{@code $pseudonymizeAllowCreate}, {@code $pseudonymize} and {@code $dePseudonymize} take
 * {@code target} and 1..* {@code original} or {@code pseudonym} ({@code valueString}) and answer
 * one parameter per value, in request order: {@code pseudonym} (or {@code original}) with the parts
 * {@code target}, {@code original} and {@code pseudonym} as identifiers of the system {@value
 * #SYSTEM}, or {@code error} with the value and an {@code error-code} from {@code
 * http://hl7.org/fhir/issue-type} ({@code not-found}, {@code invalid} for a value that fails on its
 * own: blank, too long, refused by the domain's validation regex, or a pseudonym whose check digit
 * does not match), inside a 200; the other values are made. {@code $pseudonymize} creates nothing.
 * The values of one call go to the domain as one batch: one permission check, the multi-row
 * statements of the batch calls.
 *
 * <p>{@code $deletePseudonyms} and {@code $anonymizeOriginals} take {@code target} and 1..* {@code
 * original} and answer one {@code successStatus} per value (see {@link #withdraw}) inside a 200. A
 * withdrawn pseudonym's {@code $dePseudonymize} is an {@code error} with {@code deleted}.
 *
 * <p>The older shapes take one value: {@code GET $pseudonymize-allow-create?domain=&original=} and
 * {@code GET $de-pseudonymize?domain=&pseudonym=} answer a parameter named after the value with the
 * result as {@code valueString}; {@code POST} of the same two with {@code target} and the value
 * answers {@code pseudonym-result-set} with {@code valueString} parts. Their failures are
 * whole-call {@code OperationOutcome}s (404 for an unknown pseudonym).
 *
 * <p>An unknown domain is a 400 whose diagnostics start with {@code Unknown domain}, as gPAS
 * answers it; FTS-next acts on the status alone.
 */
final class GpasOperations {

  /** The system of every identifier the gateway answers. */
  static final String SYSTEM = "https://ths-greifswald.de/gpas";

  /** The code system of a withdrawal's success codes. */
  static final String MESSAGES = "http://terminology.hl7.org/CodeSystem/operation-outcome";

  private final PseudonymService pseudonyms;
  private final int maxValues;
  private final EdgeWarnings warnings;

  /**
   * @param maxValues the most values one call may hold
   * @param warnings logs the calls that failed UNAVAILABLE
   */
  GpasOperations(PseudonymService pseudonyms, int maxValues, EdgeWarnings warnings) {
    this.pseudonyms = pseudonyms;
    this.maxValues = maxValues;
    this.warnings = warnings;
  }

  /** {@code POST $<operation>} with its {@code Parameters}. */
  Future<Answer> post(GpasOperation operation, Caller caller, Parameters parameters) {
    ParameterReader reader = new ParameterReader(parameters);
    String domain = ParameterReader.string(reader.one("target"));
    List<String> values =
        reader.all(operation.valueName()).stream().map(ParameterReader::string).toList();
    if (values.isEmpty()) {
      throw RefusedFhirRequest.invalid(
          "The parameter '" + operation.valueName() + "' is missing.",
          ParameterReader.expression(operation.valueName()));
    }
    if (operation.legacy()) {
      if (values.size() > 1) {
        throw RefusedFhirRequest.invalid(
            "$" + operation.code() + " takes one '" + operation.valueName() + "'.",
            ParameterReader.expression(operation.valueName()));
      }
      return single(operation, caller, domain, values.getFirst(), false);
    }
    if (values.size() > maxValues) {
      throw new RefusedFhirRequest(
          400,
          IssueType.TOOCOSTLY,
          "A call holds at most "
              + maxValues
              + " values (Pseudonymization__Batch__MaxSize), not "
              + values.size()
              + ".",
          ParameterReader.expression(operation.valueName()));
    }
    return many(operation, caller, domain, values);
  }

  /** {@code GET $<operation>?domain=&<value>=} of the shape of gPAS before 1.10.2. */
  Future<Answer> get(GpasOperation operation, Caller caller, MultiMap query) {
    return single(
        operation,
        caller,
        queryParameter(query, "domain"),
        queryParameter(query, operation.valueName()),
        true);
  }

  private static String queryParameter(MultiMap query, String name) {
    List<String> values = query.getAll(name);
    if (values.size() != 1) {
      throw RefusedFhirRequest.invalid(
          "The query parameter '" + name + "' must be given once, not " + values.size() + " times.",
          null);
    }
    return values.getFirst();
  }

  /** What became of one value of a call: its pseudonym (with original value), or an error code. */
  private record Result(Pseudonym pseudonym, IssueType error) {

    /** A lookup's result: a pseudonym whose original value was withdrawn is {@code deleted}. */
    static Result of(Optional<Pseudonym> found) {
      return found
          .map(p -> p.withdrawn() ? new Result(null, IssueType.DELETED) : new Result(p, null))
          .orElse(new Result(null, IssueType.NOTFOUND));
    }

    /**
     * A batch lookup's result: a value refused on its own (a mistyped pseudonym, whose check digit
     * does not match) is {@code invalid}, as a value gPAS could never have made.
     */
    static Result ofLookup(ReverseLookup lookup) {
      return lookup.refusal() != null ? INVALID : of(lookup.found());
    }

    static final Result INVALID = new Result(null, IssueType.INVALID);
  }

  private Future<Answer> many(
      GpasOperation operation, Caller caller, String domain, List<String> values) {
    Optional<Withdrawal> withdrawal = operation.kind().withdrawal();
    if (withdrawal.isPresent()) {
      return withdraw(operation, withdrawal.get(), caller, domain, values);
    }
    Future<List<Result>> results =
        switch (operation.kind()) {
          case CREATE ->
              pseudonyms
                  .createEachValid(caller, domain, values)
                  .map(
                      created ->
                          created.stream()
                              .map(
                                  made -> made.map(p -> new Result(p, null)).orElse(Result.INVALID))
                              .toList());
          case FIND ->
              pseudonyms
                  .findAll(caller, domain, values)
                  .map(
                      found -> {
                        List<Result> answered = new ArrayList<>(values.size());
                        for (int i = 0; i < values.size(); i++) {
                          answered.add(
                              PseudonymService.isStorable(values.get(i))
                                  ? Result.of(found.get(i))
                                  : Result.INVALID);
                        }
                        return answered;
                      });
          case REVERSE_LOOKUP ->
              pseudonyms
                  .lookupAll(caller, domain, values)
                  .map(found -> found.stream().map(Result::ofLookup).toList());
          case RESOLVE, FIND_ALL, ADD ->
              throw new IllegalStateException(
                  "the gPAS dialect has no " + operation.kind() + " operation");
          case DELETE, ANONYMIZE ->
              throw new IllegalStateException("withdrawals are answered by withdraw()");
        };
    return results
        .map(answered -> Answer.ok(encode(operation, domain, values, answered)))
        .otherwise(failure -> failure(operation, failure));
  }

  /**
   * {@code $deletePseudonyms} and {@code $anonymizeOriginals}: one {@code successStatus} per value,
   * in request order, with the parts {@code target}, {@code original} and {@code result-code}:
   * {@code MSG_DELETED} or {@code MSG_UPDATED} of {@value #MESSAGES}, else {@code not-found} (no
   * pseudonym) or {@code invalid} (a value that could never be stored) of {@code
   * http://hl7.org/fhir/issue-type}, as the gateway's guide answers them.
   */
  private Future<Answer> withdraw(
      GpasOperation operation,
      Withdrawal withdrawal,
      Caller caller,
      String domain,
      List<String> values) {
    List<String> valid = values.stream().filter(PseudonymService::isStorable).toList();
    Coding done =
        new Coding(
            MESSAGES,
            withdrawal == Withdrawal.DELETE ? "MSG_DELETED" : "MSG_UPDATED",
            withdrawal == Withdrawal.DELETE ? "Entry deleted" : "Entry updated");
    return pseudonyms
        .withdrawAll(caller, withdrawal, domain, valid)
        .map(
            withdrawn -> {
              Iterator<List<Pseudonym>> next = withdrawn.iterator();
              Parameters reply = new Parameters();
              for (String value : values) {
                Coding result =
                    !PseudonymService.isStorable(value)
                        ? issue(IssueType.INVALID)
                        : next.next().isEmpty() ? issue(IssueType.NOTFOUND) : done.copy();
                ParametersParameterComponent status = reply.addParameter().setName("successStatus");
                status.addPart().setName("target").setValue(identifier(domain));
                status.addPart().setName("original").setValue(identifier(value));
                status.addPart().setName("result-code").setValue(result);
              }
              return Answer.ok(reply);
            })
        .otherwise(failure -> failure(operation, failure));
  }

  private static Coding issue(IssueType type) {
    return new Coding(type.getSystem(), type.toCode(), type.getDisplay());
  }

  private static Parameters encode(
      GpasOperation operation, String domain, List<String> values, List<Result> results) {
    boolean reverse = operation.kind() == PseudonymCall.Kind.REVERSE_LOOKUP;
    Parameters reply = new Parameters();
    for (int i = 0; i < values.size(); i++) {
      String value = values.get(i);
      Result result = results.get(i);
      if (result.error() != null) {
        ParametersParameterComponent error = reply.addParameter().setName("error");
        error.addPart().setName("target").setValue(identifier(domain));
        error.addPart().setName(operation.valueName()).setValue(identifier(value));
        error.addPart().setName("error-code").setValue(issue(result.error()));
        continue;
      }
      ParametersParameterComponent answer =
          reply.addParameter().setName(reverse ? "original" : "pseudonym");
      answer.addPart().setName("target").setValue(identifier(domain));
      answer
          .addPart()
          .setName("original")
          .setValue(identifier(reverse ? result.pseudonym().originalValue() : value));
      answer
          .addPart()
          .setName("pseudonym")
          .setValue(identifier(reverse ? value : result.pseudonym().pseudonymValue()));
    }
    return reply;
  }

  private static Identifier identifier(String value) {
    return new Identifier().setSystem(SYSTEM).setValue(value);
  }

  /** One value in an older shape: named after the value (GET), or a result set (POST). */
  private Future<Answer> single(
      GpasOperation operation,
      Caller caller,
      String domain,
      String value,
      boolean namedAfterValue) {
    Future<Optional<Pseudonym>> found =
        operation.kind() == PseudonymCall.Kind.CREATE
            ? pseudonyms.create(caller, domain, value).map(Optional::of)
            : pseudonyms.lookup(caller, domain, value);
    return found
        .map(
            result ->
                result
                    .map(
                        pseudonym ->
                            Answer.ok(legacyReply(domain, pseudonym, namedAfterValue, operation)))
                    .orElseGet(
                        () ->
                            FhirErrors.notFound(
                                "The pseudonym was not found in the domain '" + domain + "'.",
                                null)))
        .otherwise(failure -> failure(operation, failure));
  }

  private static Parameters legacyReply(
      String domain, Pseudonym pseudonym, boolean namedAfterValue, GpasOperation operation) {
    boolean reverse = operation.kind() == PseudonymCall.Kind.REVERSE_LOOKUP;
    Parameters reply = new Parameters();
    if (namedAfterValue) {
      reply
          .addParameter()
          .setName(reverse ? pseudonym.pseudonymValue() : pseudonym.originalValue())
          .setValue(
              new StringType(reverse ? pseudonym.originalValue() : pseudonym.pseudonymValue()));
      return reply;
    }
    ParametersParameterComponent set = reply.addParameter().setName("pseudonym-result-set");
    set.addPart().setName("target").setValue(new StringType(domain));
    set.addPart().setName("original").setValue(new StringType(pseudonym.originalValue()));
    set.addPart().setName("pseudonym").setValue(new StringType(pseudonym.pseudonymValue()));
    return reply;
  }

  /** An unknown domain as gPAS answers it; the other failures as {@link FhirErrors} maps them. */
  private Answer failure(GpasOperation operation, Throwable failure) {
    if (FhirErrors.isUnknownNamespace(failure)) {
      return FhirErrors.outcome(
          400,
          IssueType.PROCESSING,
          "Unknown domain '" + FhirErrors.namespaceOf(failure) + "'.",
          ParameterReader.expression("target"));
    }
    return FhirErrors.fail("gPAS $" + operation.code(), failure, warnings);
  }
}
