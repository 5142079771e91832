package org.vfps;

import java.io.IOException;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/** The project's version as the pom gives it: what every other place that names it must say. */
public final class ProjectVersion {

  private ProjectVersion() {}

  /**
   * The {@code <version>} of {@code pom.xml}'s project (the build runs the tests in its folder).
   */
  public static String ofPom() {
    try {
      Element project =
          DocumentBuilderFactory.newInstance()
              .newDocumentBuilder()
              .parse(Path.of("pom.xml").toFile())
              .getDocumentElement();
      for (Node child = project.getFirstChild(); child != null; child = child.getNextSibling()) {
        if (child instanceof Element element && element.getTagName().equals("version")) {
          return element.getTextContent().strip();
        }
      }
      throw new AssertionError("pom.xml names no project version");
    } catch (IOException | ParserConfigurationException | SAXException e) {
      throw new AssertionError("pom.xml cannot be read", e);
    }
  }
}
