package org.vfps.fhir;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * What HAPI's parser is not given, because it would spend minutes or its stack on it: JSON nested
 * deeper than {@value #MAX_DEPTH} levels, or a number with an exponent beyond ±{@value
 * #MAX_EXPONENT} (HAPI writes {@code 1e999999} out in full, a million digits, and then parses them,
 * on the event loop). No real FHIR request comes near either limit. Thread-safe.
 */
final class JsonLimits {

  static final int MAX_DEPTH = 64;
  static final int MAX_EXPONENT = 1000;

  private static final JsonFactory JSON = new JsonFactory();

  private JsonLimits() {}

  /** Whether the text stays within the limits; text that is not JSON passes, for HAPI to reject. */
  static boolean within(String json) {
    try (JsonParser parser = JSON.createParser(json)) {
      int depth = 0;
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        switch (token) {
          case START_OBJECT, START_ARRAY -> {
            if (++depth > MAX_DEPTH) {
              return false;
            }
          }
          case END_OBJECT, END_ARRAY -> depth--;
          case VALUE_NUMBER_FLOAT -> {
            if (!moderateExponent(parser.getText())) {
              return false;
            }
          }
          default -> {
            // names, strings and the rest cost HAPI nothing out of the ordinary
          }
        }
      }
      return true;
    } catch (IOException e) {
      return true;
    }
  }

  private static boolean moderateExponent(String number) {
    int e = Math.max(number.indexOf('e'), number.indexOf('E'));
    if (e < 0) {
      return true;
    }
    String exponent = number.substring(e + 1);
    if (exponent.startsWith("+") || exponent.startsWith("-")) {
      exponent = exponent.substring(1);
    }
    // more than four digits is beyond the limit whatever they are
    return exponent.length() <= 4 && Integer.parseInt(exponent) <= MAX_EXPONENT;
  }
}
