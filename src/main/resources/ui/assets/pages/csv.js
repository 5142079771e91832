// Lists and CSV files: a pasted list or a chosen file goes through BatchCreate (or BatchGet to
// reveal) column by column, streamed in batches; or, to withdraw consent, one column's values go
// through BatchDelete or BatchAnonymize after a confirmation. The result is offered as a download.
// On the server instead, the same choices become a CSV job: the file goes straight to the object
// store, the service processes it, and the page follows the job to its download. Import and export
// always run as jobs.

import * as api from '../api.js';
import {can, canAny, denial} from '../session.js';
import {CsvParser, guessDelimiter} from '../csv.js';
import {processCsv, countValues, pseudonymizer, revealer, MAX_VALUES_PER_CALL} from '../batch.js';
import {WAYS, MISSING, consequences, withdrawalDenial, withdrawer} from '../withdrawal.js';
import {jobPanel, jobsList, jobsOff} from '../csv-jobs.js';
import {h, replace, field, messageArea, showMessage, clearMessage, formatNumber, confirmPanel, onSubmit} from '../dom.js';

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
  const mayImport = canAny(session, 'write');
  const importPairs = h('input', {type: 'radio', name: 'direction', id: 'direction-import', value: 'import', disabled: !mayImport});
  const exportPairs = h('input', {type: 'radio', name: 'direction', id: 'direction-export', value: 'export', disabled: !mayReveal});
  const direction = () =>
    reveal.checked ? 'reveal' : withdraw.checked ? 'withdraw' : importPairs.checked ? 'import' : exportPairs.checked ? 'export' : 'pseudonymize';

  // where: pseudonymize and reveal run in this browser or as a job; withdraw only here, import and
  // export only as jobs
  const whereBrowser = h('input', {type: 'radio', name: 'where', id: 'where-browser', value: 'browser', checked: true});
  const whereServer = h('input', {type: 'radio', name: 'where', id: 'where-server', value: 'server'});
  const whereChoices = h('div', {class: 'choices'}, h('label', {for: 'where-browser'}, whereBrowser, ' In this browser'), h('label', {for: 'where-server'}, whereServer, ' On the server'));
  const whereHint = h('p', {class: 'hint', id: 'where-hint'});
  const jobsOffNote = h(
    'div',
    {class: 'message info', id: 'jobs-off', role: 'note', hidden: true},
    h('p', {}, h('strong', {}, 'CSV jobs are off on this service.'), ' It has no object store (S3) to keep their files, so On the server, Import and Export are not available.'),
    h('p', {}, 'An administrator must configure S3 (', h('code', {}, 'S3__IsEnabled'), ', ', h('code', {}, 'S3__ServiceUrl'), ', ', h('code', {}, 'S3__Bucket'), ') to turn them on. Processing in this browser works as before.'),
  );
  let jobsAreOff = false;
  const onServer = () => direction() === 'import' || direction() === 'export' || (direction() !== 'withdraw' && whereServer.checked);

  // source
  const sourcePaste = h('input', {type: 'radio', name: 'source', id: 'source-paste', value: 'paste', checked: true});
  const sourceFile = h('input', {type: 'radio', name: 'source', id: 'source-file', value: 'file'});
  const pasteInput = h('textarea', {id: 'pasteInput', rows: 8, spellcheck: 'false', placeholder: 'one value per line'});
  const fileInput = h('input', {type: 'file', id: 'csvFileInput', accept: '.csv,.tsv,.txt,text/csv,text/plain'});
  const pasteField = field('Values, one per line', pasteInput, 'A pasted list is read like a CSV file: one column, no header, unless you choose otherwise below.');
  const FILE_HINT = 'UTF-8 text. The file is read in this browser, piece by piece; files of millions of rows work.';
  const fileField = field('CSV file', fileInput, FILE_HINT);
  const fileHint = fileField.querySelector('.hint');
  fileField.hidden = true;

  // format
  const delimiter = h('select', {id: 'delimiter'}, DELIMITERS.map((d) => h('option', {value: d.value}, d.label)));
  const hasHeader = h('input', {type: 'checkbox', id: 'hasHeaderRow'});
  // the outputs that hold original values: a spreadsheet must not run what a value starts with
  const neutralize = h('input', {type: 'checkbox', id: 'neutralizeFormulas', checked: true, 'aria-describedby': 'neutralizeFormulas-hint'});
  const neutralizeField = h(
    'div',
    {class: 'field checkbox', id: 'neutralize-field'},
    neutralize,
    h('label', {for: 'neutralizeFormulas'}, 'Neutralize cells a spreadsheet would run'),
    h('p', {class: 'hint', id: 'neutralizeFormulas-hint'}, 'A cell that starts with =, +, -, @, a tab or a line break (a number such as -5 too) is written quoted after a single quote (\'), so that a spreadsheet shows it as text instead of running it as a formula.'),
  );
  const placeholders = h('input', {id: 'placeholders', value: 'NA, NULL', autocomplete: 'off'});
  const placeholdersField = field('Kept as they are', placeholders, 'Blank cells and these placeholders, comma-separated, ignoring case and spaces around them.');
  const serverPlaceholders = h('p', {class: 'hint', id: 'server-placeholders', hidden: true}, 'On the server, blank cells and the placeholders the service is configured with are kept as they are.');
  const sourceChoice = h('div', {class: 'choices'}, h('label', {for: 'source-paste'}, sourcePaste, ' Paste a list'), h('label', {for: 'source-file'}, sourceFile, ' Choose a CSV file'));
  const inputLegend = h('legend', {}, 'Input');

  // columns
  const columnsHint = h('p', {class: 'hint'});
  const columnsArea = h('div', {id: 'columns'}, h('p', {class: 'empty'}, 'Paste values or choose a file to see its columns.'));
  const previewArea = h('div', {id: 'preview', class: 'table-area'});

  // a value the service refuses on its own (its regex, blank, too long): stop, or skip and report
  const refusedStop = h('input', {type: 'radio', name: 'refused', id: 'refused-stop', value: 'stop', checked: true});
  const refusedSkip = h('input', {type: 'radio', name: 'refused', id: 'refused-skip', value: 'skip'});
  const refusedChoice = h(
    'fieldset',
    {class: 'card', id: 'refused-choice'},
    h('legend', {}, 'Values the service refuses'),
    h('div', {class: 'choices'}, h('label', {for: 'refused-stop'}, refusedStop, ' Stop at the first'), h('label', {for: 'refused-skip'}, refusedSkip, ' Skip invalid values and report them')),
    h('p', {class: 'hint'}, 'A value refused on its own (it does not match the namespace’s pattern, or is too long) either stops the run, naming its row, or is left out: its cells are written empty, the others are processed, and the report lists each row with the reason. Rows are counted from 1 as in the input, the header row being row 1.'),
  );

  // run
  const start = h('button', {type: 'submit', class: 'primary', id: 'start'}, 'Pseudonymize');
  const cancel = h('button', {type: 'button', class: 'secondary', id: 'cancel', hidden: true}, 'Cancel');
  const progress = h('progress', {id: 'progress', max: 1, value: 0, hidden: true, 'aria-label': 'Progress'});
  const progressText = h('p', {id: 'progress-text', class: 'summary', 'aria-live': 'polite'});
  const message = messageArea('csv-message');
  const result = h('div', {id: 'result'});

  let columns = []; // [{index, name, action, newColumn, namespace}] as the controls show them
  // as its controls show it; no namespace until one is chosen: a withdrawal cannot be undone
  const withdrawal = {column: 0, namespace: '', how: 'delete'};
  // as their controls show them: an import's columns (indexes) and namespace, an export's
  const transfer = {original: 0, pseudonym: 1, fromColumn: false, namespace: namespaces[0] ?? '', namespaceColumn: 2};
  const exported = {namespace: namespaces[0] ?? '', original: 'original', pseudonym: 'pseudonym'};
  const jobs = jobsList(context.signal, (job) => panel.follow(job, true));
  const panel = jobPanel(context.signal, () => jobs.refresh());
  let downloadUrl = null;
  let running = null;

  const source = () => {
    if (sourceFile.checked) {
      return fileInput.files[0] ?? null;
    }
    return pasteInput.value ? new Blob([pasteInput.value], {type: 'text/plain'}) : null;
  };

  const drawn = () => {
    const chosen = direction();
    columnsHint.textContent = {
      withdraw: 'Choose the column that holds the original values, their namespace and what happens. Only the values of that column are sent; blank cells and placeholders are not.',
      import: 'Choose the column of original values, the column of their pseudonyms and the namespace (one for all rows, or a column naming each row’s). The report adds a last column, status.',
      export: 'Choose the namespace and the names of the two columns. The export holds every original value of the namespace with its pseudonym.',
    }[chosen] ?? (onServer()
      ? 'Choose what happens to each column and the namespace of its pseudonyms. The whole file goes to the server; the result keeps the columns you keep as they are.'
      : 'Choose what happens to each column and the namespace of its pseudonyms. Columns you keep are never sent.');
    if (chosen === 'export') {
      drawExport(columnsArea, namespaces, exported);
    } else if (columns.length === 0) {
      replace(columnsArea, h('p', {class: 'empty'}, 'Paste values or choose a file to see its columns.'));
    } else if (chosen === 'withdraw') {
      drawWithdrawal(columnsArea, columns, namespaces, withdrawal);
    } else if (chosen === 'import') {
      drawImport(columnsArea, columns, namespaces, transfer);
    } else {
      drawColumns(columnsArea, columns, namespaces, chosen);
    }
  };

  const updateDirection = () => {
    const chosen = direction();
    const server = onServer();
    const suffix = server && (chosen === 'pseudonymize' || chosen === 'reveal') ? ' on the server' : '';
    start.textContent = {reveal: 'Reveal original values', withdraw: 'Withdraw consent…', pseudonymize: 'Pseudonymize', import: 'Import', export: 'Export'}[chosen] + suffix;
    start.className = chosen === 'withdraw' ? 'danger' : 'primary';
    const fixed = chosen !== 'pseudonymize' && chosen !== 'reveal';
    whereBrowser.disabled = fixed;
    whereServer.disabled = fixed || jobsAreOff;
    whereChoices.hidden = fixed;
    whereHint.textContent = {
      withdraw: 'Withdrawing consent runs in this browser only.',
      import: 'An import always runs on the server.',
      export: 'An export always runs on the server.',
    }[chosen] ?? (jobsAreOff
      ? 'On the server is not available: CSV jobs are off until an administrator configures S3.'
      : server
        ? 'The whole file goes straight from this browser to the service’s object store (S3); the service processes it there and offers the result for download. It keeps running when you leave this page.'
        : 'The file is read in this browser; only the values of the chosen columns are sent, in batches.');
    const exporting = chosen === 'export';
    inputLegend.textContent = exporting ? 'Format' : 'Input';
    sourceChoice.hidden = exporting;
    pasteField.hidden = exporting || !sourcePaste.checked;
    fileField.hidden = exporting || !sourceFile.checked;
    fileHint.textContent = server ? 'UTF-8 text. The whole file is uploaded to the service’s object store and processed there.' : FILE_HINT;
    placeholdersField.hidden = server;
    neutralizeField.hidden = chosen === 'pseudonymize';
    serverPlaceholders.hidden = !server || exporting;
    previewArea.hidden = exporting;
    refusedChoice.hidden = server || exporting || chosen === 'import';
    document.getElementById('confirm-panel')?.remove();
    drawn();
  };

  /** Jobs are off: the server's options go, the page says why, the browser's stay. */
  const turnJobsOff = () => {
    jobsAreOff = true;
    jobsOffNote.hidden = false;
    importPairs.disabled = true;
    exportPairs.disabled = true;
    whereServer.checked = false;
    whereBrowser.checked = true;
    if (importPairs.checked || exportPairs.checked) {
      pseudonymize.checked = true;
    }
    updateDirection();
  };

  const updatePreview = async (guess) => {
    const blob = source();
    if (!blob) {
      columns = [];
      replace(previewArea);
      drawn();
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
    transfer.original = Math.min(transfer.original, width - 1);
    transfer.pseudonym = Math.min(transfer.pseudonym, width - 1);
    transfer.namespaceColumn = Math.min(transfer.namespaceColumn, width - 1);
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
  whereBrowser.addEventListener('change', updateDirection);
  whereServer.addEventListener('change', updateDirection);
  importPairs.addEventListener('change', updateDirection);
  exportPairs.addEventListener('change', () => {
    // an export's header row names its columns
    hasHeader.checked = true;
    updateDirection();
    updatePreview(false);
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
  updateDirection();

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
        h('label', {for: 'direction-import'}, importPairs, ' Import pairs'),
        h('label', {for: 'direction-export'}, exportPairs, ' Export a namespace'),
      ),
      mayReveal ? null : h('p', {class: 'hint'}, denial(session, 'reverseLookup')),
      withdrawDenied && mayReveal ? h('p', {class: 'hint'}, withdrawDenied) : null,
      mayImport ? null : h('p', {class: 'hint'}, 'You may not import: that needs the permission to create pseudonyms.'),
    ),
    h(
      'fieldset',
      {class: 'card', id: 'where'},
      h('legend', {}, 'Where'),
      whereChoices,
      whereHint,
      jobsOffNote,
    ),
    h(
      'fieldset',
      {class: 'card'},
      inputLegend,
      sourceChoice,
      pasteField,
      fileField,
      h(
        'div',
        {class: 'form-grid'},
        field('Delimiter', delimiter),
        placeholdersField,
        h('div', {class: 'field checkbox'}, hasHeader, h('label', {for: 'hasHeaderRow'}, 'The first row holds the column names')),
        neutralizeField,
      ),
      serverPlaceholders,
    ),
    h('fieldset', {class: 'card'}, h('legend', {}, 'Columns'), columnsHint, columnsArea, previewArea),
    refusedChoice,
    h('div', {class: 'actions'}, start, cancel),
    progress,
    progressText,
    message,
    result,
  );

  /**
   * Creates the job, uploads the blob to it (none for an export) and starts it, then follows it.
   * Fails with a message on the page; when jobs are off, the page turns their options off.
   */
  const submitJob = async (draft, blob) => {
    start.disabled = true;
    let job;
    try {
      job = await api.createCsvJob(draft);
    } catch (e) {
      start.disabled = false;
      if (jobsOff(e)) {
        turnJobsOff();
        showMessage(message, 'error', 'CSV jobs are off on this service, so nothing was started. Choose In this browser to process the file here.');
      } else {
        showMessage(message, 'error', e.message);
      }
      return;
    }
    if (!blob) {
      start.disabled = false;
      panel.follow(job, true);
      jobs.refresh();
      showMessage(message, 'success', 'The export is queued; it runs on the server even if you leave this page.');
      return;
    }
    const controller = new AbortController();
    running = controller;
    const signal = AbortSignal.any([controller.signal, context.signal]);
    cancel.hidden = false;
    context.setLeaveWarning('The file is still being uploaded. Leave the page and stop it?');
    jobs.refresh();
    try {
      panel.uploading(job, 0, blob.size);
      await api.uploadCsvFile(job.uploadUrl, job.uploadHeaders, blob, (sent, total) => panel.uploading(job, sent, total), signal);
      context.setLeaveWarning(null);
      cancel.hidden = true;
      job = await api.startCsvJob(job.id);
      panel.follow(job, true);
      showMessage(message, 'success', 'Uploaded. The job runs on the server even if you leave this page; you find it under Your jobs.');
    } catch (e) {
      if (signal.aborted) {
        showMessage(message, 'info', 'Stopped. The upload was cancelled and nothing was processed.');
      } else {
        showMessage(message, 'error', e.message);
      }
      // the job did not start: cancel it if it still waits for its file, and show how it ended
      const ended = await api.cancelCsvJob(job.id).catch(() => null);
      if (ended && !context.signal.aborted) {
        panel.follow(ended, false);
      }
    } finally {
      running = null;
      start.disabled = false;
      cancel.hidden = true;
      context.setLeaveWarning(null);
      jobs.refresh();
    }
  };

  /** The job of the page's choices: its draft and the blob to upload (none for an export). */
  const runOnServer = async (blob) => {
    const chosen = direction();
    const header = hasHeader.checked;
    // a job names columns by their header name, or by 0-based index in a file without a header
    const column = (index) => (header ? columns[index].name : String(index));
    const base = {delimiter: delimiter.value, hasHeaderRow: header, fileName: sourceFile.checked ? fileInput.files[0]?.name ?? '' : 'list.csv'};
    let problem;
    let draft;
    if (chosen === 'export') {
      problem = validateExport(exported, session);
      draft = {
        direction: 'CSV_JOB_DIRECTION_EXPORT',
        xNeutralizeFormulas: neutralize.checked,
        delimiter: delimiter.value,
        hasHeaderRow: header,
        fileName: `${exported.namespace}.csv`,
        columnMappings: [{sourceColumn: exported.original.trim(), targetColumn: exported.pseudonym.trim(), namespace: exported.namespace}],
      };
      blob = null;
    } else if (chosen === 'import') {
      problem = validateImport(blob, columns, transfer, session);
      if (!problem) {
        const mapping = {sourceColumn: column(transfer.original), targetColumn: column(transfer.pseudonym)};
        if (transfer.fromColumn) {
          mapping.namespaceColumn = column(transfer.namespaceColumn);
        } else {
          mapping.namespace = transfer.namespace;
        }
        draft = {...base, direction: 'CSV_JOB_DIRECTION_IMPORT', xNeutralizeFormulas: neutralize.checked, columnMappings: [mapping]};
      }
    } else {
      const mapped = columns.filter((c) => c.action !== 'keep');
      problem = validate(blob, mapped, chosen, session);
      if (!problem && !header && mapped.some((c) => c.action === 'add')) {
        problem = 'Without a header row, a job can only replace columns: choose Replace, or run it in this browser.';
      }
      if (!problem) {
        const reverse = chosen === 'reveal';
        draft = {
          ...base,
          direction: reverse ? 'CSV_JOB_DIRECTION_DEPSEUDONYMIZE' : 'CSV_JOB_DIRECTION_PSEUDONYMIZE',
          columnMappings: mapped.map((c) => ({sourceColumn: column(c.index), targetColumn: c.action === 'add' ? c.newColumn.trim() : '', namespace: c.namespace})),
        };
        if (reverse) {
          draft.xNeutralizeFormulas = neutralize.checked;
        } else {
          // as in this browser: a value without a pseudonym gets one
          draft.pseudonymizeMode = 'PSEUDONYMIZE_MODE_CREATE_IF_MISSING';
        }
      }
    }
    if (problem) {
      showMessage(message, 'error', problem);
      return;
    }
    await submitJob(draft, blob);
  };

  const readOptions = () => ({
    delimiter: delimiter.value,
    hasHeader: hasHeader.checked,
    placeholders: placeholders.value.split(',').map((p) => p.trim()).filter(Boolean),
    maxRequestBytes: session.limits?.maxRequestBodyBytes,
    // a pseudonymized file holds pseudonyms in place of the original values: written as it is
    neutralize: direction() !== 'pseudonymize' && neutralize.checked,
    skipRefused: refusedSkip.checked,
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
    let last = null;
    const onProgress = (p) => {
      last = p;
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
      showMessage(message, 'success', outcome.refused > 0 ? `Done; ${formatNumber(outcome.refused)} refused cell${outcome.refused === 1 ? ' was' : 's were'} left empty (see Refused values).` : 'Done.');
    } catch (e) {
      // the line shows how far the run came, never a start that is over
      progress.hidden = true;
      progressText.textContent = last ? describe(last, job.parts(last)) : '';
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
      // the count is of the distinct values, as they are sent: a value on many rows is sent once
      text: [`Withdraw consent for the ${formatNumber(count)} distinct value${count === 1 ? '' : 's'} of `, h('strong', {}, name), ' in ', h('strong', {}, namespace), '? ', consequences(how, namespace, count)],
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
    if (onServer()) {
      await runOnServer(blob);
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
  onSubmit(form, run);
  cancel.addEventListener('click', () => running?.abort());
  context.signal.addEventListener('abort', () => downloadUrl && URL.revokeObjectURL(downloadUrl));

  replace(
    page,
    h('h1', {tabindex: -1}, 'Lists and CSV files'),
    h(
      'p',
      {class: 'lead'},
      `Pseudonymize a list of values or columns of a CSV file, reveal the original values again, or withdraw consent for the values of a column. In this browser, the file is read here: only the values of the columns you choose are sent to the service, in batches of up to ${formatNumber(MAX_VALUES_PER_CALL)}, and everything else never leaves this browser. On the server, the whole file is uploaded and processed there as a job, as are imports and exports of pairs.`,
    ),
    loadMessage,
    namespaces.length === 0 ? h('p', {class: 'message info'}, 'There are no namespaces yet. ', h('a', {href: '/ui/namespaces'}, 'Create one'), ' first.') : null,
    form,
    panel.panel,
    jobs.section,
  );
  jobs.refresh();
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

/** What keeps an import from being created; null when nothing does. */
function validateImport(blob, columns, transfer, session) {
  if (!blob) {
    return 'Paste pairs or choose a file first.';
  }
  if (!columns[transfer.original] || !columns[transfer.pseudonym]) {
    return 'Choose the column of original values and the column of pseudonyms.';
  }
  if (transfer.original === transfer.pseudonym) {
    return 'The original values and the pseudonyms must be in different columns.';
  }
  if (transfer.fromColumn) {
    if (!columns[transfer.namespaceColumn] || [transfer.original, transfer.pseudonym].includes(transfer.namespaceColumn)) {
      return 'Choose the column that names each row’s namespace, other than the values’ columns.';
    }
    return can(session, 'write', '*') ? null : 'Reading each row’s namespace from a column needs the permission to create pseudonyms in every namespace.';
  }
  if (!transfer.namespace) {
    return 'Choose the namespace of the pairs.';
  }
  return can(session, 'write', transfer.namespace) ? null : `${transfer.namespace}: ${denial(session, 'write', transfer.namespace)}`;
}

/** What keeps an export from being created; null when nothing does. */
function validateExport(exported, session) {
  if (!exported.namespace) {
    return 'Choose the namespace to export.';
  }
  if (!exported.original.trim() || !exported.pseudonym.trim()) {
    return 'Name both columns of the export.';
  }
  if (exported.original.trim() === exported.pseudonym.trim()) {
    return 'The two columns of the export need different names.';
  }
  return can(session, 'reverseLookup', exported.namespace) ? null : `${exported.namespace}: ${denial(session, 'reverseLookup', exported.namespace)}`;
}

/** The progress line: the counters, then what the job adds (extra). */
function describe(p, extra) {
  const rate = p.seconds > 0 ? Math.round(p.rows / p.seconds) : 0;
  const parts = [`${formatNumber(p.rows)} rows`, `${formatNumber(rate)} rows/s`, `${formatNumber(p.sent)} distinct values sent`, `${formatNumber(p.kept)} blank or placeholder cells kept`, ...extra];
  if (p.refused > 0) {
    parts.push(`${formatNumber(p.refused)} refused cell${p.refused === 1 ? '' : 's'} left empty`);
  }
  if (p.malformed > 0) {
    parts.push(`${formatNumber(p.malformed)} malformed rows (stray quotes, kept as read)`);
  }
  if (p.neutralized > 0) {
    parts.push(`${formatNumber(p.neutralized)} cell${p.neutralized === 1 ? '' : 's'} neutralized`);
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
  replace(area, h('h2', {}, 'Result'), ...children, refusalReport(outcome));
  link.focus();
}

/** The rows whose value the service refused, with the reason; null when there are none. */
function refusalReport(outcome) {
  if (!outcome.refused) {
    return null;
  }
  const listed = outcome.refusals.length;
  return h(
    'section',
    {id: 'refusals', 'aria-labelledby': 'refusals-heading'},
    h('h3', {id: 'refusals-heading'}, 'Refused values'),
    h(
      'p',
      {class: 'hint'},
      `${formatNumber(outcome.refused)} cell${outcome.refused === 1 ? '' : 's'} left empty${listed < outcome.refused ? `; the first ${formatNumber(listed)} are listed` : ''}. Rows are counted from 1 as in the input, the header row being row 1.`,
    ),
    h(
      'table',
      {class: 'data', id: 'refusals-table'},
      h('thead', {}, h('tr', {}, h('th', {scope: 'col', class: 'number'}, 'Row'), h('th', {scope: 'col', class: 'number'}, 'Column'), h('th', {scope: 'col'}, 'Reason'))),
      h('tbody', {}, outcome.refusals.map((r) => h('tr', {}, h('td', {class: 'number'}, String(r.row)), h('td', {class: 'number'}, String(r.column + 1)), h('td', {}, r.reason)))),
    ),
  );
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
  const namespace = h(
    'select',
    {id: 'withdraw-namespace', required: true},
    h('option', {value: ''}, 'Choose a namespace'),
    namespaces.map((n) => h('option', {value: n}, n)),
  );
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

/** The controls of an import: the two columns of each pair, and the namespace or its column. */
function drawImport(area, columns, namespaces, transfer) {
  if (columns.length === 0) {
    return;
  }
  const columnSelect = (id, key) => {
    const select = h('select', {id}, columns.map((c) => h('option', {value: String(c.index)}, c.name)));
    select.value = String(transfer[key]);
    select.addEventListener('change', () => (transfer[key] = Number(select.value)));
    return select;
  };
  const namespace = h('select', {id: 'import-namespace', disabled: transfer.fromColumn}, namespaces.map((n) => h('option', {value: n}, n)));
  namespace.value = transfer.namespace;
  namespace.addEventListener('change', () => (transfer.namespace = namespace.value));
  const namespaceColumn = columnSelect('import-namespace-column', 'namespaceColumn');
  namespaceColumn.disabled = !transfer.fromColumn;
  const one = h('input', {type: 'radio', name: 'import-namespace-from', id: 'import-namespace-one', checked: !transfer.fromColumn});
  const each = h('input', {type: 'radio', name: 'import-namespace-from', id: 'import-namespace-each', checked: transfer.fromColumn});
  const choose = () => {
    transfer.fromColumn = each.checked;
    namespace.disabled = transfer.fromColumn;
    namespaceColumn.disabled = !transfer.fromColumn;
  };
  one.addEventListener('change', choose);
  each.addEventListener('change', choose);
  replace(
    area,
    h(
      'div',
      {class: 'form-grid'},
      field('Column of original values', columnSelect('import-original', 'original')),
      field('Column of pseudonyms', columnSelect('import-pseudonym', 'pseudonym')),
    ),
    h(
      'fieldset',
      {class: 'choices-set'},
      h('legend', {}, 'Namespace'),
      h('div', {class: 'choices'}, h('label', {for: 'import-namespace-one'}, one, ' One namespace for all rows'), h('label', {for: 'import-namespace-each'}, each, ' A column names each row’s namespace')),
      h('div', {class: 'form-grid'}, field('Namespace', namespace), field('Column of namespaces', namespaceColumn)),
    ),
    h('p', {class: 'hint'}, 'The report is the file with a last column, ', h('code', {}, 'status'), ': Imported, AlreadyPresent, OriginalValueConflict, PseudonymValueConflict, InvalidOriginalValue, ParentValueMissing, UnknownNamespace or MissingValue.'),
  );
}

/** The controls of an export: the namespace and the names of its two columns. */
function drawExport(area, namespaces, exported) {
  const namespace = h('select', {id: 'export-namespace'}, namespaces.map((n) => h('option', {value: n}, n)));
  namespace.value = exported.namespace;
  namespace.addEventListener('change', () => (exported.namespace = namespace.value));
  const name = (id, key) => {
    const input = h('input', {id, value: exported[key], autocomplete: 'off'});
    input.addEventListener('input', () => (exported[key] = input.value));
    return input;
  };
  replace(
    area,
    h(
      'div',
      {class: 'form-grid'},
      field('Namespace', namespace),
      field('Column of original values', name('export-original', 'original'), 'Its name in the header row.'),
      field('Column of pseudonyms', name('export-pseudonym', 'pseudonym'), 'Its name in the header row.'),
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
