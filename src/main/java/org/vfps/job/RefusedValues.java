package org.vfps.job;

import java.util.List;
import org.vfps.csv.CsvRecord;
import org.vfps.error.ServiceException;

/**
 * A value a batch call refused, told by its row and column: the pseudonym service names a refused
 * value by its position in the call ("value 3 of 500"), which means nothing to whoever wrote the
 * file.
 */
final class RefusedValues {

  private RefusedValues() {}

  /**
   * The failure naming the row (as {@link RowNumbers} counts) and column of the refused value
   * instead of its position in the call; {@code refusal} as it is when it names no value of the
   * chunk.
   *
   * @param call the values of the refused call, in order
   * @param records the chunk's rows
   * @param rowBefore the number of the row before the chunk's first
   * @param namespace the namespace of the call
   */
  static ServiceException located(
      ServiceException refusal,
      List<String> call,
      List<CsvRecord> records,
      CsvLayout layout,
      long rowBefore,
      String namespace) {
    String index = refusal.metadata().get("index");
    if (index == null || !index.matches("[0-9]+") || Integer.parseInt(index) >= call.size()) {
      return refusal;
    }
    String value = call.get(Integer.parseInt(index));
    long row = rowBefore;
    for (CsvRecord record : records) {
      row++;
      if (record.malformed()) {
        continue;
      }
      for (CsvLayout.Column column : layout.columns()) {
        if (column.mapping().namespace().equals(namespace)
            && value.equals(Cells.cell(record.fields(), column.source()))) {
          // the row names the value: its position in the call ("value 3 of 500") would only
          // confuse
          String message =
              refusal
                  .getMessage()
                  .replace(" " + (Integer.parseInt(index) + 1) + " of " + call.size(), "");
          return new ServiceException(
              refusal.code(),
              "Row " + row + ", column '" + column.mapping().sourceColumn() + "': " + message);
        }
      }
    }
    return refusal;
  }
}
