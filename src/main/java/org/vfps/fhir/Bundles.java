package org.vfps.fhir;

import io.vertx.core.CompositeFuture;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.hl7.fhir.r4.model.Bundle;
import org.hl7.fhir.r4.model.Bundle.BundleEntryComponent;
import org.hl7.fhir.r4.model.Bundle.BundleType;
import org.hl7.fhir.r4.model.Bundle.HTTPVerb;
import org.hl7.fhir.r4.model.OperationOutcome;
import org.hl7.fhir.r4.model.OperationOutcome.IssueType;
import org.hl7.fhir.r4.model.Parameters;
import org.hl7.fhir.r4.model.StringType;
import org.vfps.access.Caller;
import org.vfps.access.Operation;

/**
 * {@code POST /v1/fhir} with a {@code batch} or {@code transaction} Bundle whose entries are {@code
 * POST $operation} requests of the {@link SystemOperation}s, each with a {@code Parameters}
 * resource.
 *
 * <p>A batch answers a {@code batch-response} with one entry per request, in order, each with its
 * own status: the operation's answer, {@code 201} for a new pair where the operation says so, a 4xx
 * with an {@code OperationOutcome} (as the entry's resource and its {@code response.outcome}) for
 * an entry that is not a request of ours or that failed. The entries run side by side, and the
 * creates among them share the multi-row statements of the write coalescer.
 *
 * <p>A transaction is all-or-nothing in what can be checked before storing: every entry is read and
 * its values checked, then every entry is checked against the database without storing anything
 * (the permission, the namespace, the lookups, whether each pair exists); only when all of that
 * succeeds are the new pairs stored. A failure answers with the first failing entry's status and
 * {@code OperationOutcome}, naming the entry, and nothing of the transaction stored. Because
 * creating is idempotent, a failure that can only happen while storing (the database going away, a
 * namespace deleted at that moment) may leave some of the pairs stored: the same transaction sent
 * again stores the rest and answers the same pseudonyms for all. {@code $pseudonymize-multiple} is
 * the exception: it makes new pseudonyms at every call, so sent again it makes more; and a
 * namespace of one pseudonym per value refuses it only while storing, when the other entries may be
 * stored.
 */
final class Bundles {

  private final PseudonymCalls calls;
  private final int maxEntries;

  /**
   * @param maxEntries the most entries one Bundle may hold
   */
  Bundles(PseudonymCalls calls, int maxEntries) {
    this.calls = calls;
    this.maxEntries = maxEntries;
  }

  /**
   * Checks the Bundle itself (type, entry count); a {@link RefusedFhirRequest} when it cannot be
   * processed.
   */
  void check(Bundle bundle) {
    if (bundle.getType() != BundleType.BATCH && bundle.getType() != BundleType.TRANSACTION) {
      throw RefusedFhirRequest.invalid(
          "The Bundle's type must be batch or transaction, not "
              + (bundle.getType() == null ? "missing" : bundle.getType().toCode())
              + ".",
          "Bundle.type");
    }
    if (bundle.getEntry().size() > maxEntries) {
      throw new RefusedFhirRequest(
          400,
          IssueType.TOOCOSTLY,
          "A Bundle holds at most "
              + maxEntries
              + " entries (Pseudonymization__Batch__MaxSize), not "
              + bundle.getEntry().size()
              + ".",
          "Bundle.entry");
    }
  }

  /** What the first entry that names an operation of ours asks for, for authentication. */
  static Operation operationOf(Bundle bundle) {
    return bundle.getEntry().stream()
        .map(entry -> operation(entry).orElse(null))
        .filter(operation -> operation != null)
        .findFirst()
        .map(SystemOperation::access)
        .orElse(Operation.PSEUDONYM_CREATE);
  }

  /** Processes a Bundle that passed {@link #check}; the future always succeeds. */
  Future<Answer> process(Caller caller, Bundle bundle) {
    return bundle.getType() == BundleType.TRANSACTION
        ? transaction(caller, bundle.getEntry())
        : batch(caller, bundle.getEntry());
  }

  private Future<Answer> batch(Caller caller, List<BundleEntryComponent> entries) {
    List<Future<Answer>> answers = new ArrayList<>(entries.size());
    for (int i = 0; i < entries.size(); i++) {
      PseudonymCall call;
      try {
        call = read(entries.get(i), i);
      } catch (RefusedFhirRequest rejection) {
        answers.add(Future.succeededFuture(rejection.answer()));
        continue;
      }
      answers.add(calls.run(caller, call));
    }
    return Future.all(answers).map(done -> response(BundleType.BATCHRESPONSE, results(done)));
  }

  private Future<Answer> transaction(Caller caller, List<BundleEntryComponent> entries) {
    List<PseudonymCall> read = new ArrayList<>(entries.size());
    for (int i = 0; i < entries.size(); i++) {
      try {
        PseudonymCall call = read(entries.get(i), i);
        Optional<Answer> invalid = calls.validate(call);
        if (invalid.isPresent()) {
          return Future.succeededFuture(failedEntry(i, invalid.get()));
        }
        read.add(call);
      } catch (RefusedFhirRequest rejection) {
        return Future.succeededFuture(failedEntry(i, rejection.answer()));
      }
    }
    List<Future<Optional<Answer>>> checks =
        read.stream().map(call -> calls.check(caller, call)).toList();
    return Future.all(checks)
        .compose(
            checked -> {
              for (int i = 0; i < read.size(); i++) {
                Optional<Answer> check = checks.get(i).result();
                if (check.isPresent() && !check.get().succeeded()) {
                  return Future.succeededFuture(failedEntry(i, check.get()));
                }
              }
              List<Future<Answer>> answers = new ArrayList<>(read.size());
              for (int i = 0; i < read.size(); i++) {
                Optional<Answer> check = checks.get(i).result();
                answers.add(
                    check.isPresent()
                        ? Future.succeededFuture(check.get())
                        : calls.run(caller, read.get(i)));
              }
              return Future.all(answers)
                  .map(
                      stored -> {
                        List<Answer> results = results(stored);
                        for (int i = 0; i < results.size(); i++) {
                          if (!results.get(i).succeeded()) {
                            return failedEntry(i, results.get(i));
                          }
                        }
                        return response(BundleType.TRANSACTIONRESPONSE, results);
                      });
            });
  }

  /** The entry's call; a {@link RefusedFhirRequest} naming the entry when it is not one of ours. */
  private static PseudonymCall read(BundleEntryComponent entry, int index) {
    String at = "Bundle.entry[" + index + "]";
    if (!entry.hasRequest() || entry.getRequest().getMethod() == null) {
      throw RefusedFhirRequest.invalid("The entry has no request.method.", at + ".request");
    }
    if (entry.getRequest().getMethod() != HTTPVerb.POST) {
      throw new RefusedFhirRequest(
          400,
          IssueType.NOTSUPPORTED,
          "Only POST is supported in a Bundle, not "
              + entry.getRequest().getMethod().toCode()
              + ".",
          at + ".request.method");
    }
    SystemOperation operation =
        operation(entry)
            .orElseThrow(
                () ->
                    new RefusedFhirRequest(
                        400,
                        IssueType.NOTSUPPORTED,
                        "The entry's request.url must be one of "
                            + Arrays.stream(SystemOperation.values())
                                .map(known -> "$" + known.code())
                                .collect(Collectors.joining(", "))
                            + ".",
                        at + ".request.url"));
    if (!(entry.getResource() instanceof Parameters parameters)) {
      throw RefusedFhirRequest.invalid(
          "The entry's resource must be a Parameters resource, not "
              + (entry.getResource() == null ? "missing" : entry.getResource().fhirType())
              + ".",
          at + ".resource");
    }
    return operation.read(parameters);
  }

  /** The operation an entry's {@code request.url} names: {@code $name}, or {@code /$name}. */
  private static Optional<SystemOperation> operation(BundleEntryComponent entry) {
    String url = entry.hasRequest() ? entry.getRequest().getUrl() : null;
    if (url == null) {
      return Optional.empty();
    }
    String name = url.startsWith("/") ? url.substring(1) : url;
    return name.startsWith("$") ? SystemOperation.named(name.substring(1)) : Optional.empty();
  }

  private static List<Answer> results(CompositeFuture done) {
    return done.<Answer>list();
  }

  private static Answer response(BundleType type, List<Answer> answers) {
    Bundle response = new Bundle().setType(type);
    for (Answer answer : answers) {
      BundleEntryComponent entry = response.addEntry().setResource(answer.resource());
      int status = answer.created() ? 201 : answer.status();
      entry.getResponse().setStatus(statusLine(status));
      if (!answer.succeeded()) {
        entry.getResponse().setOutcome(answer.resource().copy());
      }
    }
    return Answer.ok(response);
  }

  /** A transaction's answer for a failed entry: its status and outcome, naming the entry. */
  private static Answer failedEntry(int index, Answer answer) {
    String at = "Bundle.entry[" + index + "]";
    OperationOutcome outcome = ((OperationOutcome) answer.resource()).copy();
    for (OperationOutcome.OperationOutcomeIssueComponent issue : outcome.getIssue()) {
      issue.setDiagnostics(at + ": " + issue.getDiagnostics());
      issue.getExpression().addFirst(new StringType(at));
    }
    return new Answer(answer.status(), outcome, false);
  }

  /** The status of a batch-response entry: the code and the standard reason phrase. */
  static String statusLine(int status) {
    String phrase =
        switch (status) {
          case 200 -> "OK";
          case 201 -> "Created";
          case 400 -> "Bad Request";
          case 401 -> "Unauthorized";
          case 403 -> "Forbidden";
          case 404 -> "Not Found";
          case 409 -> "Conflict";
          case 410 -> "Gone";
          case 413 -> "Content Too Large";
          case 429 -> "Too Many Requests";
          case 500 -> "Internal Server Error";
          case 503 -> "Service Unavailable";
          default -> "";
        };
    return phrase.isEmpty() ? Integer.toString(status) : status + " " + phrase;
  }
}
