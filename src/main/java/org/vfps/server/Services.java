package org.vfps.server;

import org.vfps.access.AccessAdmin;
import org.vfps.access.Permissions;
import org.vfps.admission.Admission;
import org.vfps.auth.Authenticator;
import org.vfps.job.CsvJobService;
import org.vfps.log.EdgeWarnings;
import org.vfps.namespace.NamespaceService;
import org.vfps.pseudonym.PseudonymService;
import org.vfps.storage.Database;

/** The shared objects every verticle of the server is given; built by {@link ServiceWiring}. */
record Services(
    Database database,
    Admission admission,
    EdgeWarnings warnings,
    Permissions permissions,
    Authenticator authenticator,
    NamespaceService namespaces,
    PseudonymService pseudonyms,
    AccessAdmin accessAdmin,
    CsvJobService csvJobs) {}
