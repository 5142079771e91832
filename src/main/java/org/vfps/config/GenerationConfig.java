package org.vfps.config;

/**
 * The generation methods a deployment offers ({@code Pseudonymization__*}).
 *
 * @param sha256Enabled whether SHA-256 ({@code PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED})
 *     makes new pseudonyms: new namespaces and new original values of existing ones ({@code
 *     Sha256__IsEnabled}); when false, the values that have a pseudonym keep it
 */
public record GenerationConfig(boolean sha256Enabled) {}
