package org.vfps.config;

/**
 * An invalid or missing configuration value. The message names the key in its environment variable
 * form and what is wrong with the value; it never contains a password, a private key or a
 * connection string. Thrown by {@link ConfigLoader}, and at start-up by whatever checks what a
 * setting points at (the TLS files); either way the start stops with exit code 2.
 */
public final class ConfigException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public ConfigException(String message) {
    super(message);
  }
}
