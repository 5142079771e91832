package org.vfps.fhir;

import ca.uhn.fhir.context.FhirContext;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import org.hl7.fhir.instance.model.api.IBaseResource;
import org.hl7.fhir.r4.model.OperationOutcome.IssueType;
import org.hl7.fhir.r4.model.Resource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.vfps.text.MediaType;
import org.vfps.text.StrictDecoding;

/**
 * Reads a request body into a FHIR resource as the .NET service accepts it: {@code
 * application/fhir+json} or {@code application/json}, UTF-8 or UTF-16; anything else is a {@link
 * RefusedFhirRequest} (415 for the content type or charset, 400 for a body that is missing, not
 * valid text, beyond {@link JsonLimits} or no resource). Never quotes the body, which may hold
 * original values.
 */
final class RequestBodies {

  private static final Logger LOG = LoggerFactory.getLogger(RequestBodies.class);

  private RequestBodies() {}

  /**
   * The resource in the body.
   *
   * @param contentType the request's header, may be null
   * @param body may be null
   * @throws RefusedFhirRequest when the body is not a FHIR JSON resource
   */
  static Resource read(FhirContext fhir, String contentType, Buffer body) {
    if (!isFhirJson(contentType)) {
      throw new RefusedFhirRequest(
          415,
          IssueType.NOTSUPPORTED,
          "The request body must be application/fhir+json or application/json.",
          null);
    }
    Charset charset =
        charset(contentType)
            .orElseThrow(
                () ->
                    new RefusedFhirRequest(
                        415,
                        IssueType.NOTSUPPORTED,
                        "The request body must be UTF-8 or UTF-16.",
                        null));
    String text =
        decode(body, charset)
            .filter(decoded -> !decoded.isBlank())
            .orElseThrow(RequestBodies::malformed);
    if (!JsonLimits.within(text)) {
      throw malformed(
          IssueType.TOOCOSTLY,
          "nested deeper than "
              + JsonLimits.MAX_DEPTH
              + " levels, or a number with an exponent beyond "
              + JsonLimits.MAX_EXPONENT);
    }
    IBaseResource resource;
    try {
      resource = fhir.newJsonParser().parseResource(text);
    } catch (RuntimeException e) {
      // DataFormatException, mostly; but HAPI's parser throws others on input it cannot read (a
      // StringIndexOutOfBoundsException for an empty property name), and whatever it throws on
      // the client's body means the body is malformed. Its message may quote the body, and with
      // it an original value, so only the type is logged.
      LOG.debug("A FHIR request body did not parse ({})", e.getClass().getName());
      throw malformed();
    }
    if (!(resource instanceof Resource r4)) {
      throw malformed();
    }
    return r4;
  }

  /** The resource as the type the operation takes; a 400 naming both types otherwise. */
  static <T extends Resource> T require(Resource resource, Class<T> type) {
    if (!type.isInstance(resource)) {
      throw malformed(
          IssueType.PROCESSING,
          "expected a " + type.getSimpleName() + " resource, not " + resource.fhirType());
    }
    return type.cast(resource);
  }

  private static RefusedFhirRequest malformed() {
    return new RefusedFhirRequest(400, IssueType.PROCESSING, FhirErrors.MALFORMED, null);
  }

  /** A malformed body (400 with {@code issue}), its message saying what is wrong with it. */
  private static RefusedFhirRequest malformed(IssueType issue, String what) {
    return new RefusedFhirRequest(400, issue, FhirErrors.MALFORMED + ": " + what, null);
  }

  /** {@code application/fhir+json} or {@code application/json}, whatever the parameters. */
  static boolean isFhirJson(String contentType) {
    if (contentType == null) {
      return false;
    }
    String type = MediaType.of(contentType).type();
    return type.equals("application/fhir+json") || type.equals("application/json");
  }

  /** The declared charset, UTF-8 when none is; empty for one the service does not read. */
  static Optional<Charset> charset(String contentType) {
    Optional<String> declared = MediaType.of(contentType).charset();
    if (declared.isEmpty()) {
      return Optional.of(StandardCharsets.UTF_8);
    }
    return switch (declared.get().toUpperCase(Locale.ROOT)) {
      case "UTF-8", "UTF8" -> Optional.of(StandardCharsets.UTF_8);
      case "UTF-16" -> Optional.of(StandardCharsets.UTF_16);
      case "UTF-16LE" -> Optional.of(StandardCharsets.UTF_16LE);
      case "UTF-16BE" -> Optional.of(StandardCharsets.UTF_16BE);
      default -> Optional.empty();
    };
  }

  /** The body as text, without a byte order mark; empty when there is none or it is not valid. */
  private static Optional<String> decode(Buffer body, Charset charset) {
    if (body == null || body.length() == 0) {
      return Optional.empty();
    }
    return StrictDecoding.decode(body.getBytes(), charset)
        .map(text -> text.startsWith("\uFEFF") ? text.substring(1) : text);
  }
}
