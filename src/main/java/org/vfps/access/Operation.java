package org.vfps.access;

import java.util.List;

/**
 * The operations of the domain services with the permission each one needs: the table of the .NET
 * service's role model, in one place. The name is the RPC's, whatever the edge (gRPC, REST or
 * FHIR), as the audit trail and the denied-calls counter show it.
 */
public enum Operation {
  NAMESPACE_CREATE("NamespaceService/Create", Permission.ADMIN),
  /** Checked after the namespace is found, so an unknown namespace is NOT_FOUND for anyone. */
  NAMESPACE_GET("NamespaceService/Get", Permission.READ),
  /** Needs no permission: the answer holds only the namespaces the caller may read. */
  NAMESPACE_GET_ALL("NamespaceService/GetAll"),
  NAMESPACE_DELETE("NamespaceService/Delete", Permission.ADMIN),
  /**
   * Checked on the parent after it is found; the children are then filtered by read access, as
   * {@code GetAll} filters.
   */
  NAMESPACE_LIST_CHILDREN("NamespaceService/ListChildren", Permission.READ),
  /** Checked before the namespace is looked up. */
  PSEUDONYM_CREATE("PseudonymService/Create", Permission.WRITE),
  /** Many values of one namespace, checked once per call before the namespace is looked up. */
  PSEUDONYM_BATCH_CREATE("PseudonymService/BatchCreate", Permission.WRITE),
  /** Each item of a stream of creates, checked before its namespace is looked up. */
  PSEUDONYM_CREATE_STREAM("PseudonymService/CreateStream", Permission.WRITE),
  /**
   * The stored pseudonyms of an original value, creating none. Write, as upstream: it tells whether
   * a value has a pseudonym. Checked before the namespace is looked up.
   */
  PSEUDONYM_RESOLVE("PseudonymService/Resolve", Permission.WRITE),
  /** The reverse lookup. */
  PSEUDONYM_GET("PseudonymService/Get", Permission.REVERSE_LOOKUP),
  /** Reverse lookups of many values of one namespace, checked once per call. */
  PSEUDONYM_BATCH_GET("PseudonymService/BatchGet", Permission.REVERSE_LOOKUP),
  /** Checked after the namespace is found. */
  PSEUDONYM_LIST("PseudonymService/List", Permission.READ),
  /**
   * The forward lookup without creating (FHIR {@code $get-pseudonym}, gPAS {@code $pseudonymize});
   * no RPC serves it. Write, not read: a reader may list pseudonyms but not link one to an original
   * value, and a writer learns an original value's pseudonym through Create anyway. Checked before
   * the namespace is looked up.
   */
  PSEUDONYM_FIND("PseudonymService/Find", Permission.WRITE),
  /**
   * Deleting every pseudonym of an original value (consent withdrawn). Write and reverse lookup: it
   * destroys pairs, and the caller names a person's identifier. Checked before the namespace is
   * looked up, as every withdrawal.
   */
  PSEUDONYM_DELETE(
      "WithdrawalService/DeletePseudonyms", Permission.WRITE, Permission.REVERSE_LOOKUP),
  /** Deleting the pseudonyms of many original values of one namespace, checked once per call. */
  PSEUDONYM_BATCH_DELETE(
      "WithdrawalService/BatchDeletePseudonyms", Permission.WRITE, Permission.REVERSE_LOOKUP),
  /** Anonymizing an original value (consent withdrawn), its pseudonyms kept: as a delete. */
  PSEUDONYM_ANONYMIZE(
      "WithdrawalService/AnonymizeOriginal", Permission.WRITE, Permission.REVERSE_LOOKUP),
  /** Anonymizing many original values of one namespace, checked once per call. */
  PSEUDONYM_BATCH_ANONYMIZE(
      "WithdrawalService/BatchAnonymizeOriginals", Permission.WRITE, Permission.REVERSE_LOOKUP),
  /** A CSV job that pseudonymizes: write, checked on every mapped namespace. */
  CSV_JOB_PSEUDONYMIZE("CsvJobService/CreateCsvJob", Permission.WRITE),
  /** A CSV job that de-pseudonymizes: reverse lookup, checked on every mapped namespace. */
  CSV_JOB_DEPSEUDONYMIZE("CsvJobService/CreateCsvJob", Permission.REVERSE_LOOKUP),
  /**
   * A CSV job that imports pairs: write on its namespace, or on every namespace (a global grant)
   * when each row names its namespace.
   */
  CSV_JOB_IMPORT("CsvJobService/CreateCsvJob", Permission.WRITE),
  /** A CSV job that exports a namespace's pairs, original values included: reverse lookup. */
  CSV_JOB_EXPORT("CsvJobService/CreateCsvJob", Permission.REVERSE_LOOKUP),
  /**
   * Creating a CSV job: the service checks the permission of the job's direction ({@link
   * #CSV_JOB_PSEUDONYMIZE} ...) on every namespace it maps.
   */
  CSV_JOB_CREATE("CsvJobService/CreateCsvJob"),
  /** Starting, cancelling and reading a CSV job: its creator's, or an admin's. */
  CSV_JOB_START("CsvJobService/StartCsvJob"),
  CSV_JOB_CANCEL("CsvJobService/CancelCsvJob"),
  CSV_JOB_GET("CsvJobService/GetCsvJob"),
  /**
   * Reading the result of a CSV job that pseudonymized or imported (its download URL): write,
   * checked again at each read on every namespace of the job, as the reader's grants are then.
   */
  CSV_JOB_RESULT_NEEDING_WRITE("CsvJobService/GetCsvJob", Permission.WRITE),
  /**
   * Reading the result of a CSV job that de-pseudonymized or exported, original values included:
   * reverse lookup, checked again at each read on every namespace of the job.
   */
  CSV_JOB_RESULT_NEEDING_REVERSE_LOOKUP("CsvJobService/GetCsvJob", Permission.REVERSE_LOOKUP),
  /**
   * A CSV job's run on a worker; no RPC serves it. The end of a job that reveals original values is
   * audited under this name.
   */
  CSV_JOB_RUN("CsvJobService/RunCsvJob"),
  /** Listing CSV jobs: the caller's own; an admin's, all. */
  CSV_JOB_LIST("CsvJobService/ListCsvJobs"),
  ACCESS_LIST_GRANTS("AccessService/ListGrants", Permission.ADMIN),
  ACCESS_CREATE_GRANT("AccessService/CreateGrant", Permission.ADMIN),
  ACCESS_UPDATE_GRANT("AccessService/UpdateGrant", Permission.ADMIN),
  ACCESS_DELETE_GRANT("AccessService/DeleteGrant", Permission.ADMIN),
  ACCESS_LIST_SERVICE_ACCOUNTS("AccessService/ListServiceAccounts", Permission.ADMIN),
  ACCESS_CREATE_SERVICE_ACCOUNT("AccessService/CreateServiceAccount", Permission.ADMIN),
  ACCESS_DELETE_SERVICE_ACCOUNT("AccessService/DeleteServiceAccount", Permission.ADMIN),
  /** Anyone's own personal tokens; an admin's may be anyone's: checked by the service. */
  ACCESS_LIST_TOKENS("AccessService/ListAccessTokens"),
  /** A person's own token, or an admin's for a service account: checked by the service. */
  ACCESS_CREATE_TOKEN("AccessService/CreateAccessToken"),
  /** The owner's or an admin's: checked by the service once the token is found. */
  ACCESS_REVOKE_TOKEN("AccessService/RevokeAccessToken"),
  /** The owner's or an admin's: checked by the service once the token is found. */
  ACCESS_DELETE_TOKEN("AccessService/DeleteAccessToken"),
  /** gRPC server reflection: any authenticated caller, when authorization is on. */
  REFLECTION("ServerReflection/ServerReflectionInfo");

  private final String rpcName;
  private final List<Permission> permissions;

  Operation(String rpcName, Permission... permissions) {
    this.rpcName = rpcName;
    this.permissions = List.of(permissions);
  }

  /** The RPC's name, e.g. {@code PseudonymService/Get}. */
  public String rpcName() {
    return rpcName;
  }

  /**
   * Whether a caller without any right at all (see {@link Permissions#holdsAnyRight}) is refused
   * the operation right after authentication: every operation but reflection, which any
   * authenticated caller may use (as in the .NET vfps) and which takes no place in admission, and
   * the management of one's own access tokens, which a person may do before a grant gives their
   * roles a right, or after the last one went.
   */
  public boolean needsAnyRight() {
    return switch (this) {
      case REFLECTION,
          ACCESS_LIST_TOKENS,
          ACCESS_CREATE_TOKEN,
          ACCESS_REVOKE_TOKEN,
          ACCESS_DELETE_TOKEN ->
          false;
      default -> true;
    };
  }

  /**
   * What the operation needs, every one of them; empty when its answer is filtered instead or the
   * service checks it.
   */
  public List<Permission> permissions() {
    return permissions;
  }
}
