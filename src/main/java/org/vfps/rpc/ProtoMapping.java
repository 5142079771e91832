package org.vfps.rpc;

import com.google.protobuf.Timestamp;
import java.time.Instant;
import java.util.List;
import org.vfps.alphabet.AlphabetFormat;
import org.vfps.api.v1.Meta;
import org.vfps.api.v1.Namespace;
import org.vfps.api.v1.NamespaceServiceCreateRequest;
import org.vfps.api.v1.NamespaceServiceListChildrenResponse;
import org.vfps.api.v1.Pseudonym;
import org.vfps.api.v1.PseudonymServiceBatchCreateResponse;
import org.vfps.api.v1.PseudonymServiceBatchGetResponse;
import org.vfps.api.v1.PseudonymServiceCreateResponse;
import org.vfps.api.v1.PseudonymServiceListResponse;
import org.vfps.api.v1.PseudonymServiceResolveResponse;
import org.vfps.api.x.formats.v1.NamespaceCapacity;
import org.vfps.api.x.formats.v1.PseudonymFormat;
import org.vfps.namespace.AlphabetFormatDraft;
import org.vfps.namespace.NamespaceDraft;
import org.vfps.pseudonym.PseudonymPage;

/** Domain values to proto messages and back; shared by every edge that speaks the protos. */
public final class ProtoMapping {

  private ProtoMapping() {}

  /**
   * The draft in a create request; the method and mode stay numbers so the domain can reject them.
   * As in the .NET service, an absent description or parent stays absent, and an absent regex is
   * {@code ""} (its getter's value).
   */
  public static NamespaceDraft toDraft(NamespaceServiceCreateRequest request) {
    return new NamespaceDraft(
        request.getName(),
        request.hasDescription() ? request.getDescription() : null,
        request.getPseudonymGenerationMethodValue(),
        Integer.toUnsignedLong(request.getPseudonymLength()),
        request.hasPseudonymPrefix() ? request.getPseudonymPrefix() : null,
        request.hasPseudonymSuffix() ? request.getPseudonymSuffix() : null,
        request.getOriginalValueValidationRegex(),
        request.getAllowsMultiplePseudonyms(),
        request.hasParentName() ? request.getParentName() : null,
        request.getParentValidationModeValue(),
        request.hasXFormat() ? toDraft(request.getXFormat()) : null);
  }

  private static AlphabetFormatDraft toDraft(PseudonymFormat format) {
    return new AlphabetFormatDraft(
        format.getAlphabet(),
        format.getCheckDigitValue(),
        Integer.toUnsignedLong(format.getGroupSize()),
        format.getGroupDelimiter());
  }

  private static PseudonymFormat toProto(AlphabetFormat format) {
    return PseudonymFormat.newBuilder()
        .setAlphabet(format.alphabet().symbols())
        .setCheckDigitValue(format.checkDigitKind().number())
        .setGroupSize(format.grouping().size())
        .setGroupDelimiter(format.grouping().delimiter())
        .build();
  }

  /**
   * Prefix and suffix are always set, as the .NET service sets them; description, regex and parent
   * only when the namespace has them.
   */
  public static Namespace toProto(org.vfps.namespace.Namespace namespace) {
    Namespace.Builder builder =
        Namespace.newBuilder()
            .setMeta(meta(namespace.createdAt(), namespace.lastUpdatedAt()))
            .setName(namespace.name())
            .setPseudonymGenerationMethodValue(namespace.generationMethod().number())
            .setPseudonymLength((int) namespace.pseudonymLength())
            .setPseudonymPrefix(namespace.pseudonymPrefix())
            .setPseudonymSuffix(namespace.pseudonymSuffix())
            .setAllowsMultiplePseudonyms(namespace.allowsMultiplePseudonyms())
            .setParentValidationModeValue(namespace.parentValidationMode().number());
    if (namespace.description() != null) {
      builder.setDescription(namespace.description());
    }
    if (namespace.originalValueRegex().text() != null) {
      builder.setOriginalValueValidationRegex(namespace.originalValueRegex().text());
    }
    if (namespace.parentName() != null) {
      builder.setParentName(namespace.parentName());
    }
    if (namespace.alphabetFormat() != null) {
      builder.setXFormat(toProto(namespace.alphabetFormat()));
    }
    return builder.build();
  }

  /** The namespace as Get answers it: with what its settings make and what it holds. */
  public static Namespace toProto(
      org.vfps.namespace.Namespace namespace, org.vfps.namespace.NamespaceCapacity capacity) {
    return toProto(namespace).toBuilder()
        .setXCapacity(
            NamespaceCapacity.newBuilder()
                .setDistinctPseudonyms(capacity.distinctPseudonyms())
                .setUsedPseudonyms(capacity.usedPseudonyms()))
        .build();
  }

  /** The namespaces of a ListChildren reply. */
  public static NamespaceServiceListChildrenResponse toListChildrenResponse(
      List<org.vfps.namespace.Namespace> namespaces) {
    NamespaceServiceListChildrenResponse.Builder response =
        NamespaceServiceListChildrenResponse.newBuilder();
    namespaces.forEach(namespace -> response.addNamespaces(toProto(namespace)));
    return response.build();
  }

  /** The original value is set only when the domain carries it (Create and Get, not List). */
  public static Pseudonym toProto(org.vfps.pseudonym.Pseudonym pseudonym) {
    Pseudonym.Builder builder =
        Pseudonym.newBuilder()
            .setMeta(meta(pseudonym.createdAt(), pseudonym.lastUpdatedAt()))
            .setNamespace(pseudonym.namespace())
            .setPseudonymValue(pseudonym.pseudonymValue())
            .setSequenceNumber(pseudonym.sequenceNumber());
    if (pseudonym.originalValue() != null) {
      builder.setOriginalValue(pseudonym.originalValue());
    }
    return builder.build();
  }

  /**
   * The answer of a create: the original value's pseudonyms by sequence number, the first of them
   * also on its own.
   */
  public static PseudonymServiceCreateResponse toCreateResponse(
      List<org.vfps.pseudonym.Pseudonym> pseudonyms) {
    List<Pseudonym> all = toProtos(pseudonyms);
    return PseudonymServiceCreateResponse.newBuilder()
        .setPseudonym(all.getFirst())
        .addAllPseudonyms(all)
        .build();
  }

  /** The answer of a resolve, shaped as that of a create. */
  public static PseudonymServiceResolveResponse toResolveResponse(
      List<org.vfps.pseudonym.Pseudonym> pseudonyms) {
    List<Pseudonym> all = toProtos(pseudonyms);
    return PseudonymServiceResolveResponse.newBuilder()
        .setPseudonym(all.getFirst())
        .addAllPseudonyms(all)
        .build();
  }

  /** The pseudonyms of a batch create, in request order. */
  public static PseudonymServiceBatchCreateResponse toBatchCreateResponse(
      String namespace, List<org.vfps.pseudonym.Pseudonym> pseudonyms) {
    return PseudonymServiceBatchCreateResponse.newBuilder()
        .setNamespace(namespace)
        .addAllPseudonyms(toProtos(pseudonyms))
        .build();
  }

  /** The pseudonyms of a batch lookup, in request order, with their original values. */
  public static PseudonymServiceBatchGetResponse toBatchGetResponse(
      String namespace, List<org.vfps.pseudonym.Pseudonym> pseudonyms) {
    return PseudonymServiceBatchGetResponse.newBuilder()
        .setNamespace(namespace)
        .addAllPseudonyms(toProtos(pseudonyms))
        .build();
  }

  static List<Pseudonym> toProtos(List<org.vfps.pseudonym.Pseudonym> pseudonyms) {
    return pseudonyms.stream().map(ProtoMapping::toProto).toList();
  }

  /** A page of pseudonyms; {@code total_size} is set only when the page carries it. */
  public static PseudonymServiceListResponse toListResponse(PseudonymPage page) {
    PseudonymServiceListResponse.Builder response =
        PseudonymServiceListResponse.newBuilder()
            .setNamespace(page.namespace())
            .setNextPageToken(page.nextPageToken());
    page.totalSize().ifPresent(response::setTotalSize);
    page.pseudonyms().forEach(pseudonym -> response.addPseudonyms(toProto(pseudonym)));
    return response.build();
  }

  private static Meta meta(Instant createdAt, Instant lastUpdatedAt) {
    return Meta.newBuilder()
        .setCreatedAt(timestamp(createdAt))
        .setLastUpdatedAt(timestamp(lastUpdatedAt))
        .build();
  }

  static Timestamp timestamp(Instant instant) {
    return Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }
}
