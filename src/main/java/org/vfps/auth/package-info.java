/**
 * Authentication at the edges: turns a request's {@code Authorization} header into an {@link
 * org.vfps.access.Caller}. Bearer tokens are JWTs checked locally against the signing keys of the
 * OIDC provider (discovery, a key cache refreshed periodically and on an unknown key id, a cache of
 * validated tokens); Basic credentials are checked against the configured client accounts (PBKDF2,
 * verified once, then by a fast digest).
 */
package org.vfps.auth;
