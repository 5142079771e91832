// CSV as RFC 4180 has it, read incrementally: text may arrive in pieces split anywhere, inside a
// quoted field, between a quote and its escape, or between CR and LF. Lenient like the common
// readers: a stray quote is kept as text and its row counted as malformed.

const START = 0; // at the start of a field
const UNQUOTED = 1;
const QUOTED = 2;
const QUOTE_IN_QUOTED = 3; // a quote inside a quoted field: its end, or the first of ""
const AFTER_CR = 4; // a row ended with CR; a following LF belongs to it

const CR = 13;
const LF = 10;
const QUOTE = 34;

/** Whether fields may be separated by it, as the service's CSV jobs accept it. */
export function isDelimiter(delimiter) {
  return delimiter === '\t' || (delimiter.length === 1 && /^[\x20-\x7e]$/.test(delimiter) && !/["A-Za-z0-9]/.test(delimiter));
}

/** Reads rows from text given piece by piece; push() and finish() return the completed rows. */
export class CsvParser {
  constructor(delimiter = ',') {
    if (!isDelimiter(delimiter)) {
      throw new Error('The delimiter must be a tab or one printable ASCII character other than the quote, a letter or a digit.');
    }
    this.delimiter = delimiter.charCodeAt(0);
    this.state = START;
    this.row = [];
    this.field = '';
    this.malformed = false;
    /** Rows that held a stray quote. */
    this.malformedRows = 0;
    /** The line break of the first row: '\r\n' or '\n' ('\n' until one is seen). */
    this.lineBreak = null;
  }

  /** Parses the next piece of text; returns the rows it completed (arrays of strings). */
  push(text) {
    const rows = [];
    const delimiter = this.delimiter;
    let state = this.state;
    let start = 0; // where the current run of field text began in this piece
    let i = 0;
    const length = text.length;
    while (i < length) {
      const c = text.charCodeAt(i);
      switch (state) {
        case AFTER_CR:
          state = START;
          if (c === LF) {
            this.lineBreak ??= '\r\n';
            i++;
          } else {
            this.lineBreak ??= '\r';
          }
          break;
        case START:
          if (c === QUOTE) {
            state = QUOTED;
            start = ++i;
          } else if (c === delimiter) {
            this.row.push('');
            i++;
          } else if (c === LF || c === CR) {
            this.row.push('');
            state = this.endLine(c, rows);
            i++;
          } else {
            state = UNQUOTED;
            start = i;
          }
          break;
        case UNQUOTED:
          if (c === delimiter) {
            this.endField(text.slice(start, i));
            state = START;
          } else if (c === LF || c === CR) {
            this.endField(text.slice(start, i));
            state = this.endLine(c, rows);
          } else if (c === QUOTE) {
            this.malformed = true;
          }
          i++;
          break;
        case QUOTED: {
          const quote = text.indexOf('"', i);
          if (quote < 0) {
            i = length;
          } else {
            this.field += text.slice(start, quote);
            state = QUOTE_IN_QUOTED;
            i = quote + 1;
          }
          break;
        }
        case QUOTE_IN_QUOTED:
          if (c === QUOTE) {
            // an escaped quote: the second one starts the next run of text
            state = QUOTED;
            start = i++;
          } else if (c === delimiter) {
            this.endField('');
            state = START;
            i++;
          } else if (c === LF || c === CR) {
            this.endField('');
            state = this.endLine(c, rows);
            i++;
          } else {
            // text after the closing quote: keep it, as the field's text
            this.malformed = true;
            state = UNQUOTED;
            start = i;
          }
          break;
      }
    }
    // keep the unfinished field's text for the next piece
    if (state === UNQUOTED || state === QUOTED) {
      this.field += text.slice(start, length);
    }
    this.state = state;
    return rows;
  }

  /** Ends the input: returns the last row if the text did not end with a line break. */
  finish() {
    const rows = [];
    if (this.state === QUOTED) {
      // an unterminated quote: keep what was read
      this.malformed = true;
    }
    if (this.state === UNQUOTED || this.state === QUOTED || this.state === QUOTE_IN_QUOTED) {
      this.endField('');
      rows.push(this.endRow());
    } else if (this.state === START && this.row.length > 0) {
      this.row.push('');
      rows.push(this.endRow());
    }
    this.state = START;
    return rows;
  }

  /** Ends the field: the text kept from earlier pieces, then the tail read in this one. */
  endField(tail) {
    this.row.push(this.field + tail);
    this.field = '';
  }

  /** Ends the row at the line break c, into rows; returns the state after the break. */
  endLine(c, rows) {
    rows.push(this.endRow());
    if (c === LF) {
      this.lineBreak ??= '\n';
    }
    return c === CR ? AFTER_CR : START;
  }

  endRow() {
    const row = this.row;
    this.row = [];
    if (this.malformed) {
      this.malformedRows++;
      this.malformed = false;
    }
    return row;
  }
}

/**
 * One row as CSV text, quoting the fields that need it, without the line break. With a guard
 * ({neutralized: a count}), each field a spreadsheet would run as a formula is neutralized, as
 * OWASP's guidance on CSV injection describes: quoted, after a single quote, and counted.
 */
export function formatRow(fields, delimiter = ',', guard = null) {
  let line = '';
  for (let i = 0; i < fields.length; i++) {
    if (i > 0) {
      line += delimiter;
    }
    const value = fields[i];
    if (guard && runsAsFormula(value)) {
      line += `"'${value.replaceAll('"', '""')}"`;
      guard.neutralized++;
    } else {
      line += formatField(value, delimiter);
    }
  }
  return line;
}

/**
 * Whether a spreadsheet would run the cell as a formula (or read it as one, a number such as -5
 * included): it starts with =, +, -, @, a tab or a CR. The service's CSV jobs decide alike.
 */
export function runsAsFormula(value) {
  return value.length > 0 && '=+-@\t\r'.includes(value[0]);
}

function formatField(value, delimiter) {
  if (
    value.includes(delimiter) ||
    value.includes('"') ||
    value.includes('\n') ||
    value.includes('\r')
  ) {
    return `"${value.replaceAll('"', '""')}"`;
  }
  return value;
}

/** Guesses the delimiter of a CSV's first line: the most frequent of , ; tab | outside quotes. */
export function guessDelimiter(sample) {
  const line = sample.split(/\r?\n/, 1)[0] ?? '';
  let best = ',';
  let bestCount = 0;
  for (const candidate of [',', ';', '\t', '|']) {
    let count = 0;
    let quoted = false;
    for (const c of line) {
      if (c === '"') {
        quoted = !quoted;
      } else if (c === candidate && !quoted) {
        count++;
      }
    }
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}
