package org.vfps;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * ARCHITECTURE.md's table of packages states the rules {@link PackageRulesTest} enforces: a row per
 * package of {@link PackageRules}, naming the same packages it may use.
 */
class ArchitectureTableTest {

  private static final Path DOCUMENT = Path.of("ARCHITECTURE.md");

  /** The heading of the section whose first table is the one of packages. */
  private static final String SECTION = "## Packages and what each may use";

  /** What the root package's row names in its first column. */
  private static final String ROOT = "org.vfps";

  /** What a row says in its last column for a package that may use all the others. */
  private static final String EVERY_OTHER_PACKAGE = "every other package";

  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  @Test
  void theTableOfPackagesStatesTheRulesThePackagesAreHeldTo() throws IOException {
    Map<String, Set<String>> table = table(Files.readAllLines(DOCUMENT));
    Map<String, Set<String>> rules = new TreeMap<>(PackageRules.MAY_USE);
    rules.put(ROOT, new TreeSet<>(PackageRules.ROOT_MAY_USE));

    List<String> differences = new ArrayList<>();
    for (Map.Entry<String, Set<String>> rule : rules.entrySet()) {
      Set<String> row = table.get(rule.getKey());
      if (row == null) {
        differences.add(
            "no row for `%s`, which PackageRules lets use %s"
                .formatted(rule.getKey(), rule.getValue()));
        continue;
      }
      Set<String> onlyInTable = new TreeSet<>(row);
      onlyInTable.removeAll(rule.getValue());
      Set<String> onlyInRules = new TreeSet<>(rule.getValue());
      onlyInRules.removeAll(row);
      if (!onlyInTable.isEmpty()) {
        differences.add(
            "the row of `%s` allows %s, which PackageRules does not"
                .formatted(rule.getKey(), onlyInTable));
      }
      if (!onlyInRules.isEmpty()) {
        differences.add(
            "the row of `%s` leaves out %s, which PackageRules allows"
                .formatted(rule.getKey(), onlyInRules));
      }
    }
    for (String name : table.keySet()) {
      if (!rules.containsKey(name)) {
        differences.add("a row of `%s`, a package PackageRules does not know".formatted(name));
      }
    }
    assertThat(differences)
        .withFailMessage(
            "ARCHITECTURE.md's table under \"%s\" against PackageRules (src/test/java/org/vfps):%n  %s",
            SECTION.substring(3), String.join("\n  ", differences))
        .isEmpty();
  }

  /**
   * The rows of the first table of {@link #SECTION}: each package (the first code span of the first
   * column) with the packages the last column names, or all the others when it says {@link
   * #EVERY_OTHER_PACKAGE}.
   */
  private static Map<String, Set<String>> table(List<String> lines) {
    int start = lines.indexOf(SECTION);
    assertThat(start).as("ARCHITECTURE.md has the section \"%s\"", SECTION).isNotNegative();
    Map<String, List<String>> cells = new LinkedHashMap<>();
    boolean inTable = false;
    for (String line : lines.subList(start + 1, lines.size())) {
      if (line.startsWith("|")) {
        inTable = true;
        List<String> row = List.of(line.substring(1, line.lastIndexOf('|')).split("\\|", -1));
        Matcher name = CODE.matcher(row.getFirst());
        if (name.find()) {
          assertThat(cells.put(name.group(1), row))
              .as("ARCHITECTURE.md's table has one row of `%s`", name.group(1))
              .isNull();
        }
      } else if (inTable || line.startsWith("## ")) {
        break;
      }
    }
    assertThat(cells).as("the rows of ARCHITECTURE.md's table of packages").isNotEmpty();
    Map<String, Set<String>> table = new TreeMap<>();
    cells.forEach(
        (name, row) -> {
          String mayUse = row.getLast();
          Set<String> used = new TreeSet<>();
          if (mayUse.contains(EVERY_OTHER_PACKAGE)) {
            used.addAll(cells.keySet());
            used.remove(name);
            used.remove(ROOT);
          } else {
            Matcher code = CODE.matcher(mayUse);
            while (code.find()) {
              used.add(code.group(1));
            }
          }
          table.put(name, used);
        });
    return table;
  }
}
