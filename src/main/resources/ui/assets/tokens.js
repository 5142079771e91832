// The parts the Access tokens page and a service account's page share: the form that creates a
// token and shows its secret once, the table of tokens with revoke and delete, and the notice for a
// service whose access tokens are off.

import * as api from './api.js';
import {h, replace, field, messageArea, showMessage, formatTime, copyButton, confirmRow, submittingForm, checkEntry, checkFilled, showDataTable, columnHeaders, actionsHeader} from './dom.js';

/** The longest token name the service takes. */
const MAX_NAME_LENGTH = 128;

/**
 * Whether access tokens are on, and their lifetimes in whole days (maximumDays null when there is
 * no cap), as the session tells them.
 */
export function tokenSettings(session) {
  const tokens = session?.accessTokens ?? {};
  return {
    enabled: tokens.enabled === true,
    defaultDays: Math.max(1, Number(tokens.defaultLifetimeDays ?? 90)),
    maximumDays: tokens.maximumLifetimeDays == null ? null : Number(tokens.maximumLifetimeDays),
  };
}

/** The notice in place of the token parts while the service has access tokens off. */
export function disabledNotice(session) {
  if (!session.authorization) {
    return h(
      'div',
      {class: 'message info banner', role: 'note', id: 'tokens-disabled'},
      h('p', {}, h('strong', {}, 'Authorization is off,'), ' so there are no access tokens: everyone who can reach this service may do everything.'),
      h('p', {}, 'Tokens need ', h('code', {}, 'Authorization__IsEnabled=true'), ' and ', h('code', {}, 'Authorization__AccessTokens__IsEnabled=true'), '.'),
    );
  }
  return h(
    'div',
    {class: 'message info banner', role: 'note', id: 'tokens-disabled'},
    h('p', {}, h('strong', {}, 'Access tokens are disabled on this service.'), ' No token can be created, and tokens made earlier are refused.'),
    h('p', {}, 'An administrator turns them on with ', h('code', {}, 'Authorization__AccessTokens__IsEnabled=true'), '.'),
  );
}

/**
 * The form that creates a token: a personal one of the signed-in user, or with serviceAccount one
 * of that account. The secret is shown once, above the form, until it is dismissed; created is
 * called with the new token afterwards.
 */
export function createTokenForm({session, serviceAccount = '', created}) {
  const settings = tokenSettings(session);
  const name = h('input', {id: 'token-name', name: 'name', required: true, maxlength: MAX_NAME_LENGTH, autocomplete: 'off'});
  const lifetime = h('input', {
    id: 'token-lifetime',
    name: 'lifetimeDays',
    type: 'number',
    min: 1,
    max: settings.maximumDays ?? false,
    step: 1,
    required: true,
    value: String(settings.defaultDays),
  });
  const limit =
    settings.maximumDays == null
      ? 'There is no maximum.'
      : `At most ${settings.maximumDays} days (Authorization__AccessTokens__MaximumLifetime).`;
  const submit = h('button', {type: 'submit', class: 'primary'}, serviceAccount ? 'Issue token' : 'Create token');
  const message = messageArea('create-token-message');
  const secretArea = h('div', {id: 'token-secret-area'});
  const create = async () => {
    if (!checkFilled(name, message, 'Enter a name for the token.')) {
      return;
    }
    const days = Number(lifetime.value);
    const validDays = Boolean(lifetime.value) && Number.isInteger(days) && days >= 1 && (settings.maximumDays == null || days <= settings.maximumDays);
    const daysError = settings.maximumDays == null ? 'The lifetime must be a whole number of days, at least 1.' : `The lifetime must be a whole number of days from 1 to ${settings.maximumDays}.`;
    if (!checkEntry(validDays, message, lifetime, daysError)) {
      return;
    }
    let reply;
    try {
      reply = await api.createAccessToken({name: name.value, serviceAccount, lifetimeDays: days});
    } catch (e) {
      showMessage(message, 'error', e.message);
      return;
    }
    name.value = '';
    lifetime.value = String(settings.defaultDays);
    showMessage(message, 'success', `Token '${reply.accessToken.name}' created. Copy it now, above.`);
    replace(secretArea, secretBox(reply, () => replace(secretArea), name));
    secretArea.querySelector('input').focus();
    await created?.(reply.accessToken);
  };
  const form = submittingForm(
    {id: 'create-token', class: 'card form-grid', novalidate: true},
    [
      field('Name', name, serviceAccount ? 'What the token is for, e.g. "etl 2027".' : 'What the token is for, e.g. "laptop scripts".'),
      field('Lifetime in days', lifetime, `Whole days; ${settings.defaultDays} by default. ${limit}`),
    ],
    {submit, message, submitted: create},
  );
  return {form, secretArea};
}

/** The new token's secret, to copy, with the warning that it is not shown again. */
function secretBox(reply, dismiss, focusAfter) {
  const value = h('input', {
    id: 'token-secret-value',
    readonly: true,
    value: reply.secret,
    spellcheck: 'false',
    autocomplete: 'off',
    'aria-describedby': 'token-secret-warning',
  });
  value.addEventListener('focus', () => value.select());
  const done = h('button', {type: 'button', class: 'secondary', id: 'token-secret-done'}, 'I have copied it, hide it');
  done.addEventListener('click', () => {
    dismiss();
    focusAfter.focus();
  });
  return h(
    'section',
    {class: 'secret-box', id: 'token-secret', 'aria-labelledby': 'token-secret-heading'},
    h('h3', {id: 'token-secret-heading'}, `The token '${reply.accessToken.name}'`),
    h(
      'p',
      {class: 'secret-warning', id: 'token-secret-warning'},
      h('strong', {}, 'Copy it now: it will not be shown again.'),
      ' The service keeps only its hash. If it is lost, revoke it and create a new one.',
    ),
    h('div', {class: 'secret-value'}, h('label', {for: 'token-secret-value', class: 'visually-hidden'}, 'The token'), value, copyButton(reply.secret, 'Copy the token')),
    h('p', {class: 'hint'}, 'Send it as ', h('code', {}, 'Authorization: Bearer <token>'), `. It expires on ${formatTime(reply.accessToken.expiresAt)}.`),
    h('div', {class: 'actions'}, done),
  );
}

/**
 * The table of tokens in area, loaded by load(); each with revoke and delete behind a confirmation
 * that names it. While owners() is true, a column says whose each token is. Returns refresh(), which
 * redraws the table and answers the error of a failed load, else null.
 */
export function tokenTable({area, message, heading, load, owners = () => false, caption, empty}) {
  let latest = 0; // the answer of the last load wins, whatever order they arrive in
  const refresh = async () => {
    const mine = ++latest;
    let tokens;
    try {
      tokens = await load();
    } catch (e) {
      if (e.name !== 'AbortError' && mine === latest) {
        showMessage(message, 'error', e.message);
      }
      return e;
    }
    if (mine !== latest) {
      return null;
    }
    const withOwners = owners();
    const columns = ['Name', 'Token id', withOwners ? 'Owner' : null, 'Created', 'Expires', 'Last used', 'Revoked'].filter(Boolean);
    showDataTable(area, tokens, {
      id: 'tokens',
      caption,
      headers: [columnHeaders(columns), actionsHeader()],
      row: (token) => tokenRow(token, withOwners, columns.length + 1, {message, heading, refresh}),
      empty,
    });
    return null;
  };
  return refresh;
}

function tokenRow(token, owners, width, table) {
  const revoked = Boolean(token.revokedAt);
  const expired = !revoked && new Date(token.expiresAt).getTime() <= Date.now();
  const revoke = h(
    'button',
    {type: 'button', class: 'danger-outline small revoke', 'aria-label': `Revoke token ${token.name}`, disabled: revoked},
    'Revoke',
  );
  const remove = h('button', {type: 'button', class: 'danger-outline small delete', 'aria-label': `Delete token ${token.name}`}, 'Delete');
  const tr = h(
    'tr',
    {'data-token-id': token.tokenId, 'data-id': token.id, class: revoked ? 'revoked' : false},
    h('td', {class: 'name'}, token.name),
    h('td', {class: 'token-id'}, h('code', {}, token.tokenId)),
    owners ? h('td', {class: 'owner'}, ownerOf(token)) : null,
    h('td', {class: 'time'}, formatTime(token.createdAt)),
    h(
      'td',
      {class: 'time expires'},
      formatTime(token.expiresAt),
      token.expiresSoon ? [' ', h('span', {class: 'badge warning expires-soon'}, 'Expires soon')] : null,
      expired ? [' ', h('span', {class: 'badge muted'}, 'Expired')] : null,
    ),
    h('td', {class: 'time last-used'}, token.lastUsedAt ? formatTime(token.lastUsedAt) : h('span', {class: 'empty'}, 'Never')),
    h('td', {class: 'time revoked-at'}, revoked ? formatTime(token.revokedAt) : h('span', {class: 'empty'}, 'No')),
    h('td', {class: 'row-actions'}, revoke, ' ', remove),
  );
  /** Opens the confirmation of the action on the token, whose question names it by name and token id. */
  const confirmAction = (opener, {action, consequences, run, done}) =>
    confirmRow(tr, opener, width, {
      text: [`${action} the token `, h('strong', {}, token.name), ' (', h('code', {}, token.tokenId), ')? ', consequences],
      button: `${action} token`,
      run,
      done: `Token '${token.name}' ${done}.`,
      ...table,
    });
  revoke.addEventListener('click', () =>
    confirmAction(revoke, {
      action: 'Revoke',
      consequences: 'It stops working at once. Its row stays, with its last use.',
      run: () => api.revokeAccessToken(token.id),
      done: 'revoked',
    }),
  );
  remove.addEventListener('click', () =>
    confirmAction(remove, {
      action: 'Delete',
      consequences: [revoked ? 'Its row and its last use are removed.' : 'It stops working at once, and its row and its last use are removed.', ' This cannot be undone.'],
      run: () => api.deleteAccessToken(token.id),
      done: 'deleted',
    }),
  );
  return tr;
}

function ownerOf(token) {
  if (token.type === 'ACCESS_TOKEN_TYPE_SERVICE_ACCOUNT') {
    return [
      h('span', {class: 'hint'}, 'Service account '),
      h('a', {href: `/ui/service-accounts/${encodeURIComponent(token.serviceAccount)}`}, token.serviceAccount),
    ];
  }
  const who = token.username || token.subject;
  return [h('span', {title: token.subject}, who), token.roles?.length ? h('span', {class: 'hint'}, ` (${token.roles.join(', ')})`) : null];
}
