// Service accounts, for admins: create an account, list them, and delete one (with its grants and
// tokens) after a confirmation. Each account's page issues its tokens and lists its grants.

import * as api from '../api.js';
import {can} from '../session.js';
import {h, replace, field, messageArea, showMessage, clearMessage, formatTime, confirmRow, submittingForm, checkFilled, showDataTable, columnHeaders, actionsHeader} from '../dom.js';

export async function render(page, context) {
  context.setTitle('Service accounts');
  const title = h('h1', {tabindex: -1}, 'Service accounts');
  const lead = h(
    'p',
    {class: 'lead'},
    'A service account is a named machine client. Its access tokens act with the grants of the account alone: never with the namespace rules or role grants, and never as an admin. They need no identity provider.',
  );
  if (!context.session.authorization) {
    replace(page, title, lead, authorizationOff());
    return;
  }
  const message = messageArea('service-accounts-message');
  const tableArea = h('div', {class: 'table-area'});
  const listHeading = h('h2', {id: 'service-accounts-heading'}, 'All service accounts');
  let accounts;
  try {
    accounts = await api.listServiceAccounts();
  } catch (e) {
    replace(page, title, e.forbidden ? adminsOnly(context.session, e) : h('p', {class: 'message error', role: 'alert'}, e.message));
    return;
  }
  if (context.signal.aborted) {
    return;
  }
  const reload = async () => {
    try {
      showTable(tableArea, await api.listServiceAccounts(), {message, heading: listHeading, reload});
    } catch (e) {
      showMessage(message, 'error', e.message);
    }
  };
  replace(
    page,
    title,
    lead,
    h('section', {'aria-labelledby': 'create-service-account-heading'}, h('h2', {id: 'create-service-account-heading'}, 'Create a service account'), createForm(message, reload)),
    h('section', {'aria-labelledby': 'service-accounts-heading'}, listHeading, message, tableArea),
  );
  showTable(tableArea, accounts, {message, heading: listHeading, reload});
}

/** What a user who is no admin sees: the service's refusal and their roles. */
export function adminsOnly(session, error) {
  return h(
    'div',
    {class: 'message info', role: 'note', id: 'admins-only'},
    h('p', {}, 'This page is for administrators only. Your roles: ', session.roles.length ? session.roles.join(', ') : 'none', '.'),
    h('p', {}, 'The service answered: ', error.message),
  );
}

export function authorizationOff() {
  return h(
    'div',
    {class: 'message info banner', role: 'note', id: 'authorization-off'},
    h('p', {}, h('strong', {}, 'Authorization is off,'), ' so service accounts have no use: everyone who can reach this service may do everything.'),
    h('p', {}, 'They need ', h('code', {}, 'Authorization__IsEnabled=true'), ', and their tokens ', h('code', {}, 'Authorization__AccessTokens__IsEnabled=true'), '.'),
  );
}

function createForm(listMessage, reload) {
  const name = h('input', {id: 'service-account-name', name: 'name', required: true, maxlength: 64, autocomplete: 'off', spellcheck: 'false'});
  const description = h('input', {id: 'service-account-description', name: 'description', maxlength: 1024, autocomplete: 'off'});
  const submit = h('button', {type: 'submit', class: 'primary'}, 'Create');
  const message = messageArea('create-service-account-message');
  const create = async () => {
    if (!checkFilled(name, message, 'Enter a name.')) {
      return;
    }
    try {
      const created = await api.createServiceAccount(name.value, description.value);
      showMessage(message, 'success', `Service account '${created.name}' created.`);
      name.value = '';
      description.value = '';
      clearMessage(listMessage);
      await reload();
      name.focus();
    } catch (e) {
      showMessage(message, 'error', e.message);
    }
  };
  return submittingForm(
    {id: 'create-service-account', class: 'card form-grid', novalidate: true},
    [
      field('Name', name, '2 to 64 lower-case letters, digits and hyphens, starting and ending with a letter or digit. Cannot be changed later.'),
      field('Description', description, 'Optional: the client that uses it, who to ask about it.'),
    ],
    {submit, message, submitted: create},
  );
}

function showTable(area, accounts, table) {
  showDataTable(area, accounts, {
    id: 'service-accounts',
    caption: 'Service accounts',
    headers: [columnHeaders(['Name', 'Description', 'Created by', 'Created']), actionsHeader()],
    row: (account) => row(account, table),
    empty: 'No service accounts yet. Create one above.',
  });
}

function row(account, table) {
  const href = `/ui/service-accounts/${encodeURIComponent(account.name)}`;
  const remove = h('button', {type: 'button', class: 'danger-outline small', 'aria-label': `Delete service account ${account.name}`}, 'Delete');
  const tr = h(
    'tr',
    {'data-service-account': account.name},
    h('td', {class: 'name'}, h('a', {href}, account.name)),
    h('td', {class: 'wrap'}, account.description),
    h('td', {}, account.createdBy),
    h('td', {class: 'time'}, formatTime(account.createdAt)),
    h('td', {class: 'row-actions'}, h('a', {href, class: 'button secondary small manage', 'aria-label': `Manage service account ${account.name}`}, 'Manage'), ' ', remove),
  );
  remove.addEventListener('click', () =>
    confirmRow(tr, remove, 5, {
      text: [
        'Delete the service account ',
        h('strong', {}, account.name),
        '? This also deletes all its grants and all its tokens: clients that use them are refused at once. It cannot be undone.',
      ],
      button: 'Delete for good',
      run: () => api.deleteServiceAccount(account.name),
      done: `Service account '${account.name}' deleted, with its grants and tokens.`,
      message: table.message,
      heading: table.heading,
      refresh: table.reload,
    }),
  );
  return tr;
}
