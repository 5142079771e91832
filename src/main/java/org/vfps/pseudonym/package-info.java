/** The pseudonym model, its generators, list page tokens and the pseudonym service. */
package org.vfps.pseudonym;
