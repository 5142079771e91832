// Access tokens: create a personal token (its secret shown once), and the signed-in user's tokens
// with their expiry, last use and the "Expires soon" marker, to revoke or delete. Admins may switch
// to every token (?all=true), personal and of service accounts.

import * as api from '../api.js';
import {can} from '../session.js';
import {createTokenForm, disabledNotice, tokenSettings, tokenTable} from '../tokens.js';
import {h, replace, messageArea} from '../dom.js';

export async function render(page, context) {
  context.setTitle('Access tokens');
  const session = context.session;
  const title = h('h1', {tabindex: -1}, 'Access tokens');
  const lead = h(
    'p',
    {class: 'lead'},
    'An access token lets a script or a machine client call the API without the identity provider: it is sent as ',
    h('code', {}, 'Authorization: Bearer <token>'),
    '. A personal token acts as you, with the roles you have now, until it expires or is revoked; it cannot create tokens.',
  );
  if (!session.authorization || !tokenSettings(session).enabled) {
    replace(page, title, lead, disabledNotice(session));
    return;
  }
  const admin = can(session, 'admin');
  let all = admin && new URLSearchParams(location.search).get('all') === 'true';
  const message = messageArea('tokens-message');
  const tableArea = h('div', {class: 'table-area', id: 'tokens-area'});
  const listHeading = h('h2', {id: 'tokens-heading'});
  const refresh = tokenTable({
    area: tableArea,
    message,
    heading: listHeading,
    owners: () => all,
    load: () => api.listAccessTokens({all}, context.signal),
    caption: 'Access tokens',
    empty: 'No tokens yet.',
  });
  const load = async () => {
    listHeading.textContent = all ? 'All tokens' : 'Your tokens';
    const failed = await refresh();
    if (failed?.failedPrecondition && !context.signal.aborted) {
      replace(page, title, lead, disabledNotice(session));
    }
  };
  const {form, secretArea} = createTokenForm({session, created: load});
  replace(
    page,
    title,
    lead,
    h('section', {'aria-labelledby': 'create-token-heading'}, h('h2', {id: 'create-token-heading'}, 'Create a personal token'), secretArea, form),
    h('section', {'aria-labelledby': 'tokens-heading'}, listHeading, admin ? viewChoice(all, (chosen) => {
      all = chosen;
      history.replaceState(null, '', all ? '/ui/access-tokens?all=true' : '/ui/access-tokens');
      load();
    }) : null, message, tableArea),
  );
  await load();
}

/** For admins: the choice between their own tokens and every token. */
function viewChoice(all, choose) {
  const mine = h('input', {type: 'radio', name: 'tokens-view', id: 'tokens-view-mine', value: 'mine', checked: !all});
  const every = h('input', {type: 'radio', name: 'tokens-view', id: 'tokens-view-all', value: 'all', checked: all});
  for (const radio of [mine, every]) {
    radio.addEventListener('change', () => choose(every.checked));
  }
  return h(
    'fieldset',
    {class: 'choices-set', id: 'tokens-view'},
    h('legend', {}, 'Show'),
    h(
      'div',
      {class: 'choices'},
      h('label', {for: 'tokens-view-mine'}, mine, ' My tokens'),
      h('label', {for: 'tokens-view-all'}, every, ' All tokens: every person’s and every service account’s'),
    ),
  );
}
