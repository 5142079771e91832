/**
 * Namespaces: the generation settings pseudonyms are made with, their validation and {@link
 * org.vfps.namespace.NamespaceService}. Storage is reached through {@link
 * org.vfps.namespace.NamespaceRepository}.
 */
package org.vfps.namespace;
