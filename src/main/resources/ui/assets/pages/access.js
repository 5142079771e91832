// Access control: who may do what. With authorization off there is nothing to show but that.

import {h, replace} from '../dom.js';

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
  replace(page, h('h1', {tabindex: -1}, 'Access control'), h('p', {}, 'Authorization is on.'));
}
