package org.vfps.fhir;

import ca.uhn.fhir.context.FhirContext;
import ca.uhn.fhir.parser.IParser;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.List;
import org.hl7.fhir.r4.model.Bundle;
import org.hl7.fhir.r4.model.OperationOutcome.IssueType;
import org.vfps.log.EdgeWarnings;
import org.vfps.pseudonym.PseudonymService;

/**
 * HAPI's R4 model, scanned: the context whose first parse (the model scan) takes most of a second
 * of CPU, done once on a worker thread, so that no event loop and no request waits for it.
 */
public final class FhirModel {

  private final FhirContext context;

  private FhirModel(FhirContext context) {
    this.context = context;
  }

  /** Makes the context and runs what the first requests run, on a worker thread. */
  public static Future<FhirModel> load(Vertx vertx) {
    return vertx.executeBlocking(
        () -> {
          FhirModel model = new FhirModel(FhirOperations.newContext());
          model.warmUp();
          return model;
        });
  }

  /** The FHIR operations on this model. */
  public FhirOperations operations(PseudonymService pseudonyms, EdgeWarnings warnings) {
    return new FhirOperations(
        context, pseudonyms, Clock.systemUTC(), pseudonyms.maxBatchSize(), warnings);
  }

  /** Parses and writes what the first requests do: a batch Bundle, the metadata, an outcome. */
  private void warmUp() {
    IParser parser = context.newJsonParser();
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
    CapabilityStatements.subset(context.newJsonParser(), null)
        .encodeResourceToString(
            CapabilityStatements.of(
                Clock.systemUTC(),
                List.of(SystemOperation.values()),
                FhirOperations.BASE_INTERACTIONS));
    context
        .newJsonParser()
        .encodeResourceToString(
            FhirErrors.outcome(400, IssueType.PROCESSING, "warm-up", null).resource());
  }
}
