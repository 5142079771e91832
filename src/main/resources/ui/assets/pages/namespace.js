// One namespace: its settings (an alphabet namespace's format among them, and the capacity where
// the service gives it), parent and children; pseudonymize a value (with a count, in a
// namespace that allows several pseudonyms per value), look a pseudonym's original value up or an
// original value's pseudonyms, and page through the pseudonyms, 25 at a time, with each original
// value behind a "Reveal" button; withdraw a person's consent for an original value. For admins,
// with authorization on, Configure access: the namespace's grants, and what else gives rights in
// it.

import * as api from '../api.js';
import {can, denial} from '../session.js';
import {METHODS, methodLabel} from '../methods.js';
import {checkDigitLabel, presetOf, readableCount} from '../alphabet.js';
import {configureAccess} from '../grants.js';
import {WAYS, consequences, withdrawalDenial} from '../withdrawal.js';
import {h, replace, field, messageArea, showMessage, clearMessage, formatNumber, formatTime, guarded, copyButton, confirmPanel, onSubmit} from '../dom.js';

const PAGE_SIZE = 25;

export async function render(page, context) {
  const name = context.params[0];
  context.setTitle(name);
  const breadcrumb = h('nav', {'aria-label': 'Breadcrumb', class: 'breadcrumb'}, h('a', {href: '/ui/namespaces'}, 'Namespaces'), h('span', {'aria-hidden': 'true'}, ' / '), h('span', {}, name));
  let namespace;
  try {
    namespace = await api.getNamespace(name);
  } catch (e) {
    replace(
      page,
      breadcrumb,
      h('h1', {tabindex: -1}, name),
      h('p', {class: 'message error', role: 'alert'}, e.notFound ? `There is no namespace named '${name}'.` : e.message),
      h('p', {}, h('a', {href: '/ui/namespaces'}, 'Back to the namespaces')),
    );
    return;
  }
  const multiple = namespace.allowsMultiplePseudonyms === true;
  const list = listSection(namespace.name, multiple, context);
  const children = h('dd', {id: 'children'}, '…');
  // with authorization off grants have no effect, since everyone is an admin
  const access = context.session.authorization && can(context.session, 'admin') ? configureAccess(namespace.name, context) : null;
  replace(
    page,
    breadcrumb,
    h('h1', {tabindex: -1}, namespace.name),
    namespace.description ? h('p', {class: 'lead'}, namespace.description) : null,
    h(
      'dl',
      {class: 'facts'},
      fact('Method', methodLabel(namespace.pseudonymGenerationMethod)),
      fact('Length', String(namespace.pseudonymLength)),
      fact('Prefix', namespace.pseudonymPrefix ? h('code', {}, namespace.pseudonymPrefix) : '–'),
      fact('Suffix', namespace.pseudonymSuffix ? h('code', {}, namespace.pseudonymSuffix) : '–'),
      formatFacts(namespace.xFormat),
      capacityFact(namespace),
      fact('Created', formatTime(namespace.meta?.createdAt)),
      fact('Pseudonyms per value', multiple ? 'Several' : 'One', 'multiple'),
      fact(
        'Validation regex',
        namespace.originalValueValidationRegex ? h('code', {}, namespace.originalValueValidationRegex) : 'None',
        'regex',
      ),
      fact('Parent', namespace.parentName ? namespaceLink(namespace.parentName, 'parent-link') : 'None', 'parent'),
      namespace.parentName
        ? fact(
            'Parent check',
            namespace.parentValidationMode === 'PARENT_VALIDATION_MODE_ENSURE_EXISTS' ? 'Each value must be a pseudonym of the parent' : 'None',
            'parent-mode',
          )
        : null,
      h('div', {}, h('dt', {}, 'Children'), children),
    ),
    h('div', {class: 'two-columns'}, pseudonymizeSection(namespace.name, multiple, context, list.refresh), lookupSection(namespace.name, multiple, context)),
    list.section,
    withdrawSection(namespace.name, context, list.refresh),
    access?.section,
  );
  await Promise.all([list.refresh(), showChildren(children, namespace.name, context), access?.load()]);
}

function namespaceLink(name, id) {
  return h('a', {href: `/ui/namespaces/${encodeURIComponent(name)}/pseudonyms`, id: id ?? false}, name);
}

async function showChildren(dd, name, context) {
  let found;
  try {
    found = await api.listChildren(name);
  } catch (e) {
    replace(dd, h('span', {class: 'inline-error'}, e.message));
    return;
  }
  if (context.signal.aborted) {
    return;
  }
  replace(dd, found.length === 0 ? 'None' : h('ul', {class: 'inline-list'}, found.map((child) => h('li', {}, namespaceLink(child.name)))));
}

function fact(term, description, id) {
  return h('div', {}, h('dt', {}, term), h('dd', {id: id ? `fact-${id}` : false}, description));
}

/** The alphabet method's format: alphabet, check digit and groups; nothing for other methods. */
function formatFacts(format) {
  if (!format) {
    return null;
  }
  const preset = presetOf(format.alphabet);
  const groupSize = Number(format.groupSize ?? 0);
  return [
    fact('Alphabet', [h('code', {}, format.alphabet), preset ? ` (${preset.label})` : ' (custom)'], 'alphabet'),
    fact('Check digit', checkDigitLabel(format.checkDigit ?? 'CHECK_DIGIT_UNSPECIFIED'), 'check-digit'),
    fact('Groups', groupSize > 0 ? [`${groupSize} characters each, delimiter `, h('code', {}, format.groupDelimiter)] : 'None', 'groups'),
  ];
}

/**
 * How many pseudonyms the namespace holds of how many its settings can make, when the service
 * says (xCapacity); nothing when it does not. The figure is "Infinity" beyond a double's range.
 */
function capacityFact(namespace) {
  const capacity = namespace.xCapacity;
  if (!capacity) {
    return null;
  }
  const used = Number(capacity.usedPseudonyms ?? 0);
  const distinct = Number(capacity.distinctPseudonyms ?? 0);
  const derived = METHODS.find((m) => m.name === namespace.pseudonymGenerationMethod)?.derived;
  let text;
  if (derived) {
    text = `${formatNumber(used)} used; derived from the original values, one pseudonym per value`;
  } else if (!Number.isFinite(distinct)) {
    text = `${formatNumber(used)} used, of more than 10^308`;
  } else {
    const share = distinct > 0 ? used / distinct : 0;
    const percent = share >= 0.001 ? ` (${(share * 100).toFixed(1)} %)` : '';
    text = `${formatNumber(used)} used of ${readableCount(Math.log10(distinct))}${percent}`;
  }
  return fact('Capacity', text, 'capacity');
}

/**
 * Shows pseudonyms in a result: one as its value, several (or any of a namespace that allows
 * several) as a count in the live result and a table of sequence numbers and values beside it,
 * which is not read out as a whole.
 */
function showPseudonyms(result, table, pseudonyms, multiple, caption) {
  replace(table);
  if (!multiple) {
    const value = pseudonyms[0].pseudonymValue;
    replace(result, h('span', {class: 'label'}, 'Pseudonym'), h('code', {class: 'value'}, value), copyButton(value));
    return;
  }
  const n = pseudonyms.length;
  replace(result, h('span', {class: 'label'}, `${formatNumber(n)} pseudonym${n === 1 ? '' : 's'}`), h('span', {}, 'of the value, listed below by sequence number.'));
  replace(table, pseudonymTable(pseudonyms, caption));
}

/** A table of pseudonyms: sequence number, value and a copy button each. */
function pseudonymTable(pseudonyms, caption) {
  return h(
    'table',
    {class: 'data'},
    h('caption', {class: 'visually-hidden'}, caption),
    h('thead', {}, h('tr', {}, h('th', {scope: 'col', class: 'number'}, 'Sequence number'), h('th', {scope: 'col'}, 'Pseudonym'), h('th', {scope: 'col'}, h('span', {class: 'visually-hidden'}, 'Copy')))),
    h(
      'tbody',
      {},
      pseudonyms.map((p) =>
        h('tr', {}, h('td', {class: 'number sequence'}, String(p.sequenceNumber ?? 0)), h('td', {}, h('code', {}, p.pseudonymValue)), h('td', {}, copyButton(p.pseudonymValue, `Copy pseudonym ${p.sequenceNumber ?? 0}`))),
      ),
    ),
  );
}

function pseudonymizeSection(name, multiple, context, refresh) {
  const input = h('input', {id: 'originalValue', autocomplete: 'off', spellcheck: 'false'});
  const count = multiple ? h('input', {id: 'count', type: 'number', min: 1, max: 10000, required: true, value: '1'}) : null;
  const submit = h('button', {type: 'submit', class: 'primary'}, 'Pseudonymize');
  const {form, message, result, table, clear} = valueForm('pseudonymize', multiple ? 'originalValue count' : 'originalValue', submit, [
    field('Original value', input),
    count ? field('Count', count, 'How many pseudonyms the value is to have. It keeps those it has and gets more until it has this many.') : null,
  ]);
  const run = guarded(submit, async () => {
    clear();
    if (!input.value.trim()) {
      showMessage(message, 'error', 'Enter a value to pseudonymize.');
      input.focus();
      return;
    }
    if (count && !count.checkValidity()) {
      showMessage(message, 'error', 'The count must be a whole number from 1 to 10000.');
      count.focus();
      return;
    }
    try {
      const pseudonyms = count ? await api.createPseudonyms(name, input.value, Number(count.value)) : [await api.createPseudonym(name, input.value)];
      showPseudonyms(result, table, pseudonyms, multiple, `The pseudonyms of the value in ${name}`);
      await refresh();
    } catch (e) {
      showMessage(message, 'error', e.forbidden ? denial(context.session, 'write', name) ?? e.message : e.message);
    }
  });
  onSubmit(form, run);
  disableFor(form, denial(context.session, 'write', name), message);
  return h('section', {'aria-labelledby': 'pseudonymize-heading'}, h('h2', {id: 'pseudonymize-heading'}, 'Pseudonymize a value'), form);
}

/**
 * The form of one of the page's value boxes, named by its id: the fields and the submit button,
 * then a message area, a result line (output for the ids resultFor) and a table area, which
 * clear() empties.
 */
function valueForm(id, resultFor, submit, fields) {
  const message = messageArea(`${id}-message`);
  const result = h('output', {id: `${id}Result`, for: resultFor, class: 'result', 'aria-live': 'polite'});
  const table = h('div', {id: `${id}List`, class: 'table-area result-list'});
  const form = h('form', {class: 'card', id, novalidate: true}, fields, h('div', {class: 'actions'}, submit), message, result, table);
  const clear = () => {
    clearMessage(message);
    replace(result);
    replace(table);
  };
  return {form, message, result, table, clear};
}

/**
 * The lookup box: a pseudonym's original value (Get, which needs the reverse lookup permission),
 * or an original value's stored pseudonyms (Resolve, which creates none and needs the write
 * permission, since it tells whether a value has a pseudonym).
 */
function lookupSection(name, multiple, context) {
  const modes = {
    pseudonym: {
      permission: 'reverseLookup',
      choice: 'A pseudonym',
      label: 'Pseudonym',
      empty: 'Enter a pseudonym to look up.',
      denied: denial(context.session, 'reverseLookup', name),
    },
    original: {
      permission: 'write',
      choice: 'An original value',
      label: 'Original value',
      empty: 'Enter an original value to look up.',
      // Resolve tells whether a value has a pseudonym, so it needs the permission to create them
      denied: 'You may not look up pseudonyms by original value in this namespace: that needs the permission to create them.',
    },
  };
  const radios = {};
  const choices = Object.entries(modes).map(([mode, {choice}]) => {
    radios[mode] = h('input', {type: 'radio', name: 'lookup-by', id: `lookup-by-${mode}`, value: mode});
    return h('label', {for: `lookup-by-${mode}`}, radios[mode], ` ${choice}`);
  });
  const input = h('input', {id: 'lookupValue', autocomplete: 'off', spellcheck: 'false'});
  const inputLabel = h('label', {for: 'lookupValue'});
  const submit = h('button', {type: 'submit', class: 'primary'}, 'Look up');
  const {form, message, result, table, clear} = valueForm('lookup', 'lookupValue', submit, [
    h('fieldset', {class: 'choices-set'}, h('legend', {}, 'Find by'), h('div', {class: 'choices'}, choices)),
    h('div', {class: 'field'}, inputLabel, input),
  ]);
  const mode = () => (radios.original.checked ? 'original' : 'pseudonym');
  const choose = () => {
    const chosen = modes[mode()];
    inputLabel.textContent = chosen.label;
    clear();
    const reason = denial(context.session, chosen.permission, name) && chosen.denied;
    input.disabled = Boolean(reason);
    submit.disabled = Boolean(reason);
    if (reason) {
      showMessage(message, 'info', reason);
    }
  };
  radios.pseudonym.checked = true;
  for (const radio of Object.values(radios)) {
    radio.addEventListener('change', choose);
  }
  const run = guarded(submit, async () => {
    clear();
    const by = mode();
    if (!input.value.trim()) {
      showMessage(message, 'error', modes[by].empty);
      input.focus();
      return;
    }
    try {
      if (by === 'pseudonym') {
        const pseudonym = await api.getPseudonym(name, input.value);
        replace(result, h('span', {class: 'label'}, 'Original value'), h('code', {class: 'value'}, pseudonym.originalValue), copyButton(pseudonym.originalValue));
      } else {
        const pseudonyms = await api.resolvePseudonyms(name, input.value);
        showPseudonyms(result, table, pseudonyms, multiple, `The pseudonyms of the original value in ${name}`);
      }
    } catch (e) {
      showMessage(message, 'error', lookupError(e, context, name, by));
    }
  });
  onSubmit(form, run);
  choose();
  return h('section', {'aria-labelledby': 'lookup-heading'}, h('h2', {id: 'lookup-heading'}, 'Look up'), form);
}

function lookupError(e, context, name, by = 'pseudonym') {
  if (e.notFound && by === 'pseudonym' && /withdrawn/i.test(e.message)) {
    // the pseudonym exists, but consent was withdrawn and its original value anonymized
    return e.message;
  }
  if (e.notFound) {
    return by === 'pseudonym' ? 'This pseudonym does not exist in this namespace.' : 'This value has no pseudonym in this namespace.';
  }
  if (e.forbidden) {
    return (by === 'pseudonym' ? denial(context.session, 'reverseLookup', name) : null) ?? e.message;
  }
  return e.message;
}

/** Disables the form's controls and says why, when there is a reason. */
function disableFor(form, reason, message) {
  if (reason) {
    for (const control of form.elements) {
      control.disabled = true;
    }
    showMessage(message, 'info', reason);
  }
}

/**
 * Consent withdrawal for one original value: its pseudonyms deleted, or the value anonymized and
 * its pseudonyms kept, after a confirmation that says which. Needs the write and the reverse
 * lookup permission. The value stays in the field only until it is withdrawn.
 */
function withdrawSection(name, context, refresh) {
  const heading = h('h2', {id: 'withdraw-heading', tabindex: -1}, 'Withdraw consent');
  const input = h('input', {id: 'withdrawValue', autocomplete: 'off', spellcheck: 'false'});
  const radios = {};
  const choices = Object.entries(WAYS).map(([how, {choice}]) => {
    radios[how] = h('input', {type: 'radio', name: 'withdraw-how', id: `withdraw-${how}`, value: how});
    return h('label', {for: `withdraw-${how}`}, radios[how], ` ${choice}`);
  });
  radios.delete.checked = true;
  const submit = h('button', {type: 'submit', class: 'danger'}, 'Withdraw…');
  const {form, message, result, table, clear} = valueForm('withdraw', 'withdrawValue', submit, [
    field('Original value', input),
    h('fieldset', {class: 'choices-set'}, h('legend', {}, 'What happens'), h('div', {class: 'choices'}, choices)),
  ]);
  const withdraw = guarded(submit, async (how, value) => {
    try {
      const pseudonyms = await api.withdraw(name, how, value);
      input.value = '';
      const n = `${formatNumber(pseudonyms.length)} pseudonym${pseudonyms.length === 1 ? '' : 's'}`;
      showMessage(message, 'success', how === 'delete' ? `Consent withdrawn: the value's ${n} deleted.` : `Consent withdrawn: the original value is anonymized, its ${n} kept.`);
      replace(result, h('span', {class: 'label'}, how === 'delete' ? 'Deleted' : 'Kept'), h('span', {}, `${n}, listed below by sequence number.`));
      replace(table, pseudonymTable(pseudonyms, how === 'delete' ? `The deleted pseudonyms of the value in ${name}` : `The kept pseudonyms of the anonymized value in ${name}`));
      heading.focus();
      await refresh();
    } catch (e) {
      showMessage(message, 'error', e.notFound ? 'This value has no pseudonym in the namespace.' : e.message);
      input.focus();
    }
  });
  onSubmit(form, () => {
    clear();
    if (!input.value.trim()) {
      showMessage(message, 'error', 'Enter the original value whose consent is withdrawn.');
      input.focus();
      return;
    }
    const how = radios.anonymize.checked ? 'anonymize' : 'delete';
    const value = input.value;
    confirmPanel(form, submit, {
      text: ['Withdraw consent for ', h('strong', {}, value), ' in ', h('strong', {}, name), '? ', consequences(how, name)],
      button: WAYS[how].button,
      confirmed: () => withdraw(how, value),
    });
  });
  disableFor(form, withdrawalDenial(context.session, name), message);
  return h(
    'section',
    {'aria-labelledby': 'withdraw-heading'},
    heading,
    h('p', {}, 'When a person withdraws consent: either every pseudonym of their original value is deleted, or the original value is anonymized and its pseudonyms stay.'),
    form,
  );
}

/** The pseudonyms table with Previous/Next: a stack of the tokens of the pages before. */
function listSection(name, multiple, context) {
  const tokens = ['']; // tokens[i] opens page i
  let index = 0;
  const summary = h('p', {id: 'pseudonyms-summary', class: 'summary', 'aria-live': 'polite'});
  const message = messageArea('pseudonyms-message');
  const tableArea = h('div', {class: 'table-area'});
  const previous = h('button', {type: 'button', class: 'secondary', id: 'previous-page', disabled: true}, '← Previous');
  const next = h('button', {type: 'button', class: 'secondary', id: 'next-page', disabled: true}, 'Next →');
  const pageLabel = h('span', {id: 'page-number'});
  const mayReveal = can(context.session, 'reverseLookup', name);
  let total = null;

  const load = async () => {
    clearMessage(message);
    let reply;
    try {
      reply = await api.listPseudonyms(name, {pageSize: PAGE_SIZE, pageToken: tokens[index], includeTotalSize: index === 0, signal: context.signal});
    } catch (e) {
      if (e.name !== 'AbortError') {
        showMessage(message, 'error', e.message);
      }
      return false;
    }
    if (index === 0) {
      total = Number(reply.totalSize ?? 0);
    }
    tokens[index + 1] = reply.nextPageToken || null;
    tokens.length = index + 2;
    const pseudonyms = reply.pseudonyms ?? [];
    const from = index * PAGE_SIZE + 1;
    summary.textContent =
      total === 0
        ? 'No pseudonyms yet.'
        : `${formatNumber(total)} pseudonym${total === 1 ? '' : 's'}, newest first. Showing ${formatNumber(from)}–${formatNumber(from + pseudonyms.length - 1)}.`;
    pageLabel.textContent = `Page ${index + 1}`;
    updateButtons();
    if (pseudonyms.length === 0) {
      replace(tableArea);
      return true;
    }
    replace(
      tableArea,
      h(
        'table',
        {class: 'data', id: 'pseudonyms'},
        h('caption', {class: 'visually-hidden'}, `Pseudonyms of ${name}, page ${index + 1}`),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {scope: 'col'}, 'Pseudonym'),
            multiple ? h('th', {scope: 'col', class: 'number'}, 'Sequence number') : null,
            ['Original value', 'Created', 'Updated'].map((t) => h('th', {scope: 'col'}, t)),
          ),
        ),
        h('tbody', {}, pseudonyms.map((p) => pseudonymRow(p, name, multiple, mayReveal, context))),
      ),
    );
    return true;
  };
  const updateButtons = () => {
    previous.disabled = index === 0;
    next.disabled = !tokens[index + 1];
  };
  let busy = false;
  const go = (delta) => async () => {
    if (busy) {
      return;
    }
    busy = true;
    const before = index;
    index += delta;
    if (!(await load())) {
      index = before;
    }
    busy = false;
    updateButtons();
    // a button that just became disabled loses the focus: hand it to the other one
    if (document.activeElement === document.body || document.activeElement?.disabled) {
      (next.disabled ? previous : next).focus();
    }
  };
  previous.addEventListener('click', go(-1));
  next.addEventListener('click', go(1));
  const refresh = async () => {
    index = 0;
    tokens.length = 1;
    await load();
  };
  const section = h(
    'section',
    {'aria-labelledby': 'pseudonyms-heading'},
    h('h2', {id: 'pseudonyms-heading'}, 'Pseudonyms'),
    summary,
    message,
    tableArea,
    h('div', {class: 'pager'}, previous, pageLabel, next),
  );
  return {section, refresh};
}

function pseudonymRow(pseudonym, name, multiple, mayReveal, context) {
  const cell = h('td', {class: 'original'});
  const reveal = h(
    'button',
    {
      type: 'button',
      class: 'secondary small reveal',
      'aria-label': `Reveal the original value of ${pseudonym.pseudonymValue}`,
      disabled: !mayReveal,
      title: mayReveal ? false : denial(context.session, 'reverseLookup', name),
    },
    'Reveal',
  );
  const hidden = () => replace(cell, h('span', {class: 'hidden-value', 'aria-hidden': 'true'}, '••••••'), ' ', reveal);
  reveal.addEventListener(
    'click',
    guarded(reveal, async () => {
      try {
        const found = await api.getPseudonym(name, pseudonym.pseudonymValue);
        const hide = h('button', {type: 'button', class: 'secondary small', 'aria-label': `Hide the original value of ${pseudonym.pseudonymValue}`}, 'Hide');
        hide.addEventListener('click', () => {
          hidden();
          reveal.focus();
        });
        replace(cell, h('code', {class: 'revealed'}, found.originalValue), ' ', hide);
        hide.focus();
      } catch (e) {
        replace(cell, h('span', {class: 'inline-error', role: 'alert'}, lookupError(e, context, name)));
      }
    }),
  );
  hidden();
  return h(
    'tr',
    {},
    h('td', {}, h('code', {}, pseudonym.pseudonymValue)),
    multiple ? h('td', {class: 'number sequence'}, String(pseudonym.sequenceNumber ?? 0)) : null,
    cell,
    h('td', {class: 'time'}, formatTime(pseudonym.meta?.createdAt)),
    h('td', {class: 'time'}, formatTime(pseudonym.meta?.lastUpdatedAt)),
  );
}
