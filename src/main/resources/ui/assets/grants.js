// Configure access, on a namespace's page for admins: the namespace's grants in the database, whose
// three rights are toggled and saved at once, a form to add one and a way to delete one; beside
// them, read-only, what else is in force there: the admin roles and namespace rules of the
// configuration, and the grants of all namespaces.

import * as api from './api.js';
import {
  h,
  replace,
  field,
  messageArea,
  showMessage,
  clearMessage,
  confirmRow,
  submittingForm,
  checkEntry,
  checkFilled,
  loadOrShowError,
  showDataTable,
  columnHeaders,
  actionsHeader,
} from './dom.js';

export const GRANTEE_TYPES = [
  {
    name: 'GRANTEE_TYPE_ROLE',
    label: 'Role',
    hint: 'A role of the identity provider (the Authorization__RoleClaimType claim), compared case-sensitively. Client accounts’ roles match too.',
  },
  {name: 'GRANTEE_TYPE_EMAIL', label: 'E-mail address', hint: 'A verified e-mail address (email_verified in the token); stored lower-cased.'},
  {name: 'GRANTEE_TYPE_SERVICE_ACCOUNT', label: 'Service account', hint: 'The name of a service account: its tokens get these rights, and nothing else does.'},
];

const FLAGS = [
  {name: 'canRead', label: 'Read', id: 'read'},
  {name: 'canWrite', label: 'Write', id: 'write'},
  {name: 'canReverseLookup', label: 'Reverse lookup', id: 'reverse-lookup'},
];

export function granteeTypeLabel(type) {
  return GRANTEE_TYPES.find((t) => t.name === type)?.label ?? type;
}

/** The section and load(), which reads the grants, the rules and the service accounts. */
export function configureAccess(name, context) {
  const grantsMessage = messageArea('grants-message');
  const grantsArea = h('div', {class: 'table-area', id: 'namespace-grants-area'});
  const grantsHeading = h('h3', {id: 'namespace-grants-heading'}, 'Grants of this namespace ', h('span', {class: 'badge editable'}, 'editable'));
  const accounts = h('datalist', {id: 'grant-service-accounts'});
  const configured = h('div', {id: 'configured-access'}, h('p', {class: 'empty'}, 'Loading…'));
  const everywhere = h('div', {class: 'table-area', id: 'all-namespaces-grants-area'}, h('p', {class: 'empty'}, 'Loading…'));

  const loadGrants = async () => {
    const grants = await loadOrShowError(grantsMessage, context.signal, () => api.listGrants(name));
    if (grants === undefined) {
      return;
    }
    showGrants(grantsArea, grants, {name, message: grantsMessage, heading: grantsHeading, refresh: loadGrants});
  };
  const loadAccounts = async () => {
    try {
      const found = await api.listServiceAccounts();
      replace(accounts, found.map((account) => h('option', {value: account.name})));
    } catch {
      // only the suggestions are missing; the service checks the name
    }
  };
  const loadConfigured = async () => {
    try {
      const rules = await api.accessRules();
      if (!context.signal.aborted) {
        showConfigured(configured, rules, name);
      }
    } catch (e) {
      replace(configured, h('p', {class: 'message error', role: 'alert'}, e.message));
    }
  };
  const loadEverywhere = async () => {
    try {
      const grants = (await api.listAllGrants()).filter((grant) => grant.allNamespaces);
      if (!context.signal.aborted) {
        showEverywhere(everywhere, grants);
      }
    } catch (e) {
      replace(everywhere, h('p', {class: 'message error', role: 'alert'}, e.message));
    }
  };

  const section = h(
    'section',
    {'aria-labelledby': 'configure-access-heading', id: 'configure-access'},
    h('h2', {id: 'configure-access-heading'}, 'Configure access'),
    h(
      'p',
      {class: 'lead'},
      'Who besides the admins may read this namespace, create pseudonyms in it and look original values up. The three rights are independent, and everything below adds up; nothing denies.',
    ),
    h(
      'section',
      {'aria-labelledby': 'namespace-grants-heading'},
      grantsHeading,
      h('p', {class: 'hint'}, 'Stored in the database. A change is saved as soon as a box is ticked or cleared, and is in force at once.'),
      grantsMessage,
      grantsArea,
      addGrantForm(name, accounts, loadGrants),
    ),
    h(
      'section',
      {'aria-labelledby': 'also-in-force-heading'},
      h('h3', {id: 'also-in-force-heading'}, 'Also in force here ', h('span', {class: 'badge muted'}, 'read-only')),
      h(
        'p',
        {class: 'hint'},
        'The admin roles and namespace rules come from the service’s configuration and change only with it (and a restart). Grants of all namespaces are changed with the access API.',
      ),
      configured,
      h('h4', {id: 'all-namespaces-grants-heading'}, 'Grants of all namespaces'),
      everywhere,
    ),
  );
  const load = () => Promise.all([loadGrants(), loadAccounts(), loadConfigured(), loadEverywhere()]);
  return {section, load};
}

function showGrants(area, grants, table) {
  showDataTable(area, grants, {
    id: 'namespace-grants',
    caption: `Grants of ${table.name}, editable`,
    headers: [grantHeaders(), actionsHeader()],
    row: (grant) => grantRow(grant, table),
    empty: 'No grants of this namespace yet. Add one below.',
  });
}

/** The header cells of a grant's columns: grantee type, grantee and a flag per right. */
function grantHeaders() {
  return [columnHeaders(['Grantee type', 'Grantee']), FLAGS.map((flag) => h('th', {scope: 'col', class: 'flag'}, flag.label))];
}

function grantee(grant) {
  if (grant.granteeType === 'GRANTEE_TYPE_SERVICE_ACCOUNT') {
    return h('a', {href: `/ui/service-accounts/${encodeURIComponent(grant.grantee)}`}, grant.grantee);
  }
  return h('code', {}, grant.grantee);
}

/** A grant with a checkbox per right; a change saves all three at once. */
function grantRow(grant, table) {
  const who = `${granteeTypeLabel(grant.granteeType).toLowerCase()} ${grant.grantee}`;
  const boxes = FLAGS.map((flag) =>
    h('input', {
      type: 'checkbox',
      class: 'grant-flag',
      'data-flag': flag.name,
      checked: grant[flag.name] === true,
      'aria-label': `${flag.label}: ${who}`,
    }),
  );
  const save = async (changed) => {
    clearMessage(table.message);
    const flags = Object.fromEntries(FLAGS.map((flag, i) => [flag.name, boxes[i].checked]));
    for (const box of boxes) {
      box.disabled = true;
    }
    tr.setAttribute('aria-busy', 'true');
    try {
      const saved = await api.updateGrant(grant.id, flags);
      FLAGS.forEach((flag, i) => (boxes[i].checked = saved[flag.name] === true));
      const rights = FLAGS.filter((flag) => saved[flag.name]).map((flag) => flag.label.toLowerCase());
      showMessage(table.message, 'success', `Saved: ${who} ${rights.length ? `may ${rights.join(', ')}` : 'has no right here any more'}.`);
    } catch (e) {
      changed.checked = !changed.checked;
      showMessage(table.message, 'error', `Not saved: ${e.message}`);
    } finally {
      for (const box of boxes) {
        box.disabled = false;
      }
      tr.removeAttribute('aria-busy');
    }
  };
  for (const box of boxes) {
    box.addEventListener('change', () => save(box));
  }
  const remove = h('button', {type: 'button', class: 'danger-outline small', 'aria-label': `Delete the grant of ${who}`}, 'Delete');
  const tr = h(
    'tr',
    {'data-grant-id': grant.id, 'data-grantee': grant.grantee, 'data-grantee-type': grant.granteeType},
    h('td', {}, granteeTypeLabel(grant.granteeType)),
    h('td', {class: 'name'}, grantee(grant)),
    boxes.map((box) => h('td', {class: 'flag'}, box)),
    h('td', {class: 'row-actions'}, remove),
  );
  remove.addEventListener('click', () =>
    confirmRow(tr, remove, FLAGS.length + 3, {
      text: [`Delete the grant of ${granteeTypeLabel(grant.granteeType).toLowerCase()} `, h('strong', {}, grant.grantee), ` on ${table.name}? It loses the rights this grant gives at once.`],
      button: 'Delete grant',
      run: () => api.deleteGrant(grant.id),
      done: `The grant of ${who} is deleted.`,
      ...table,
    }),
  );
  return tr;
}

function addGrantForm(name, accounts, reload) {
  const type = h(
    'select',
    {id: 'grant-type', name: 'granteeType'},
    GRANTEE_TYPES.map((t) => h('option', {value: t.name}, t.label)),
  );
  const granteeInput = h('input', {id: 'grant-grantee', name: 'grantee', required: true, maxlength: 256, autocomplete: 'off', spellcheck: 'false'});
  const granteeField = field('Grantee', granteeInput, GRANTEE_TYPES[0].hint);
  const hint = granteeField.querySelector('.hint');
  const boxes = FLAGS.map((flag) => h('input', {type: 'checkbox', id: `grant-${flag.id}`, name: flag.name}));
  const submit = h('button', {type: 'submit', class: 'primary'}, 'Add grant');
  const message = messageArea('add-grant-message');
  const chooseType = () => {
    const chosen = GRANTEE_TYPES.find((t) => t.name === type.value);
    hint.textContent = chosen.hint;
    granteeInput.type = chosen.name === 'GRANTEE_TYPE_EMAIL' ? 'email' : 'text';
    if (chosen.name === 'GRANTEE_TYPE_SERVICE_ACCOUNT') {
      granteeInput.setAttribute('list', accounts.id);
    } else {
      granteeInput.removeAttribute('list');
    }
  };
  type.addEventListener('change', chooseType);
  const add = async () => {
    if (!checkFilled(granteeInput, message, 'Enter the grantee.')) {
      return;
    }
    if (!checkEntry(boxes.some((box) => box.checked), message, boxes[0], 'Choose at least one right.')) {
      return;
    }
    const draft = {namespace: name, granteeType: type.value, grantee: granteeInput.value};
    FLAGS.forEach((flag, i) => (draft[flag.name] = boxes[i].checked));
    try {
      const created = await api.createGrant(draft);
      showMessage(message, 'success', `Grant added: ${granteeTypeLabel(created.granteeType).toLowerCase()} ${created.grantee}.`);
      granteeInput.value = '';
      for (const box of boxes) {
        box.checked = false;
      }
      await reload();
      granteeInput.focus();
    } catch (e) {
      showMessage(message, 'error', e.message);
    }
  };
  const form = submittingForm(
    {id: 'add-grant', class: 'card form-grid', novalidate: true, 'aria-labelledby': 'add-grant-heading'},
    [
      field('Grantee type', type),
      granteeField,
      accounts,
      h(
        'fieldset',
        {class: 'choices-set'},
        h('legend', {}, 'Rights'),
        h(
          'div',
          {class: 'choices'},
          FLAGS.map((flag, i) => h('label', {for: boxes[i].id}, boxes[i], ` ${flag.label}`)),
        ),
      ),
    ],
    {submit, message, submitted: add},
  );
  return [h('h4', {id: 'add-grant-heading'}, 'Add a grant'), form];
}

/** The admin roles and the rules of the configuration that concern the namespace. */
function showConfigured(area, rules, name) {
  const concerned = (rules.rules ?? []).filter((rule) => rule.namespace === name || rule.namespace === '*');
  replace(
    area,
    h('h4', {id: 'admin-roles-heading'}, 'Admin roles ', h('code', {}, 'Authorization__AdminRoles')),
    h('p', {id: 'namespace-admin-roles'}, roleList(rules.adminRoles, 'None are configured.'), (rules.adminRoles ?? []).length ? ' may do everything, here and everywhere.' : null),
    h('h4', {id: 'namespace-rules-heading'}, 'Namespace rules ', h('code', {}, 'Authorization__NamespaceRules')),
    concerned.length === 0
      ? h('p', {class: 'empty', id: 'namespace-rules-none'}, 'No rule of the configuration names this namespace or all namespaces.')
      : h(
          'div',
          {class: 'table-area'},
          h(
            'table',
            {class: 'data', id: 'namespace-rules'},
            h('caption', {class: 'visually-hidden'}, `The configured rules that apply to ${name}, read-only`),
            h('thead', {}, h('tr', {}, ['Rule for', 'Read', 'Write', 'Reverse lookup'].map((t) => h('th', {scope: 'col'}, t)))),
            h(
              'tbody',
              {},
              concerned.map((rule) =>
                h(
                  'tr',
                  {'data-namespace': rule.namespace},
                  h('td', {class: 'name'}, rule.namespace === '*' ? h('em', {}, 'All namespaces (*)') : 'This namespace'),
                  h('td', {}, roleList(rule.readRoles, '–')),
                  h('td', {}, roleList(rule.writeRoles, '–')),
                  h('td', {}, roleList(rule.reverseLookupRoles, '–')),
                ),
              ),
            ),
          ),
        ),
  );
}

/** The grants of all namespaces, read-only. */
function showEverywhere(area, grants) {
  showDataTable(area, grants, {
    id: 'all-namespaces-grants',
    caption: 'Grants of all namespaces, read-only',
    headers: grantHeaders(),
    row: (grant) =>
      h(
        'tr',
        {'data-grant-id': grant.id, 'data-grantee': grant.grantee},
        h('td', {}, granteeTypeLabel(grant.granteeType)),
        h('td', {class: 'name'}, grantee(grant)),
        FLAGS.map((flag) => flagCell(grant[flag.name] === true)),
      ),
    empty: 'No grants of all namespaces.',
  });
}

/** A right shown read-only: Yes, or a muted No. */
export function flagCell(granted) {
  return h('td', {class: granted ? 'flag granted' : 'flag'}, granted ? 'Yes' : h('span', {class: 'empty'}, 'No'));
}

function roleList(roles, none) {
  if (!roles || roles.length === 0) {
    return h('span', {class: 'empty'}, none);
  }
  return roles.flatMap((role, i) => [i > 0 ? ', ' : null, h('code', {class: 'role'}, role)]);
}
