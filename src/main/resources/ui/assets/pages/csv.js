// Lists and CSV files: a pasted list or a chosen file goes through BatchCreate (or BatchGet to
// reveal) column by column, streamed in batches; or, to withdraw consent, one column's values go
// through BatchDelete or BatchAnonymize after a confirmation. The result is offered as a download.

import * as api from '../api.js';
import {can, canAny, denial} from '../session.js';
import {CsvParser, guessDelimiter} from '../csv.js';
import {processCsv, countValues, pseudonymizer, revealer, MAX_VALUES_PER_CALL} from '../batch.js';
import {WAYS, MISSING, consequences, withdrawalDenial, withdrawer} from '../withdrawal.js';
import {h, replace, field, messageArea, showMessage, clearMessage, formatNumber, confirmPanel} from '../dom.js';

const PREVIEW_BYTES = 64 * 1024;
const PREVIEW_ROWS = 5;
/** Results up to this size are also shown on the page when the input was pasted. */
const SHOWN_OUTPUT_BYTES = 1024 * 1024;

const DELIMITERS = [
  {value: ',', label: 'Comma ( , )'},
  {value: ';', label: 'Semicolon ( ; )'},
  {value: '\t', label: 'Tab'},
  {value: '|', label: 'Pipe ( | )'},
];

export async function render(page, context) {
  context.setTitle('Lists and CSV files');
  const session = context.session;
  let namespaces = [];
  const loadMessage = messageArea('csv-load-message');
  try {
    namespaces = (await api.listNamespaces()).map((n) => n.name).sort((a, b) => a.localeCompare(b));
  } catch (e) {
    showMessage(loadMessage, 'error', e.message);
  }
  const mayReveal = canAny(session, 'reverseLookup');

  // direction
  const pseudonymize = h('input', {type: 'radio', name: 'direction', id: 'direction-pseudonymize', value: 'pseudonymize', checked: true});
  const reveal = h('input', {type: 'radio', name: 'direction', id: 'direction-reveal', value: 'reveal', disabled: !mayReveal});
  const withdrawDenied = withdrawalDenial(session);
  const withdraw = h('input', {type: 'radio', name: 'direction', id: 'direction-withdraw', value: 'withdraw', disabled: Boolean(withdrawDenied)});
  const direction = () => (reveal.checked ? 'reveal' : withdraw.checked ? 'withdraw' : 'pseudonymize');

  // source
  const sourcePaste = h('input', {type: 'radio', name: 'source', id: 'source-paste', value: 'paste', checked: true});
  const sourceFile = h('input', {type: 'radio', name: 'source', id: 'source-file', value: 'file'});
  const pasteInput = h('textarea', {id: 'pasteInput', rows: 8, spellcheck: 'false', placeholder: 'one value per line'});
  const fileInput = h('input', {type: 'file', id: 'csvFileInput', accept: '.csv,.tsv,.txt,text/csv,text/plain'});
  const pasteField = field('Values, one per line', pasteInput, 'A pasted list is read like a CSV file: one column, no header, unless you choose otherwise below.');
  const fileField = field('CSV file', fileInput, 'UTF-8 text. The file is read in this browser, piece by piece; files of millions of rows work.');
  fileField.hidden = true;

  // format
  const delimiter = h('select', {id: 'delimiter'}, DELIMITERS.map((d) => h('option', {value: d.value}, d.label)));
  const hasHeader = h('input', {type: 'checkbox', id: 'hasHeaderRow'});
  const placeholders = h('input', {id: 'placeholders', value: 'NA, NULL', autocomplete: 'off'});

  // columns
  const columnsHint = h('p', {class: 'hint'});
  const columnsArea = h('div', {id: 'columns'}, h('p', {class: 'empty'}, 'Paste values or choose a file to see its columns.'));
  const previewArea = h('div', {id: 'preview', class: 'table-area'});

  // run
  const start = h('button', {type: 'submit', class: 'primary', id: 'start'}, 'Pseudonymize');
  const cancel = h('button', {type: 'button', class: 'secondary', id: 'cancel', hidden: true}, 'Cancel');
  const progress = h('progress', {id: 'progress', max: 1, value: 0, hidden: true, 'aria-label': 'Progress'});
  const progressText = h('p', {id: 'progress-text', class: 'summary', 'aria-live': 'polite'});
  const message = messageArea('csv-message');
  const result = h('div', {id: 'result'});

  let columns = []; // [{index, name, action, newColumn, namespace}] as the controls show them
  const withdrawal = {column: 0, namespace: namespaces[0] ?? '', how: 'delete'}; // as its controls show it
  let downloadUrl = null;
  let running = null;

  const source = () => {
    if (sourceFile.checked) {
      return fileInput.files[0] ?? null;
    }
    return pasteInput.value ? new Blob([pasteInput.value], {type: 'text/plain'}) : null;
  };

  const drawn = () => {
    const withdrawing = direction() === 'withdraw';
    columnsHint.textContent = withdrawing
      ? 'Choose the column that holds the original values, their namespace and what happens. Only the values of that column are sent; blank cells and placeholders are not.'
      : 'Choose what happens to each column and the namespace of its pseudonyms. Columns you keep are never sent.';
    if (withdrawing) {
      drawWithdrawal(columnsArea, columns, namespaces, withdrawal);
    } else {
      drawColumns(columnsArea, columns, namespaces, direction());
    }
  };

  const updateDirection = () => {
    start.textContent = {reveal: 'Reveal original values', withdraw: 'Withdraw consent…', pseudonymize: 'Pseudonymize'}[direction()];
    start.className = direction() === 'withdraw' ? 'danger' : 'primary';
    document.getElementById('confirm-panel')?.remove();
    drawn();
  };

  const updatePreview = async (guess) => {
    const blob = source();
    if (!blob) {
      columns = [];
      replace(previewArea);
      replace(columnsArea, h('p', {class: 'empty'}, 'Paste values or choose a file to see its columns.'));
      return;
    }
    const sample = await blob.slice(0, PREVIEW_BYTES).text();
    if (guess) {
      delimiter.value = guessDelimiter(sample);
    }
    let rows;
    try {
      const parser = new CsvParser(delimiter.value);
      rows = parser.push(sample);
      if (blob.size <= PREVIEW_BYTES) {
        rows.push(...parser.finish());
      }
    } catch (e) {
      showMessage(message, 'error', e.message);
      return;
    }
    const header = hasHeader.checked ? rows[0] ?? [] : null;
    const data = (hasHeader.checked ? rows.slice(1) : rows).slice(0, PREVIEW_ROWS);
    const width = Math.max(header?.length ?? 0, ...data.map((r) => r.length), 1);
    const previous = columns;
    columns = [];
    for (let i = 0; i < width; i++) {
      const name = header ? header[i] ?? `Column ${i + 1}` : `Column ${i + 1}`;
      const kept = previous[i] && previous[i].name === name ? previous[i] : null;
      columns.push(
        kept ?? {
          index: i,
          name,
          action: sourcePaste.checked && width === 1 ? 'replace' : 'keep',
          newColumn: header ? `${name}_${direction() === 'reveal' ? 'original' : 'pseudonym'}` : '',
          namespace: namespaces[0] ?? '',
        },
      );
    }
    withdrawal.column = Math.min(withdrawal.column, width - 1);
    drawn();
    drawPreview(previewArea, header, data, width);
  };

  sourcePaste.addEventListener('change', () => {
    pasteField.hidden = false;
    fileField.hidden = true;
    hasHeader.checked = false;
    updatePreview(false);
  });
  sourceFile.addEventListener('change', () => {
    pasteField.hidden = true;
    fileField.hidden = false;
    hasHeader.checked = true;
    updatePreview(true);
  });
  let typing = null;
  pasteInput.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => updatePreview(false), 250);
  });
  fileInput.addEventListener('change', () => updatePreview(true));
  delimiter.addEventListener('change', () => updatePreview(false));
  hasHeader.addEventListener('change', () => updatePreview(false));
  pseudonymize.addEventListener('change', updateDirection);
  reveal.addEventListener('change', updateDirection);
  withdraw.addEventListener('change', updateDirection);
  drawn();

  const form = h(
    'form',
    {id: 'csv-form', novalidate: true},
    h(
      'fieldset',
      {class: 'card'},
      h('legend', {}, 'Direction'),
      h(
        'div',
        {class: 'choices'},
        h('label', {for: 'direction-pseudonymize'}, pseudonymize, ' Pseudonymize'),
        h('label', {for: 'direction-reveal'}, reveal, ' Reveal original values'),
        h('label', {for: 'direction-withdraw'}, withdraw, ' Withdraw consent'),
      ),
      mayReveal ? null : h('p', {class: 'hint'}, denial(session, 'reverseLookup')),
      withdrawDenied && mayReveal ? h('p', {class: 'hint'}, withdrawDenied) : null,
    ),
    h(
      'fieldset',
      {class: 'card'},
      h('legend', {}, 'Input'),
      h('div', {class: 'choices'}, h('label', {for: 'source-paste'}, sourcePaste, ' Paste a list'), h('label', {for: 'source-file'}, sourceFile, ' Choose a CSV file')),
      pasteField,
      fileField,
      h(
        'div',
        {class: 'form-grid'},
        field('Delimiter', delimiter),
        field('Kept as they are', placeholders, 'Blank cells and these placeholders, comma-separated, ignoring case and spaces around them.'),
        h('div', {class: 'field checkbox'}, hasHeader, h('label', {for: 'hasHeaderRow'}, 'The first row holds the column names')),
      ),
    ),
    h('fieldset', {class: 'card'}, h('legend', {}, 'Columns'), columnsHint, columnsArea, previewArea),
    h('div', {class: 'actions'}, start, cancel),
    progress,
    progressText,
    message,
    result,
  );

  const readOptions = () => ({
    delimiter: delimiter.value,
    hasHeader: hasHeader.checked,
    placeholders: placeholders.value.split(',').map((p) => p.trim()).filter(Boolean),
    maxRequestBytes: session.limits?.maxRequestBodyBytes,
  });

  /**
   * Streams the source through the job ({lookup, suffix of the download's name, stopped: what a
   * stop leaves behind, parts: what the progress line adds}) and offers the result.
   */
  const process = async (blob, options, mappings, job) => {
    if (downloadUrl) {
      URL.revokeObjectURL(downloadUrl);
      downloadUrl = null;
    }
    const controller = new AbortController();
    running = controller;
    const signal = AbortSignal.any([controller.signal, context.signal]);
    start.disabled = true;
    cancel.hidden = false;
    progress.hidden = false;
    progress.value = 0;
    progressText.textContent = 'Starting…';
    context.setLeaveWarning('Processing is still running. Leave the page and stop it?');
    let lastDrawn = 0;
    const onProgress = (p) => {
      const now = performance.now();
      if (now - lastDrawn < 200 && p.bytesRead < p.totalBytes) {
        return;
      }
      lastDrawn = now;
      progress.value = p.totalBytes ? p.bytesRead / p.totalBytes : 1;
      progressText.textContent = describe(p, job.parts(p));
    };
    try {
      const outcome = await processCsv(blob, {...options, mappings}, job.lookup, onProgress, signal);
      progress.value = 1;
      progressText.textContent = describe(outcome, job.parts(outcome));
      downloadUrl = URL.createObjectURL(outcome.blob);
      await showResult(result, outcome, downloadUrl, sourceFile.checked ? fileInput.files[0].name : 'list.csv', job.suffix, sourcePaste.checked);
      showMessage(message, 'success', 'Done.');
    } catch (e) {
      if (signal.aborted) {
        showMessage(message, 'info', `Stopped. Nothing was downloaded; ${job.stopped}.`);
      } else {
        showMessage(message, 'error', e.message);
      }
    } finally {
      running = null;
      start.disabled = false;
      cancel.hidden = true;
      context.setLeaveWarning(null);
    }
  };

  /** Counts the chosen column's values, then asks before withdrawing them. */
  const confirmWithdrawal = async (blob) => {
    const problem = validateWithdrawal(blob, columns, withdrawal, session);
    if (problem) {
      showMessage(message, 'error', problem);
      return;
    }
    const options = readOptions();
    const {column, namespace, how} = withdrawal;
    const name = columns[column].name;
    let count;
    start.disabled = true;
    progressText.textContent = 'Counting the values…';
    try {
      count = await countValues(blob, {...options, column}, context.signal);
    } catch (e) {
      showMessage(message, 'error', e.message);
      return;
    } finally {
      start.disabled = false;
      progressText.textContent = '';
    }
    if (count === 0) {
      showMessage(message, 'error', `${name} holds no values to withdraw: its cells are blank or placeholders.`);
      return;
    }
    confirmPanel(form, start, {
      text: [`Withdraw consent for the ${formatNumber(count)} value${count === 1 ? '' : 's'} of `, h('strong', {}, name), ' in ', h('strong', {}, namespace), '? ', consequences(how, namespace, count)],
      button: WAYS[how].button,
      confirmed: () => {
        const {lookup, tally} = withdrawer(api.batchWithdraw, how);
        process(blob, options, [{column, newColumn: 'withdrawal', namespace, missing: MISSING}], {
          lookup,
          suffix: 'withdrawal',
          stopped: 'the values withdrawn so far stay withdrawn',
          parts: () => [`${formatNumber(tally.deleted + tally.anonymized)} ${how === 'delete' ? 'deleted' : 'anonymized'}`, `${formatNumber(tally['not found'])} not found`],
        });
      },
    });
  };

  const run = async () => {
    if (running) {
      return;
    }
    clearMessage(message);
    replace(result);
    document.getElementById('confirm-panel')?.remove();
    const blob = source();
    if (direction() === 'withdraw') {
      await confirmWithdrawal(blob);
      return;
    }
    const mapped = columns.filter((c) => c.action !== 'keep');
    const problem = validate(blob, mapped, direction(), session);
    if (problem) {
      showMessage(message, 'error', problem);
      return;
    }
    const reverse = direction() === 'reveal';
    await process(
      blob,
      readOptions(),
      mapped.map((c) => ({column: c.index, newColumn: c.action === 'add' ? c.newColumn : '', namespace: c.namespace})),
      {
        lookup: reverse
          ? revealer(api.batchGet, (name) => api.getNamespace(name).then(() => true, (e) => (e.notFound ? false : Promise.reject(e))))
          : pseudonymizer(api.batchCreate),
        suffix: reverse ? 'de-pseudonymized' : 'pseudonymized',
        stopped: 'the pseudonyms created so far are kept',
        parts: (p) => (reverse ? [`${formatNumber(p.unknown)} unknown pseudonyms kept`] : []),
      },
    );
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    run();
  });
  cancel.addEventListener('click', () => running?.abort());
  context.signal.addEventListener('abort', () => downloadUrl && URL.revokeObjectURL(downloadUrl));

  replace(
    page,
    h('h1', {tabindex: -1}, 'Lists and CSV files'),
    h(
      'p',
      {class: 'lead'},
      `Pseudonymize a list of values or columns of a CSV file, reveal the original values again, or withdraw consent for the values of a column. The file is read in this browser: only the values of the columns you choose are sent to the service, in batches of up to ${formatNumber(MAX_VALUES_PER_CALL)}. Everything else never leaves this browser.`,
    ),
    loadMessage,
    namespaces.length === 0 ? h('p', {class: 'message info'}, 'There are no namespaces yet. ', h('a', {href: '/ui/namespaces'}, 'Create one'), ' first.') : null,
    form,
  );
}

function validate(blob, mapped, direction, session) {
  if (!blob) {
    return 'Paste values or choose a file first.';
  }
  if (mapped.length === 0) {
    return 'Choose at least one column to process.';
  }
  for (const column of mapped) {
    if (!column.namespace) {
      return `Choose a namespace for ${column.name}.`;
    }
    if (column.action === 'add' && !column.newColumn.trim()) {
      return `Name the new column for ${column.name}.`;
    }
    const permission = direction === 'reveal' ? 'reverseLookup' : 'write';
    if (!can(session, permission, column.namespace)) {
      return `${column.namespace}: ${denial(session, permission, column.namespace)}`;
    }
  }
  return null;
}

/** The progress line: the counters, then what the job adds (extra). */
function validateWithdrawal(blob, columns, withdrawal, session) {
  if (!blob) {
    return 'Paste values or choose a file first.';
  }
  if (!columns[withdrawal.column]) {
    return 'Choose the column that holds the original values.';
  }
  if (!withdrawal.namespace) {
    return 'Choose the namespace of the values.';
  }
  const reason = withdrawalDenial(session, withdrawal.namespace);
  return reason ? `${withdrawal.namespace}: ${reason}` : null;
}

function describe(p, extra) {
  const rate = p.seconds > 0 ? Math.round(p.rows / p.seconds) : 0;
  const parts = [`${formatNumber(p.rows)} rows`, `${formatNumber(rate)} rows/s`, `${formatNumber(p.sent)} distinct values sent`, `${formatNumber(p.kept)} blank or placeholder cells kept`, ...extra];
  if (p.malformed > 0) {
    parts.push(`${formatNumber(p.malformed)} malformed rows (stray quotes, kept as read)`);
  }
  return parts.join(' · ');
}

async function showResult(area, outcome, url, inputName, suffix, pasted) {
  const base = inputName.replace(/\.[^.]*$/, '') || 'result';
  const fileName = `${base}-${suffix}.csv`;
  const link = h('a', {href: url, download: fileName, id: 'download', class: 'button primary'}, `Download ${fileName}`);
  const children = [h('p', {}, link, ` (${formatNumber(outcome.blob.size)} bytes)`)];
  if (pasted && outcome.blob.size <= SHOWN_OUTPUT_BYTES) {
    const output = h('textarea', {id: 'pasteOutput', rows: 8, readonly: true, spellcheck: 'false'});
    output.value = await outcome.blob.text();
    children.push(field('Result', output));
  }
  replace(area, h('h2', {}, 'Result'), ...children);
  link.focus();
}

function drawColumns(area, columns, namespaces, direction) {
  if (columns.length === 0) {
    return;
  }
  const verb = direction === 'reveal' ? 'original value' : 'pseudonym';
  const rows = columns.map((column) => {
    const id = `column-${column.index}`;
    const action = h(
      'select',
      {id: `${id}-action`, 'aria-label': `What to do with ${column.name}`},
      h('option', {value: 'keep'}, 'Keep as it is'),
      h('option', {value: 'replace'}, `Replace with the ${verb}`),
      h('option', {value: 'add'}, `Add the ${verb} as a new column`),
    );
    action.value = column.action;
    const newColumn = h('input', {id: `${id}-new`, 'aria-label': `Name of the new column for ${column.name}`, value: column.newColumn, disabled: column.action !== 'add', autocomplete: 'off'});
    const namespace = h(
      'select',
      {id: `${id}-namespace`, 'aria-label': `Namespace for ${column.name}`, disabled: column.action === 'keep'},
      namespaces.map((n) => h('option', {value: n}, n)),
    );
    namespace.value = column.namespace;
    action.addEventListener('change', () => {
      column.action = action.value;
      newColumn.disabled = column.action !== 'add';
      namespace.disabled = column.action === 'keep';
    });
    newColumn.addEventListener('input', () => (column.newColumn = newColumn.value));
    namespace.addEventListener('change', () => (column.namespace = namespace.value));
    return h('tr', {}, h('th', {scope: 'row'}, column.name), h('td', {}, action), h('td', {}, newColumn), h('td', {}, namespace));
  });
  replace(
    area,
    h(
      'table',
      {class: 'data mapping'},
      h('caption', {class: 'visually-hidden'}, 'Columns'),
      h('thead', {}, h('tr', {}, ['Column', 'Action', 'New column', 'Namespace'].map((t) => h('th', {scope: 'col'}, t)))),
      h('tbody', {}, rows),
    ),
  );
}

/** The controls of a withdrawal: the column of original values, the namespace and the way. */
function drawWithdrawal(area, columns, namespaces, withdrawal) {
  if (columns.length === 0) {
    return;
  }
  const column = h('select', {id: 'withdraw-column'}, columns.map((c) => h('option', {value: String(c.index)}, c.name)));
  column.value = String(withdrawal.column);
  const namespace = h('select', {id: 'withdraw-namespace'}, namespaces.map((n) => h('option', {value: n}, n)));
  namespace.value = withdrawal.namespace;
  const ways = Object.entries(WAYS).map(([how, {choice}]) => {
    const radio = h('input', {type: 'radio', name: 'withdraw-how', id: `withdraw-${how}`, value: how, checked: withdrawal.how === how});
    radio.addEventListener('change', () => (withdrawal.how = how));
    return h('label', {for: `withdraw-${how}`}, radio, ` ${choice}`);
  });
  column.addEventListener('change', () => (withdrawal.column = Number(column.value)));
  namespace.addEventListener('change', () => (withdrawal.namespace = namespace.value));
  replace(
    area,
    h(
      'div',
      {class: 'form-grid'},
      field('Column of original values', column, ['The report adds a last column, ', h('code', {}, 'withdrawal'), `: deleted, anonymized, not found, or ${MISSING} for a blank or placeholder cell.`]),
      field('Namespace', namespace),
    ),
    h('fieldset', {class: 'choices-set'}, h('legend', {}, 'What happens'), h('div', {class: 'choices'}, ways)),
  );
}

function drawPreview(area, header, rows, width) {
  if (rows.length === 0 && !header) {
    replace(area);
    return;
  }
  const names = Array.from({length: width}, (_, i) => (header ? header[i] ?? '' : `Column ${i + 1}`));
  replace(
    area,
    h(
      'table',
      {class: 'data preview'},
      h('caption', {}, `Preview: the first ${rows.length} rows`),
      h('thead', {}, h('tr', {}, names.map((n) => h('th', {scope: 'col'}, n)))),
      h('tbody', {}, rows.map((row) => h('tr', {}, names.map((_, i) => h('td', {}, row[i] ?? ''))))),
    ),
  );
}
