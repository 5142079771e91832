package org.vfps.config;

/**
 * An invalid or missing configuration value. The message names the key in its environment variable
 * form and what is wrong with the value; it never contains a password or a connection string.
 */
public final class ConfigException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  ConfigException(String message) {
    super(message);
  }
}
