// Namespaces: the table of namespaces with their pseudonym counts, the create form, and delete
// with a typed confirmation.

import * as api from '../api.js';
import {can, denial} from '../session.js';
import {DEFAULT_LENGTH, lengthHint, methodLabel, offeredMethods} from '../methods.js';
import {regexTester} from '../regex-tester.js';
import {formatFields} from '../format-fields.js';
import {h, replace, field, messageArea, showMessage, clearMessage, formatNumber, guarded, onSubmit, submittingForm, checkEntry, checkFilled, loadOrShowError} from '../dom.js';

/** How many pseudonym counts are asked for at once (each counts one namespace's rows). */
const PARALLEL_COUNTS = 2;

export async function render(page, context) {
  context.setTitle('Namespaces');
  const tableArea = h('div', {class: 'table-area'});
  const listMessage = messageArea('namespaces-message');
  // the parent choices follow the table: what it lists, less what is deleted from it
  const parents = {listed: (namespaces) => create.setParents(namespaces), deleted: (name) => create.forgetParent(name)};
  const reload = () => loadTable(tableArea, listMessage, context, parents);
  const create = createSection(context, reload, listMessage);
  replace(
    page,
    h('h1', {tabindex: -1}, 'Namespaces'),
    h(
      'p',
      {class: 'lead'},
      'A namespace holds the settings its pseudonyms are generated with. The same value gets the same pseudonym within a namespace, and different ones in different namespaces.',
    ),
    create.section,
    h('section', {'aria-labelledby': 'list-heading'}, h('h2', {id: 'list-heading'}, 'All namespaces'), listMessage, tableArea),
  );
  await reload();
}

function wide(element) {
  element.classList.add('wide');
  return element;
}

function createSection(context, reload, listMessage) {
  const allowed = can(context.session, 'admin');
  const name = h('input', {id: 'name', name: 'name', required: true, maxlength: 256, autocomplete: 'off'});
  const description = h('input', {id: 'description', name: 'description', maxlength: 4096, autocomplete: 'off'});
  const methods = offeredMethods(context.session.generation);
  const method = h(
    'select',
    {id: 'method', name: 'method'},
    methods.map((m) =>
      h(
        'option',
        {value: m.name, disabled: Boolean(m.unavailable)},
        m.unavailable ?? (m.fixedLength ? `${m.label} (${m.fixedLength} characters)` : m.label),
      ),
    ),
  );
  const length = h('input', {id: 'length', name: 'length', type: 'number', min: 1, max: 1024, required: true, value: String(DEFAULT_LENGTH)});
  const prefix = h('input', {id: 'prefix', name: 'prefix', maxlength: 256, autocomplete: 'off'});
  const suffix = h('input', {id: 'suffix', name: 'suffix', maxlength: 256, autocomplete: 'off'});
  const multiple = h('input', {id: 'allows-multiple', name: 'allowsMultiplePseudonyms', type: 'checkbox', 'aria-describedby': 'allows-multiple-hint'});
  const multipleHint = h('p', {class: 'hint', id: 'allows-multiple-hint'});
  const parent = h('select', {id: 'parent', name: 'parentName'}, h('option', {value: ''}, 'None'));
  const parentMode = h(
    'select',
    {id: 'parent-mode', name: 'parentValidationMode'},
    h('option', {value: 'PARENT_VALIDATION_MODE_UNSPECIFIED'}, 'No check'),
    h('option', {value: 'PARENT_VALIDATION_MODE_ENSURE_EXISTS'}, 'Each value must be a pseudonym of the parent'),
  );
  const regex = h('input', {id: 'regex', name: 'originalValueValidationRegex', maxlength: 1024, autocomplete: 'off', spellcheck: 'false'});
  const regexError = h('p', {class: 'inline-error', id: 'regex-error', hidden: true});
  const tester = regexTester(regex);
  const submit = h('button', {type: 'submit', class: 'primary'}, 'Create');
  const message = messageArea('create-message');
  const lengthField = field('Length', length, ' ');
  const lengthHintText = lengthField.querySelector('.hint');
  // SHA-256 pseudonyms can be computed by anyone from a guessed value: said where it is chosen
  const sha256Warning = h(
    'p',
    {class: 'message warning wide', id: 'sha256-warning', role: 'note', hidden: true},
    h('strong', {}, 'SHA-256 pseudonyms can be reversed by guessing. '),
    'The pseudonym is the unkeyed hash of the value, so anyone holding one can hash likely values (record numbers, dates of birth, names) until one matches, and learn the original. Choose it only where a client must compute the pseudonym itself and the values cannot be guessed; otherwise choose a random method or VOPRF.',
  );
  method.setAttribute('aria-describedby', 'sha256-warning');
  const showLengthHint = () => {
    const chosen = methods.find((m) => m.name === method.value);
    const written = chosen?.alphabet ? format.writtenLength(Number(length.value)) : null;
    lengthHintText.textContent = chosen ? lengthHint(chosen, Number(length.value), written) : '';
  };
  // the alphabet method's format, with its example of the form's length, prefix and suffix
  const format = formatFields(() => ({length: Number(length.value), prefix: prefix.value, suffix: suffix.value}), showLengthHint);
  const alphabetChosen = () => Boolean(methods.find((m) => m.name === method.value)?.alphabet);
  const showExample = () => (alphabetChosen() ? format.redraw() : showLengthHint());
  length.addEventListener('input', showExample);
  prefix.addEventListener('input', showExample);
  suffix.addEventListener('input', showExample);
  const parentModeField = field('Parent check', parentMode, 'Choose a parent first.');
  const parentModeHint = parentModeField.querySelector('.hint');
  const regexField = field(
    'Validation regex',
    regex,
    'Optional. Every original value must match it somewhere, so anchor it as ^…$ to match the whole value. RE2 syntax: no lookaround, no backreferences.',
  );
  regexField.append(regexError);
  regex.setAttribute('aria-describedby', `${regex.getAttribute('aria-describedby')} regex-error`);

  const lockLength = () => {
    const chosen = methods.find((m) => m.name === method.value);
    const fixed = chosen?.fixedLength;
    length.readOnly = Boolean(fixed);
    if (fixed) {
      length.value = String(fixed);
    } else if (length.dataset.locked) {
      length.value = String(DEFAULT_LENGTH);
    }
    length.dataset.locked = fixed ? 'true' : '';
    format.show(alphabetChosen());
    showLengthHint();
    sha256Warning.hidden = method.value !== 'PSEUDONYM_GENERATION_METHOD_SHA256_HEX_ENCODED';
    // a pseudonym derived from the value is the only one the value can have
    multiple.disabled = !allowed || Boolean(chosen?.derived);
    if (chosen?.derived) {
      multiple.checked = false;
      multipleHint.textContent = `${chosen.label} derives the pseudonym from the value, so a value has exactly one.`;
    } else {
      multipleHint.textContent = 'Creating pseudonyms may then ask for a count: a value keeps its pseudonyms and gets more.';
    }
  };
  method.addEventListener('change', lockLength);

  const lockParentMode = () => {
    parentMode.disabled = !allowed || parent.value === '';
    if (parent.value === '') {
      parentMode.value = 'PARENT_VALIDATION_MODE_UNSPECIFIED';
      parentModeHint.textContent = 'Choose a parent first.';
    } else {
      parentModeHint.textContent = 'With the check, a value is only accepted if it is a pseudonym in the parent namespace.';
    }
  };
  parent.addEventListener('change', lockParentMode);

  const setRegexError = (text) => {
    regexError.hidden = !text;
    regexError.textContent = text ?? '';
    if (text) {
      regex.setAttribute('aria-invalid', 'true');
    } else {
      regex.removeAttribute('aria-invalid');
    }
  };
  regex.addEventListener('input', () => setRegexError(null));

  const create = async () => {
    setRegexError(null);
    if (!checkFilled(name, message, 'Enter a name.')) {
      return;
    }
    if (!checkEntry(length.checkValidity(), message, length, 'The length must be a whole number from 1 to 1024.')) {
      return;
    }
    const draft = {
      name: name.value,
      pseudonymGenerationMethod: method.value,
      pseudonymLength: Number(length.value),
      pseudonymPrefix: prefix.value,
      pseudonymSuffix: suffix.value,
      allowsMultiplePseudonyms: multiple.checked,
    };
    if (description.value) {
      draft.description = description.value;
    }
    if (regex.value) {
      draft.originalValueValidationRegex = regex.value;
    }
    if (parent.value) {
      draft.parentName = parent.value;
      draft.parentValidationMode = parentMode.value;
    }
    if (alphabetChosen()) {
      draft.xFormat = format.value();
    }
    try {
      const created = await api.createNamespace(draft);
      showMessage(message, 'success', `Namespace '${created.name}' created.`);
      for (const input of [name, description, prefix, suffix, regex]) {
        input.value = '';
      }
      multiple.checked = false;
      parent.value = '';
      lockParentMode();
      tester.reset();
      showExample();
      clearMessage(listMessage);
      await reload();
      name.focus();
    } catch (e) {
      showMessage(message, 'error', e.message);
      // the service's RE2 has the last word on a pattern: its refusal goes under the field
      if (e.code === 3 && /validation regex/i.test(e.message)) {
        setRegexError(e.message);
        regex.focus();
      }
    }
  };
  const form = submittingForm(
    {id: 'create-namespace', class: 'card form-grid', novalidate: true},
    [
      field('Name', name, 'Cannot be changed later.'),
      field('Description', description, 'Optional.'),
      wide(field('Method', method)),
      sha256Warning,
      lengthField,
      field('Prefix', prefix, 'Put before every pseudonym, e.g. "stud-".'),
      field('Suffix', suffix),
      format.element,
      h(
        'div',
        {class: 'field'},
        h('div', {class: 'check'}, multiple, h('label', {for: 'allows-multiple'}, 'Several pseudonyms per original value')),
        multipleHint,
      ),
      field('Parent namespace', parent, 'Optional. A namespace is deleted only after its children.'),
      wide(parentModeField),
      h('div', {class: 'regex-area'}, regexField, tester.element),
    ],
    {submit, message, submitted: create},
  );
  lockLength();
  lockParentMode();
  if (!allowed) {
    for (const control of form.elements) {
      control.disabled = true;
    }
    showMessage(message, 'info', denial(context.session, 'admin'));
  }
  /** The namespaces a new one may name as its parent; a chosen one stays chosen if it is still there. */
  const setParents = (namespaces) => {
    const chosen = parent.value;
    replace(parent, h('option', {value: ''}, 'None'), namespaces.map((n) => h('option', {value: n.name}, n.name)));
    parent.value = namespaces.some((n) => n.name === chosen) ? chosen : '';
    lockParentMode();
  };
  const forgetParent = (deleted) => {
    for (const option of [...parent.options]) {
      if (option.value === deleted) {
        option.remove();
      }
    }
    if (parent.value === '') {
      lockParentMode();
    }
  };
  return {
    forgetParent,
    section: h('section', {'aria-labelledby': 'create-heading'}, h('h2', {id: 'create-heading'}, 'Create a namespace'), form),
    setParents,
  };
}

async function loadTable(area, message, context, parents) {
  const namespaces = await loadOrShowError(message, context.signal, () => api.listNamespaces());
  if (namespaces === undefined) {
    return;
  }
  namespaces.sort((a, b) => a.name.localeCompare(b.name));
  parents.listed(namespaces);
  if (namespaces.length === 0) {
    replace(area, h('p', {class: 'empty'}, 'No namespaces yet. Create one above.'));
    return;
  }
  const counts = new CountLoader(context.signal);
  const body = h('tbody');
  for (const namespace of namespaces) {
    body.append(row(namespace, counts, context, message, area, parents));
  }
  replace(
    area,
    h(
      'table',
      {class: 'data', id: 'namespaces'},
      h('caption', {class: 'visually-hidden'}, 'Namespaces'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Name', 'Description', 'Method', 'Length', 'Prefix', 'Suffix'].map((t) => h('th', {scope: 'col'}, t)),
          h('th', {scope: 'col', class: 'number'}, 'Pseudonyms'),
          h('th', {scope: 'col'}, h('span', {class: 'visually-hidden'}, 'Actions')),
        ),
      ),
      body,
    ),
  );
}

function row(namespace, counts, context, message, area, parents) {
  const href = `/ui/namespaces/${encodeURIComponent(namespace.name)}/pseudonyms`;
  const count = h('td', {class: 'number count', 'data-namespace': namespace.name}, '…');
  const remove = h(
    'button',
    {
      type: 'button',
      class: 'danger-outline small',
      id: `delete-namespace-${namespace.name}`,
      'aria-label': `Delete namespace ${namespace.name}`,
      disabled: !can(context.session, 'admin'),
      title: denial(context.session, 'admin') ?? false,
    },
    'Delete',
  );
  const tr = h(
    'tr',
    {'data-namespace': namespace.name},
    h('td', {class: 'name'}, h('a', {href, class: 'browse'}, namespace.name)),
    h('td', {class: 'wrap'}, namespace.description),
    h('td', {}, methodLabel(namespace.pseudonymGenerationMethod)),
    h('td', {class: 'number'}, String(namespace.pseudonymLength)),
    h('td', {class: 'affix'}, h('code', {}, namespace.pseudonymPrefix)),
    h('td', {class: 'affix'}, h('code', {}, namespace.pseudonymSuffix)),
    count,
    h('td', {class: 'row-actions'}, h('a', {href, class: 'button secondary small', 'aria-label': `Browse namespace ${namespace.name}`}, 'Browse'), ' ', remove),
  );
  remove.addEventListener('click', () => confirmDelete(tr, remove, namespace.name, count, context, message, area, parents));
  // the row, not the cell: in a table wider than the page the cell may be scrolled out of sight
  counts.observe(tr, count);
  return tr;
}

/** Opens the confirmation row under the namespace's row; the exact name must be typed. */
function confirmDelete(tr, opener, name, count, context, message, area, parents) {
  document.getElementById('confirm-delete')?.remove();
  const input = h('input', {id: 'confirmDeleteNamespaceName', autocomplete: 'off', spellcheck: 'false'});
  const confirmButton = h('button', {type: 'submit', class: 'danger', id: 'confirmDeleteNamespaceButton', disabled: true}, 'Delete for good');
  const cancel = h('button', {type: 'button', class: 'secondary'}, 'Cancel');
  const error = messageArea('confirm-delete-message');
  const pseudonyms = /^[\d,]+$/.test(count.textContent) ? `all ${count.textContent} of its pseudonyms` : 'all its pseudonyms';
  const close = () => {
    confirmRow.remove();
    opener.focus();
  };
  const form = h(
    'form',
    {class: 'confirm', novalidate: true},
    h('p', {}, 'This deletes the namespace ', h('strong', {}, name), ` and ${pseudonyms}. It cannot be undone.`),
    field(`Type the name of the namespace to confirm`, input),
    h('div', {class: 'actions'}, confirmButton, cancel),
    error,
  );
  const confirmRow = h('tr', {id: 'confirm-delete', class: 'confirm-row'}, h('td', {colspan: 8}, form));
  input.addEventListener('input', () => (confirmButton.disabled = input.value !== name));
  cancel.addEventListener('click', close);
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      close();
    }
  });
  const remove = guarded(confirmButton, async () => {
    if (input.value !== name) {
      return;
    }
    try {
      await api.deleteNamespace(name);
      confirmRow.remove();
      tr.remove();
      parents.deleted(name);
      showMessage(message, 'success', `Namespace '${name}' deleted.`);
      if (!area.querySelector('tbody tr')) {
        replace(area, h('p', {class: 'empty'}, 'No namespaces yet. Create one above.'));
      }
      document.getElementById('list-heading')?.setAttribute('tabindex', '-1');
      document.getElementById('list-heading')?.focus();
    } catch (e) {
      showMessage(error, 'error', e.message);
    }
  });
  onSubmit(form, remove);
  tr.after(confirmRow);
  input.focus();
}

/**
 * Counts the pseudonyms of the namespaces whose rows are on (or near) the screen, a few at a
 * time: each count
 * reads a namespace's rows, so a long list of large namespaces is not counted all at once.
 */
class CountLoader {
  constructor(signal) {
    this.signal = signal;
    this.queue = [];
    this.running = 0;
    this.cells = new Map(); // row → its count cell
    this.observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          this.observer.unobserve(entry.target);
          this.queue.push(this.cells.get(entry.target));
          this.cells.delete(entry.target);
        }
      }
      this.next();
    }, {rootMargin: '400px 0px'});
    signal.addEventListener('abort', () => this.observer.disconnect());
  }

  /** Counts into the cell once the row comes near the screen. */
  observe(row, cell) {
    this.cells.set(row, cell);
    this.observer.observe(row);
  }

  next() {
    while (this.running < PARALLEL_COUNTS && this.queue.length > 0 && !this.signal.aborted) {
      const cell = this.queue.shift();
      this.running++;
      api
        .listPseudonyms(cell.dataset.namespace, {pageSize: 1, includeTotalSize: true, signal: this.signal})
        .then(
          (page) => (cell.textContent = formatNumber(Number(page.totalSize ?? 0))),
          (e) => {
            cell.textContent = '–';
            cell.title = e.message;
          },
        )
        .finally(() => {
          this.running--;
          this.next();
        });
    }
  }
}
