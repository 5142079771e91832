// Lists and CSV files: a pasted list or a chosen file goes through BatchCreate (or BatchGet to
// reveal) column by column, streamed in batches; the result is offered as a download.

import * as api from '../api.js';
import {can, canAny, denial} from '../session.js';
import {CsvParser, guessDelimiter} from '../csv.js';
import {processCsv, pseudonymizer, revealer, MAX_VALUES_PER_CALL} from '../batch.js';
import {h, replace, field, messageArea, showMessage, clearMessage, formatNumber} from '../dom.js';

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
  const direction = () => (reveal.checked ? 'reveal' : 'pseudonymize');

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
  let downloadUrl = null;
  let running = null;

  const source = () => {
    if (sourceFile.checked) {
      return fileInput.files[0] ?? null;
    }
    return pasteInput.value ? new Blob([pasteInput.value], {type: 'text/plain'}) : null;
  };

  const updateDirection = () => {
    start.textContent = direction() === 'reveal' ? 'Reveal original values' : 'Pseudonymize';
    drawColumns(columnsArea, columns, namespaces, direction());
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
    drawColumns(columnsArea, columns, namespaces, direction());
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

  const form = h(
    'form',
    {id: 'csv-form', novalidate: true},
    h(
      'fieldset',
      {class: 'card'},
      h('legend', {}, 'Direction'),
      h('div', {class: 'choices'}, h('label', {for: 'direction-pseudonymize'}, pseudonymize, ' Pseudonymize'), h('label', {for: 'direction-reveal'}, reveal, ' Reveal original values')),
      mayReveal ? null : h('p', {class: 'hint'}, denial(session, 'reverseLookup')),
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
    h('fieldset', {class: 'card'}, h('legend', {}, 'Columns'), h('p', {class: 'hint'}, 'Choose what happens to each column and the namespace of its pseudonyms. Columns you keep are never sent.'), columnsArea, previewArea),
    h('div', {class: 'actions'}, start, cancel),
    progress,
    progressText,
    message,
    result,
  );

  const run = async () => {
    if (running) {
      return;
    }
    clearMessage(message);
    replace(result);
    const blob = source();
    const mapped = columns.filter((c) => c.action !== 'keep');
    const problem = validate(blob, mapped, direction(), session);
    if (problem) {
      showMessage(message, 'error', problem);
      return;
    }
    if (downloadUrl) {
      URL.revokeObjectURL(downloadUrl);
      downloadUrl = null;
    }
    const reverse = direction() === 'reveal';
    const controller = new AbortController();
    running = controller;
    const signal = AbortSignal.any([controller.signal, context.signal]);
    start.disabled = true;
    cancel.hidden = false;
    progress.hidden = false;
    progress.value = 0;
    progressText.textContent = 'Starting…';
    context.setLeaveWarning('Processing is still running. Leave the page and stop it?');
    const lookup = reverse
      ? revealer(api.batchGet, (name) => api.getNamespace(name).then(() => true, (e) => (e.notFound ? false : Promise.reject(e))))
      : pseudonymizer(api.batchCreate);
    let lastDrawn = 0;
    const onProgress = (p) => {
      const now = performance.now();
      if (now - lastDrawn < 200 && p.bytesRead < p.totalBytes) {
        return;
      }
      lastDrawn = now;
      progress.value = p.totalBytes ? p.bytesRead / p.totalBytes : 1;
      progressText.textContent = describe(p, reverse);
    };
    try {
      const outcome = await processCsv(
        blob,
        {
          delimiter: delimiter.value,
          hasHeader: hasHeader.checked,
          placeholders: placeholders.value.split(',').map((p) => p.trim()).filter(Boolean),
          maxRequestBytes: session.limits?.maxRequestBodyBytes,
          mappings: mapped.map((c) => ({column: c.index, newColumn: c.action === 'add' ? c.newColumn : '', namespace: c.namespace})),
        },
        lookup,
        onProgress,
        signal,
      );
      progress.value = 1;
      progressText.textContent = describe(outcome, reverse);
      downloadUrl = URL.createObjectURL(outcome.blob);
      await showResult(result, outcome, downloadUrl, sourceFile.checked ? fileInput.files[0].name : 'list.csv', reverse, sourcePaste.checked);
      showMessage(message, 'success', 'Done.');
    } catch (e) {
      if (signal.aborted) {
        showMessage(message, 'info', 'Stopped. Nothing was downloaded; the pseudonyms created so far are kept.');
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
      `Pseudonymize a list of values or columns of a CSV file, or reveal the original values again. The file is read in this browser: only the values of the columns you choose are sent to the service, in batches of up to ${formatNumber(MAX_VALUES_PER_CALL)}. Everything else never leaves this browser.`,
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

function describe(p, reverse) {
  const rate = p.seconds > 0 ? Math.round(p.rows / p.seconds) : 0;
  const parts = [`${formatNumber(p.rows)} rows`, `${formatNumber(rate)} rows/s`, `${formatNumber(p.sent)} distinct values sent`, `${formatNumber(p.kept)} blank or placeholder cells kept`];
  if (reverse) {
    parts.push(`${formatNumber(p.unknown)} unknown pseudonyms kept`);
  }
  if (p.malformed > 0) {
    parts.push(`${formatNumber(p.malformed)} malformed rows (stray quotes, kept as read)`);
  }
  return parts.join(' · ');
}

async function showResult(area, outcome, url, inputName, reverse, pasted) {
  const base = inputName.replace(/\.[^.]*$/, '') || 'result';
  const fileName = `${base}-${reverse ? 'de-pseudonymized' : 'pseudonymized'}.csv`;
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
