// Access control: who may do what. With authorization off there is nothing to show but that; with
// it on, admins see the admin roles, the rules as configured and what they grant per namespace.

import * as api from '../api.js';
import {can} from '../session.js';
import {h, replace, messageArea, loadOrShowError} from '../dom.js';

export async function render(page, context) {
  context.setTitle('Access control');
  if (!context.session.authorization) {
    replace(
      page,
      h('h1', {tabindex: -1}, 'Access control'),
      h(
        'div',
        {class: 'message info banner', role: 'note'},
        h('p', {}, h('strong', {}, 'Authorization is off.'), ' Everyone who can reach this service may do everything: create and delete namespaces, create pseudonyms, and look up original values.'),
        h('p', {}, 'To restrict access, set ', h('code', {}, 'Authorization__IsEnabled=true'), ' with an identity provider and rules that grant roles per namespace.'),
      ),
    );
    return;
  }
  if (!can(context.session, 'admin')) {
    replace(
      page,
      h('h1', {tabindex: -1}, 'Access control'),
      h('p', {class: 'message info', role: 'note', id: 'admins-only'}, 'This page is for administrators only. Your roles: ', rolesOf(context.session.roles), '.'),
    );
    return;
  }
  const message = messageArea('access-message');
  replace(page, h('h1', {tabindex: -1}, 'Access control'), message);
  const rules = await loadOrShowError(message, context.signal, () => api.accessRules());
  if (rules === undefined) {
    return;
  }
  replace(
    page,
    h('h1', {tabindex: -1}, 'Access control'),
    h(
      'p',
      {class: 'lead'},
      'Roles come from the identity provider. Admin roles may do everything; the rules grant read, write and reverse lookup per namespace, independently of each other. Rules add up; nothing denies. This page shows the configuration; it is changed in the service’s settings.',
    ),
    h('section', {'aria-labelledby': 'admins-heading'}, h('h2', {id: 'admins-heading'}, 'Admin roles'), h('p', {id: 'admin-roles'}, rolesOf(rules.adminRoles, 'No admin roles are configured.'))),
    h(
      'section',
      {'aria-labelledby': 'rules-heading'},
      h('h2', {id: 'rules-heading'}, 'Rules'),
      rules.rules.length === 0
        ? h('p', {class: 'empty'}, 'No namespace rules are configured: only admins may do anything.')
        : rolesTable('rules', 'Namespace rules, as configured', rules.rules, (rule) => (rule.namespace === '*' ? h('em', {}, 'All namespaces') : h('code', {}, rule.namespace))),
    ),
    h(
      'section',
      {'aria-labelledby': 'effective-heading'},
      h('h2', {id: 'effective-heading'}, 'Roles per namespace'),
      h('p', {class: 'hint'}, 'What the rules for the namespace and the rules for all namespaces grant together, besides the admin roles.'),
      rules.namespaces.length === 0
        ? h('p', {class: 'empty'}, 'There are no namespaces yet.')
        : rolesTable('effective-roles', 'Roles per existing namespace', rules.namespaces, (entry) => h('a', {href: `/ui/namespaces/${encodeURIComponent(entry.namespace)}/pseudonyms`}, entry.namespace)),
      rules.namespacesTruncated
        ? h('p', {class: 'hint'}, `The first ${rules.namespaces.length} namespaces by name are shown.`)
        : null,
    ),
  );
}

function rolesTable(id, caption, entries, namespaceCell) {
  return h(
    'div',
    {class: 'table-area'},
    h(
      'table',
      {class: 'data', id},
      h('caption', {class: 'visually-hidden'}, caption),
      h('thead', {}, h('tr', {}, ['Namespace', 'Read', 'Write', 'Reverse lookup'].map((t) => h('th', {scope: 'col'}, t)))),
      h(
        'tbody',
        {},
        entries.map((entry) =>
          h(
            'tr',
            {'data-namespace': entry.namespace},
            h('td', {class: 'name'}, namespaceCell(entry)),
            h('td', {}, rolesOf(entry.readRoles, '–')),
            h('td', {}, rolesOf(entry.writeRoles, '–')),
            h('td', {}, rolesOf(entry.reverseLookupRoles, '–')),
          ),
        ),
      ),
    ),
  );
}

/** Roles as code, comma-separated; `none` when there are none. */
function rolesOf(roles, none = 'none') {
  if (!roles || roles.length === 0) {
    return h('span', {class: 'empty'}, none);
  }
  return roles.flatMap((role, i) => [i > 0 ? ', ' : null, h('code', {class: 'role'}, role)]);
}
