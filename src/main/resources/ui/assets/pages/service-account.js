// One service account, for admins: its description, issue a token (the secret shown once), its
// tokens to revoke or delete, and its grants, which are changed on each namespace's page.

import * as api from '../api.js';
import {adminsOnly, authorizationOff} from './service-accounts.js';
import {createTokenForm, disabledNotice, tokenSettings, tokenTable} from '../tokens.js';
import {flagCell} from '../grants.js';
import {h, replace, messageArea, showMessage, formatTime, showDataTable, columnHeaders} from '../dom.js';

export async function render(page, context) {
  const name = context.params[0];
  context.setTitle(name);
  const session = context.session;
  const breadcrumb = h(
    'nav',
    {'aria-label': 'Breadcrumb', class: 'breadcrumb'},
    h('a', {href: '/ui/service-accounts'}, 'Service accounts'),
    h('span', {'aria-hidden': 'true'}, ' / '),
    h('span', {}, name),
  );
  const title = h('h1', {tabindex: -1}, name);
  if (!session.authorization) {
    replace(page, breadcrumb, title, authorizationOff());
    return;
  }
  let account;
  try {
    account = (await api.listServiceAccounts()).find((a) => a.name === name);
  } catch (e) {
    replace(page, breadcrumb, title, e.forbidden ? adminsOnly(session, e) : h('p', {class: 'message error', role: 'alert'}, e.message));
    return;
  }
  if (context.signal.aborted) {
    return;
  }
  if (!account) {
    replace(
      page,
      breadcrumb,
      title,
      h('p', {class: 'message error', role: 'alert'}, `There is no service account named '${name}'.`),
      h('p', {}, h('a', {href: '/ui/service-accounts'}, 'Back to the service accounts')),
    );
    return;
  }
  const grants = grantsSection(name, context);
  const tokens = tokensSections(name, context);
  replace(
    page,
    breadcrumb,
    title,
    account.description ? h('p', {class: 'lead'}, account.description) : null,
    h(
      'dl',
      {class: 'facts'},
      h('div', {}, h('dt', {}, 'Created by'), h('dd', {}, account.createdBy)),
      h('div', {}, h('dt', {}, 'Created'), h('dd', {}, formatTime(account.createdAt))),
      h('div', {}, h('dt', {}, 'Tokens start with'), h('dd', {}, h('code', {}, 'vfps_sat_'))),
    ),
    tokens.sections,
    grants.section,
  );
  await Promise.all([tokens.load(), grants.load()]);
}

/** The token form and table; the notice instead while tokens are off. */
function tokensSections(name, context) {
  if (!tokenSettings(context.session).enabled) {
    return {
      sections: h('section', {'aria-labelledby': 'tokens-heading'}, h('h2', {id: 'tokens-heading'}, 'Tokens'), disabledNotice(context.session)),
      load: async () => {},
    };
  }
  const message = messageArea('tokens-message');
  const tableArea = h('div', {class: 'table-area', id: 'tokens-area'});
  const heading = h('h2', {id: 'tokens-heading'}, 'Tokens');
  const load = tokenTable({
    area: tableArea,
    message,
    heading,
    load: () => api.listAccessTokens({serviceAccount: name}, context.signal),
    caption: `Tokens of ${name}`,
    empty: 'This account has no tokens yet.',
  });
  const {form, secretArea} = createTokenForm({session: context.session, serviceAccount: name, created: load});
  return {
    sections: [
      h('section', {'aria-labelledby': 'issue-token-heading'}, h('h2', {id: 'issue-token-heading'}, 'Issue a token'), secretArea, form),
      h('section', {'aria-labelledby': 'tokens-heading'}, heading, message, tableArea),
    ],
    load,
  };
}

/** The account's grants, read-only: they are changed with Configure access on a namespace's page. */
function grantsSection(name, context) {
  const message = messageArea('account-grants-message');
  const area = h('div', {class: 'table-area', id: 'account-grants-area'});
  const section = h(
    'section',
    {'aria-labelledby': 'account-grants-heading'},
    h('h2', {id: 'account-grants-heading'}, 'Grants'),
    h('p', {class: 'hint'}, 'What the account’s tokens may do. Grants are added, changed and deleted with ', h('em', {}, 'Configure access'), ' on a namespace’s page.'),
    message,
    area,
  );
  const load = async () => {
    let grants;
    try {
      grants = (await api.listAllGrants()).filter((g) => g.granteeType === 'GRANTEE_TYPE_SERVICE_ACCOUNT' && g.grantee === name);
    } catch (e) {
      showMessage(message, 'error', e.message);
      return;
    }
    if (context.signal.aborted) {
      return;
    }
    showDataTable(area, grants, {
      id: 'account-grants',
      caption: `Grants of ${name}`,
      headers: columnHeaders(['Namespace', 'Read', 'Write', 'Reverse lookup']),
      row: (grant) =>
        h(
          'tr',
          {'data-namespace': grant.allNamespaces ? '*' : grant.namespace},
          h(
            'td',
            {class: 'name'},
            grant.allNamespaces
              ? h('em', {}, 'All namespaces')
              : h('a', {href: `/ui/namespaces/${encodeURIComponent(grant.namespace)}/pseudonyms`}, grant.namespace),
          ),
          flagCell(grant.canRead),
          flagCell(grant.canWrite),
          flagCell(grant.canReverseLookup),
        ),
      empty: 'No grants: the account’s tokens may do nothing yet.',
    });
  };
  return {section, load};
}
