// Small helpers to build the pages. Text always goes in as text, never as HTML.

/**
 * Creates an element: h('button', {type: 'button', onclick: fn}, 'Save').
 * Attributes named on* become listeners, `class` and `for` map to their properties, `true`
 * sets a boolean attribute, `false`, null and undefined leave it out. Children may be strings,
 * nodes, arrays of them, or null.
 */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === false || value === null || value === undefined) {
      continue;
    }
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'class') {
      element.className = value;
    } else if (name === 'for') {
      element.htmlFor = value;
    } else if (name === 'value') {
      element.value = value;
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    if (Array.isArray(child)) {
      append(parent, child);
    } else {
      parent.append(child instanceof Node ? child : String(child));
    }
  }
}

/** Replaces the element's content. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/** A labelled form field: the label, the control, and an optional hint tied to the control. */
export function field(label, control, hint) {
  const hintId = hint ? `${control.id}-hint` : null;
  if (hintId) {
    control.setAttribute('aria-describedby', hintId);
  }
  return h(
    'div',
    {class: 'field'},
    h('label', {for: control.id}, label),
    control,
    hint ? h('p', {class: 'hint', id: hintId}, hint) : null,
  );
}

/** A message area: an alert for errors (read out at once), a status line otherwise. */
export function messageArea(id) {
  return h('div', {id, class: 'message', role: 'status', 'aria-live': 'polite'});
}

/** Shows a message in an area from messageArea; kind is 'error', 'success' or 'info'. */
export function showMessage(area, kind, text) {
  area.className = `message ${kind}`;
  area.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  replace(area, text ?? '');
}

/** Empties a message area. */
export function clearMessage(area) {
  area.className = 'message';
  area.setAttribute('role', 'status');
  area.replaceChildren();
}

const numbers = new Intl.NumberFormat('en');

/** 12345 → "12,345". */
export function formatNumber(value) {
  return numbers.format(value);
}

/** An RFC 3339 timestamp → "yyyy-MM-dd HH:mm:ss UTC": the same for every reader, the zone written. */
export function formatTime(timestamp) {
  if (!timestamp) {
    return '';
  }
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) {
    return timestamp;
  }
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * Runs an action at most once at a time: while it runs, the button is disabled and further
 * calls are ignored, so a double click submits once.
 */
export function guarded(button, action) {
  let running = false;
  return async (...args) => {
    if (running) {
      return;
    }
    running = true;
    const wasDisabled = button.disabled;
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    try {
      await action(...args);
    } finally {
      running = false;
      button.disabled = wasDisabled;
      button.removeAttribute('aria-busy');
    }
  };
}

/** Runs the action when the form is submitted, in place of the browser's own submission. */
export function onSubmit(form, action) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    action();
  });
}

/**
 * A form of the children, then its actions (the submit button) and its message area. A submission
 * clears the message and runs submitted, at most once at a time (see guarded).
 */
export function submittingForm(attributes, children, {submit, message, submitted}) {
  const form = h('form', attributes, children, h('div', {class: 'actions'}, submit), message);
  onSubmit(
    form,
    guarded(submit, async () => {
      clearMessage(message);
      await submitted();
    }),
  );
  return form;
}

/**
 * Whether a form's entry is valid; where it is not, the message area shows text as an error and
 * the focus goes to the control to correct.
 */
export function checkEntry(valid, message, control, text) {
  if (!valid) {
    showMessage(message, 'error', text);
    control.focus();
  }
  return valid;
}

/** Whether the input holds more than white space; where it does not, as checkEntry. */
export function checkFilled(input, message, text) {
  return checkEntry(input.value.trim() !== '', message, input, text);
}

/**
 * What load answers, for a page to show; undefined when it failed, whose message then shows as an
 * error in the message area, or when the page was left meanwhile (the signal aborted).
 */
export async function loadOrShowError(message, signal, load) {
  let loaded;
  try {
    loaded = await load();
  } catch (e) {
    showMessage(message, 'error', e.message);
    return undefined;
  }
  return signal.aborted ? undefined : loaded;
}

/**
 * Shows the items in the area as a data table, or the empty text when there are none.
 *
 * @param id the table's id
 * @param caption what the table holds, for screen readers
 * @param headers the header row's cells (see columnHeaders and actionsHeader)
 * @param row the row of one item
 */
export function showDataTable(area, items, {id, caption, headers, row, empty}) {
  if (items.length === 0) {
    replace(area, h('p', {class: 'empty'}, empty));
    return;
  }
  replace(
    area,
    h(
      'table',
      {class: 'data', id},
      h('caption', {class: 'visually-hidden'}, caption),
      h('thead', {}, h('tr', {}, headers)),
      h('tbody', {}, items.map((item) => row(item))),
    ),
  );
}

/** The header cells of plain columns, one per label. */
export function columnHeaders(labels) {
  return labels.map((label) => h('th', {scope: 'col'}, label));
}

/** The header cell of a column of row actions: named for screen readers only. */
export function actionsHeader() {
  return h('th', {scope: 'col'}, h('span', {class: 'visually-hidden'}, 'Actions'));
}

/** A button that copies the text to the clipboard; null where the browser offers no clipboard. */
export function copyButton(text, label) {
  if (!navigator.clipboard) {
    return null;
  }
  const button = h('button', {type: 'button', class: 'secondary small', 'aria-label': label ?? false}, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed';
    }
  });
  return button;
}

/**
 * The form of a confirmation: the text, a danger button and Cancel; Cancel and Escape call close.
 * Its ids start with id: `${id}-button`, `${id}-message` (the area for a failure).
 */
function confirmForm(id, text, button, close) {
  const confirmButton = h('button', {type: 'submit', class: 'danger', id: `${id}-button`}, button);
  const cancel = h('button', {type: 'button', class: 'secondary'}, 'Cancel');
  const error = messageArea(`${id}-message`);
  const form = h('form', {class: 'confirm', novalidate: true}, h('p', {}, text), h('div', {class: 'actions'}, confirmButton, cancel), error);
  cancel.addEventListener('click', close);
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      close();
    }
  });
  return {form, confirmButton, error};
}

/**
 * Opens a confirmation row under the row: the text, a button that runs the action and Cancel.
 * One at a time on the page. Once the action is done, the message says so, refresh redraws the
 * table and the focus goes to its heading.
 */
export function confirmRow(tr, opener, width, {text, button, run, done, message, heading, refresh}) {
  document.getElementById('confirm-row')?.remove();
  const close = () => {
    row.remove();
    opener.focus();
  };
  const {form, confirmButton, error} = confirmForm('confirm-row', text, button, close);
  const row = h('tr', {id: 'confirm-row', class: 'confirm-row'}, h('td', {colspan: width}, form));
  const act = guarded(confirmButton, async () => {
    try {
      await run();
    } catch (e) {
      showMessage(error, 'error', e.message);
      return;
    }
    row.remove();
    showMessage(message, 'success', done);
    await refresh();
    heading.setAttribute('tabindex', '-1');
    heading.focus();
  });
  onSubmit(form, act);
  tr.after(row);
  confirmButton.focus();
}

/**
 * Opens a confirmation panel (id `confirm-panel`) after the element, for an action outside a
 * table: the text, a button and Cancel. One at a time on the page. The button closes the panel
 * and calls confirmed, which shows the outcome itself; Cancel and Escape close it and give the
 * focus back to the opener.
 */
export function confirmPanel(element, opener, {text, button, confirmed}) {
  document.getElementById('confirm-panel')?.remove();
  const close = () => {
    panel.remove();
    opener.focus();
  };
  const {form, confirmButton} = confirmForm('confirm-panel', text, button, close);
  const panel = h('div', {id: 'confirm-panel', class: 'confirm-panel', role: 'group', 'aria-label': 'Confirmation'}, form);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (panel.isConnected) {
      panel.remove();
      confirmed();
    }
  });
  element.after(panel);
  confirmButton.focus();
}
