// Streams a CSV (a File, or pasted text as a Blob) through the service in bounded batches and
// collects the result as Blob parts, so neither the input nor the output is held in memory as a
// whole. Only the values of the mapped columns are handed to the lookup function.

import {CsvParser, formatRow} from './csv.js';

/** At most this many distinct values per namespace in one call (the service takes 10,000). */
export const MAX_VALUES_PER_CALL = 1000;

/** Rows held before a batch is sent even if few distinct values came together. */
const MAX_ROWS_PER_BATCH = 5000;

/** Refused cells a run reports one by one; it counts them all. */
export const MAX_REPORTED_REFUSALS = 10000;

/** The JSON around the values: {"originalValues":[...]}. */
const REQUEST_OVERHEAD_BYTES = 32;

/**
 * Processes a CSV.
 *
 * @param source a Blob (a File, or new Blob([text]))
 * Rows are numbered as everywhere on the page: the records of the input, from 1, the header row
 * (when there is one) being row 1.
 *
 * @param options {delimiter, hasHeader, placeholders (strings, compared trimmed and
 *     case-insensitively), maxRequestBytes, neutralize (whether the cells a spreadsheet would run
 *     as formulas are neutralized and counted), skipRefused (a value the service refuses on its
 *     own, HTTP 400, is left out, its cells written empty and reported; else the run stops at the
 *     first with an error naming its row), mappings: [{column (0-based index), newColumn (a name:
 *     the result goes into a new last column; empty: it replaces the cell), namespace, missing
 *     (optional: the result of a blank or placeholder cell; else the cell as it is)}]}
 * @param lookup async (namespace, distinctValues, signal) => Map value → result; a value the map
 *     lacks stays as it is and is counted as unknown
 * @param onProgress called after each batch with the counters
 * @param signal aborts the run
 * @returns {blob, rows, kept, unknown, malformed, sent (distinct values sent in the whole run,
 *     per namespace), refused (cells whose value was refused), refusals (the first
 *     MAX_REPORTED_REFUSALS of them: {row, column (0-based), reason}), neutralized, seconds}
 */
export async function processCsv(source, options, lookup, onProgress = () => {}, signal) {
  const placeholders = new Set((options.placeholders ?? []).map((p) => p.trim().toLowerCase()));
  const maxBytes = Math.max(1024, Math.floor((options.maxRequestBytes ?? 1048576) / 2));
  const parser = new CsvParser(options.delimiter);
  const mappings = options.mappings;
  const bom = await startsWithBom(source);
  const parts = bom ? ['\uFEFF'] : [];
  const counters = {rows: 0, kept: 0, unknown: 0, malformed: 0, sent: 0, refused: 0, neutralized: 0, bytesRead: 0, totalBytes: source.size};
  // counts into counters.neutralized
  const guard = options.neutralize ? counters : null;
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const headerRows = options.hasHeader ? 1 : 0;
  let headerPending = options.hasHeader;
  let width = 0; // the first row's: new columns go after it

  // the current batch: rows in order, and per namespace the distinct values with their size
  let rows = [];
  let pending = new Map(); // namespace → {values: Map value → true, bytes}
  // per namespace, over the whole run: the distinct values sent, and those refused with the reason
  const sentValues = new Map();
  const refused = new Map();
  const refusals = [];

  /** The 1-based number of the batch's row at index i, counted as the page counts rows. */
  const rowNumber = (i) => counters.rows + i + 1 + headerRows;

  /**
   * The lookup of the values; a value the service refuses on its own (found by the position its
   * message names, else by halving the call) is recorded, or stops the run with its row.
   */
  const ask = async (namespace, values) => {
    try {
      return await lookup(namespace, values, signal);
    } catch (e) {
      if (e.status !== 400 || signal?.aborted) {
        throw e;
      }
      const named = values.length === 1 ? 0 : (positionIn(e.message ?? '', values.length)?.index ?? -1);
      if (named >= 0) {
        refuse(namespace, values[named], values.length, e);
        const rest = values.filter((_, i) => i !== named);
        return rest.length > 0 ? ask(namespace, rest) : new Map();
      }
      if (values.length < 2) {
        throw e;
      }
      const half = values.length >> 1;
      const first = await ask(namespace, values.slice(0, half));
      const second = await ask(namespace, values.slice(half));
      return new Map([...first, ...second]);
    }
  };

  const refuse = (namespace, value, count, error) => {
    // the service names the value's place in its call ("value 3 of 10"): the page names rows instead
    const message = String(error.message ?? error);
    const reason = message.replace(positionIn(message, count)?.text ?? '', '');
    if (!options.skipRefused) {
      const columns = mappings.filter((m) => m.namespace === namespace).map((m) => m.column);
      const at = rows.findIndex((row) => columns.some((column) => row[column] === value));
      const stopped = new Error(`Row ${rowNumber(at)}: ${reason}`);
      stopped.status = error.status;
      stopped.refused = true;
      throw stopped;
    }
    const ofNamespace = refused.get(namespace) ?? new Map();
    ofNamespace.set(value, reason);
    refused.set(namespace, ofNamespace);
  };

  const flush = async () => {
    if (rows.length === 0) {
      return;
    }
    const results = new Map();
    for (const [namespace, batch] of pending) {
      const values = [...batch.values.keys()];
      results.set(namespace, await ask(namespace, values));
      const sent = sentValues.get(namespace) ?? new Set();
      for (const value of values) {
        if (!sent.has(value)) {
          sent.add(value);
          counters.sent++;
        }
      }
      sentValues.set(namespace, sent);
    }
    const lineBreak = parser.lineBreak ?? '\n';
    let text = '';
    rows.forEach((row, i) => {
      text += formatRow(transform(row, results, rowNumber(i)), options.delimiter, guard) + lineBreak;
    });
    parts.push(new Blob([text]));
    counters.rows += rows.length;
    counters.malformed = parser.malformedRows;
    rows = [];
    pending = new Map();
    onProgress({...counters, seconds: seconds()});
  };

  const transform = (row, results, number) => {
    const out = row.slice();
    const appended = [];
    for (const mapping of mappings) {
      const value = row[mapping.column] ?? '';
      let result = value;
      const reason = refused.get(mapping.namespace)?.get(value);
      if (isMissing(value, placeholders)) {
        result = mapping.missing ?? value;
      } else if (reason !== undefined) {
        // neither the value nor a stand-in: the report says which row and why
        result = '';
        counters.refused++;
        if (refusals.length < MAX_REPORTED_REFUSALS) {
          refusals.push({row: number, column: mapping.column, reason});
        }
      } else {
        const found = results.get(mapping.namespace).get(value);
        if (found === undefined) {
          counters.unknown++;
        } else {
          result = found;
        }
      }
      if (mapping.newColumn) {
        appended.push(result);
      } else if (mapping.column < out.length) {
        out[mapping.column] = result;
      }
    }
    if (appended.length > 0) {
      while (out.length < width) {
        out.push('');
      }
      out.push(...appended);
    }
    return out;
  };

  const newValues = (row) => {
    const added = new Map();
    for (const mapping of mappings) {
      const value = row[mapping.column] ?? '';
      // a value refused earlier in the run is not sent again
      if (isMissing(value, placeholders) || pending.get(mapping.namespace)?.values.has(value) || refused.get(mapping.namespace)?.has(value)) {
        continue;
      }
      const entry = added.get(mapping.namespace) ?? {values: new Map(), bytes: 0};
      if (!entry.values.has(value)) {
        entry.values.set(value, true);
        entry.bytes += jsonBytes(value) + 1;
      }
      added.set(mapping.namespace, entry);
    }
    return added;
  };

  const accept = async (row) => {
    if (headerPending) {
      headerPending = false;
      width = row.length;
      const header = row.slice();
      const added = mappings.filter((m) => m.newColumn).map((m) => m.newColumn);
      parts.push(formatRow([...header, ...added], options.delimiter, guard) + (parser.lineBreak ?? '\n'));
      return;
    }
    if (width === 0) {
      width = row.length;
    }
    // the row's values the batch lacks, per namespace; when they would not fit, the batch goes
    // first and the row starts the next one
    let added = newValues(row);
    for (const [namespace, entry] of added) {
      const batch = pending.get(namespace);
      if (batch && (batch.values.size + entry.values.size > MAX_VALUES_PER_CALL || batch.bytes + entry.bytes > maxBytes)) {
        await flush();
        added = newValues(row);
        break;
      }
    }
    for (const mapping of mappings) {
      if (isMissing(row[mapping.column] ?? '', placeholders)) {
        counters.kept++;
      }
    }
    for (const [namespace, entry] of added) {
      const batch = pending.get(namespace) ?? {values: new Map(), bytes: REQUEST_OVERHEAD_BYTES};
      for (const value of entry.values.keys()) {
        batch.values.set(value, true);
      }
      batch.bytes += entry.bytes;
      pending.set(namespace, batch);
    }
    rows.push(row);
    if (rows.length >= MAX_ROWS_PER_BATCH) {
      await flush();
    }
  };

  await eachRow(source, parser, accept, signal, (bytes) => (counters.bytesRead += bytes));
  await flush();
  counters.malformed = parser.malformedRows;
  const outcome = {...counters, refusals, seconds: seconds()};
  onProgress(outcome);
  return {...outcome, blob: new Blob(parts, {type: 'text/csv;charset=utf-8'})};
}

/** Reads the source piece by piece and hands each row the parser completes to accept, in order. */
async function eachRow(source, parser, accept, signal, onBytes = () => {}) {
  const counted = new TransformStream({
    transform(chunk, controller) {
      onBytes(chunk.byteLength);
      controller.enqueue(chunk);
    },
  });
  const reader = source.stream().pipeThrough(counted).pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      signal?.throwIfAborted();
      const {done, value} = await reader.read();
      if (done) {
        break;
      }
      for (const row of parser.push(value)) {
        await accept(row);
      }
    }
    for (const row of parser.finish()) {
      await accept(row);
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * How many values of one column processCsv would send: the distinct cells that are neither blank
 * nor a placeholder, by the same rule as processCsv, reading the whole source once and keeping
 * only those values.
 *
 * @param options {delimiter, hasHeader, placeholders, column (0-based index)}
 */
export async function countValues(source, options, signal) {
  const placeholders = new Set((options.placeholders ?? []).map((p) => p.trim().toLowerCase()));
  let headerPending = options.hasHeader;
  const values = new Set();
  const accept = async (row) => {
    const value = row[options.column] ?? '';
    if (headerPending) {
      headerPending = false;
    } else if (!isMissing(value, placeholders)) {
      values.add(value);
    }
  };
  await eachRow(source, new CsvParser(options.delimiter), accept, signal);
  return values.size;
}

/** Whether a cell is kept as it is: blank after trimming, or one of the placeholders. */
export function isMissing(value, placeholders) {
  const trimmed = value.trim();
  return trimmed === '' || placeholders.has(trimmed.toLowerCase());
}

async function startsWithBom(source) {
  const head = new Uint8Array(await source.slice(0, 3).arrayBuffer());
  return head.length === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
}

/** The UTF-8 size of the value written as a JSON string. */
function jsonBytes(value) {
  const json = JSON.stringify(value);
  let bytes = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? (i++, 4) : 3;
  }
  return bytes;
}

/** The lookup for pseudonymizing: BatchCreate, value → pseudonym. */
export function pseudonymizer(batchCreate) {
  return async (namespace, values, signal) => {
    const pseudonyms = await batchCreate(namespace, values, signal);
    const results = new Map();
    values.forEach((value, i) => results.set(value, pseudonyms[i].pseudonymValue));
    return results;
  };
}

/**
 * The lookup for revealing: BatchGet, value as asked → original value (a pseudonym typed without
 * its group delimiters is found, and kept under the value the file holds). An unknown pseudonym
 * (404) is left out of the map: the one the error names is dropped and the rest asked again; when
 * the error names none of them (and the namespace still exists), the batch is split in halves
 * until the unknown ones are alone. A mistyped pseudonym (400: its check digit does not match,
 * which BatchGet refuses for the whole batch without naming it) is left out the same way, by
 * halves, as a reveal job leaves it.
 */
export function revealer(batchGet, namespaceExists) {
  return async (namespace, values, signal) => {
    const results = new Map();
    let namespaceChecked = false;
    const ask = async (batch) => {
      try {
        const found = await batchGet(namespace, batch, signal);
        found.forEach((pseudonym, i) => results.set(batch[i], pseudonym.originalValue));
      } catch (e) {
        if (e.code === INVALID_ARGUMENT) {
          if (batch.length > 1) {
            const half = batch.length >> 1;
            await ask(batch.slice(0, half));
            await ask(batch.slice(half));
          }
          return;
        }
        if (!e.notFound) {
          throw e;
        }
        const named = namedValue(e.message, batch);
        if (named >= 0) {
          const rest = batch.filter((_, i) => i !== named);
          if (rest.length > 0) {
            await ask(rest);
          }
          return;
        }
        if (!namespaceChecked) {
          if (!(await namespaceExists(namespace))) {
            throw e;
          }
          namespaceChecked = true;
        }
        if (batch.length > 1) {
          const half = batch.length >> 1;
          await ask(batch.slice(0, half));
          await ask(batch.slice(half));
        }
      }
    };
    if (values.length > 0) {
      await ask(values);
    }
    return results;
  };
}

/** The gRPC code of a value BatchGet refuses on its own (a mistyped pseudonym). */
const INVALID_ARGUMENT = 3;

/** The index of the value a NOT_FOUND message names; -1 when none. */
function namedValue(message, values) {
  return positionIn(message, values.length)?.index ?? -1;
}

/**
 * The value a batch call's error names by its position ("The original value 3 of 10 ...", "The
 * pseudonym 3 of 10 ..."): {index (0-based), text (" 3 of 10", to drop once the row is named)},
 * or undefined when the message names none of a call of that many values.
 */
export function positionIn(message, count) {
  const found = / (\d+) of (\d+)\b/.exec(message);
  if (!found || Number(found[2]) !== count || Number(found[1]) < 1 || Number(found[1]) > count) {
    return undefined;
  }
  return {index: Number(found[1]) - 1, text: found[0]};
}
