// One namespace: pseudonymize a value, look a pseudonym up, and page through the pseudonyms,
// 25 at a time, with each original value behind a "Reveal" button.

import * as api from '../api.js';
import {can, denial} from '../session.js';
import {methodLabel} from '../methods.js';
import {h, replace, field, messageArea, showMessage, clearMessage, formatNumber, formatTime, guarded} from '../dom.js';

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
  const list = listSection(namespace.name, context);
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
      fact('Created', formatTime(namespace.meta?.createdAt)),
    ),
    h('div', {class: 'two-columns'}, pseudonymizeSection(namespace.name, context, list.refresh), lookupSection(namespace.name, context)),
    list.section,
  );
  await list.refresh();
}

function fact(term, description) {
  return h('div', {}, h('dt', {}, term), h('dd', {}, description));
}

function pseudonymizeSection(name, context, refresh) {
  const input = h('input', {id: 'originalValue', autocomplete: 'off', spellcheck: 'false'});
  const submit = h('button', {type: 'submit', class: 'primary'}, 'Pseudonymize');
  const message = messageArea('pseudonymize-message');
  const result = h('output', {id: 'pseudonymizeResult', for: 'originalValue', class: 'result', 'aria-live': 'polite'});
  const run = guarded(submit, async () => {
    clearMessage(message);
    replace(result);
    if (!input.value.trim()) {
      showMessage(message, 'error', 'Enter a value to pseudonymize.');
      input.focus();
      return;
    }
    try {
      const pseudonym = await api.createPseudonym(name, input.value);
      replace(result, h('span', {class: 'label'}, 'Pseudonym'), h('code', {class: 'value'}, pseudonym.pseudonymValue), copyButton(pseudonym.pseudonymValue));
      await refresh();
    } catch (e) {
      showMessage(message, 'error', e.forbidden ? denial(context.session, 'write', name) ?? e.message : e.message);
    }
  });
  const form = h('form', {class: 'card', id: 'pseudonymize', novalidate: true}, field('Original value', input), h('div', {class: 'actions'}, submit), message, result);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    run();
  });
  disableUnless(form, context.session, 'write', name, message);
  return h('section', {'aria-labelledby': 'pseudonymize-heading'}, h('h2', {id: 'pseudonymize-heading'}, 'Pseudonymize a value'), form);
}

function lookupSection(name, context) {
  const input = h('input', {id: 'lookupValue', autocomplete: 'off', spellcheck: 'false'});
  const submit = h('button', {type: 'submit', class: 'primary'}, 'Look up');
  const message = messageArea('lookup-message');
  const result = h('output', {id: 'lookupResult', for: 'lookupValue', class: 'result', 'aria-live': 'polite'});
  const run = guarded(submit, async () => {
    clearMessage(message);
    replace(result);
    if (!input.value.trim()) {
      showMessage(message, 'error', 'Enter a pseudonym to look up.');
      input.focus();
      return;
    }
    try {
      const pseudonym = await api.getPseudonym(name, input.value);
      replace(result, h('span', {class: 'label'}, 'Original value'), h('code', {class: 'value'}, pseudonym.originalValue), copyButton(pseudonym.originalValue));
    } catch (e) {
      showMessage(message, 'error', lookupError(e, context, name));
    }
  });
  const form = h('form', {class: 'card', id: 'lookup', novalidate: true}, field('Pseudonym', input), h('div', {class: 'actions'}, submit), message, result);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    run();
  });
  disableUnless(form, context.session, 'reverseLookup', name, message);
  return h('section', {'aria-labelledby': 'lookup-heading'}, h('h2', {id: 'lookup-heading'}, 'Look up an original value'), form);
}

function lookupError(e, context, name) {
  if (e.notFound) {
    return 'This pseudonym does not exist in this namespace.';
  }
  if (e.forbidden) {
    return denial(context.session, 'reverseLookup', name) ?? e.message;
  }
  return e.message;
}

function disableUnless(form, session, permission, name, message) {
  const reason = denial(session, permission, name);
  if (reason) {
    for (const control of form.elements) {
      control.disabled = true;
    }
    showMessage(message, 'info', reason);
  }
}

function copyButton(text) {
  if (!navigator.clipboard) {
    return null;
  }
  const button = h('button', {type: 'button', class: 'secondary small'}, 'Copy');
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

/** The pseudonyms table with Previous/Next: a stack of the tokens of the pages before. */
function listSection(name, context) {
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
        h('thead', {}, h('tr', {}, ['Pseudonym', 'Original value', 'Created', 'Updated'].map((t) => h('th', {scope: 'col'}, t)))),
        h('tbody', {}, pseudonyms.map((p) => pseudonymRow(p, name, mayReveal, context))),
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

function pseudonymRow(pseudonym, name, mayReveal, context) {
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
    cell,
    h('td', {class: 'time'}, formatTime(pseudonym.meta?.createdAt)),
    h('td', {class: 'time'}, formatTime(pseudonym.meta?.lastUpdatedAt)),
  );
}
