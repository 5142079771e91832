// The app: reads the session once, draws the page of the current path, and keeps navigation
// inside the page (history API), so each page has its own address that survives a reload.

import * as api from './api.js';
import {h, replace, guarded} from './dom.js';
import * as namespacesPage from './pages/namespaces.js';
import * as namespacePage from './pages/namespace.js';
import * as csvPage from './pages/csv.js';
import * as accessPage from './pages/access.js';
import * as accessTokensPage from './pages/access-tokens.js';
import * as serviceAccountsPage from './pages/service-accounts.js';
import * as serviceAccountPage from './pages/service-account.js';

const routes = [
  {path: /^\/ui\/?$/, page: namespacesPage, section: 'namespaces'},
  {path: /^\/ui\/namespaces$/, page: namespacesPage, section: 'namespaces'},
  {path: /^\/ui\/namespaces\/([^/]+)\/pseudonyms$/, page: namespacePage, section: 'namespaces'},
  {path: /^\/ui\/csv$/, page: csvPage, section: 'csv'},
  {path: /^\/ui\/access-control$/, page: accessPage, section: 'access-control'},
  {path: /^\/ui\/access-tokens$/, page: accessTokensPage, section: 'access-tokens'},
  {path: /^\/ui\/service-accounts$/, page: serviceAccountsPage, section: 'service-accounts'},
  {path: /^\/ui\/service-accounts\/([^/]+)$/, page: serviceAccountPage, section: 'service-accounts'},
];

const main = document.getElementById('main');
let session = null;
let current = null; // {controller, leaveWarning}

/** Draws the page of the current address; focuses its heading when navigating in the app. */
async function show(focus) {
  current?.controller.abort();
  const match = matchRoute(location.pathname);
  const route = match?.route;
  const controller = new AbortController();
  current = {controller, leaveWarning: null};
  for (const link of document.querySelectorAll('nav a[data-section]')) {
    if (route && link.dataset.section === route.section) {
      link.setAttribute('aria-current', 'page');
    } else {
      link.removeAttribute('aria-current');
    }
  }
  if (!route) {
    showNotFound();
    return;
  }
  const params = match.params;
  const page = h('div', {class: 'page'});
  replace(main, page);
  const context = {
    session,
    params,
    signal: controller.signal,
    navigate,
    setTitle: (title) => (document.title = `${title} · vfps`),
    setLeaveWarning: (text) => (current.leaveWarning = text),
  };
  await route.page.render(page, context);
  if (focus && current.controller === controller) {
    (main.querySelector('h1') ?? main).focus();
  }
}

/**
 * The route of a path with its decoded parameters, or null when the path is no page of the app
 * (a parameter that is no valid percent-encoding included).
 */
function matchRoute(pathname) {
  for (const route of routes) {
    const found = route.path.exec(pathname);
    if (found) {
      try {
        return {route, params: found.slice(1).map(decodeURIComponent)};
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The view of a path that is no page, with the way back; it needs no sign-in. */
function showNotFound() {
  document.title = 'Page not found · vfps';
  replace(
    main,
    h('div', {class: 'page', id: 'not-found'},
      h('h1', {tabindex: -1}, 'Page not found'),
      h('p', {class: 'lead'}, 'There is no page at this address of the admin UI.'),
      h('p', {}, h('a', {href: '/ui/namespaces', id: 'not-found-back'}, 'Back to the namespaces')),
    ),
  );
}

/** Goes to an address of the app. */
function navigate(href) {
  if (current?.leaveWarning && !confirm(current.leaveWarning)) {
    return;
  }
  history.pushState(null, '', href);
  show(true);
}

document.addEventListener('click', (event) => {
  const link = event.target.closest('a[href]');
  if (
    !link ||
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey ||
    link.target ||
    link.hasAttribute('download')
  ) {
    return;
  }
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || !matchRoute(url.pathname)) {
    return;
  }
  event.preventDefault();
  if (url.pathname !== location.pathname || url.search !== location.search) {
    navigate(url.pathname + url.search);
  }
});

window.addEventListener('popstate', () => show(true));
window.addEventListener('beforeunload', (event) => {
  if (current?.leaveWarning) {
    event.preventDefault();
  }
});

function setUpThemeToggle() {
  const root = document.documentElement;
  const toggle = document.getElementById('theme-toggle');
  const system = matchMedia('(prefers-color-scheme: dark)');
  const dark = () => (root.dataset.theme ? root.dataset.theme === 'dark' : system.matches);
  const update = () => {
    root.classList.toggle('dark', dark());
    toggle.setAttribute('aria-pressed', String(dark()));
  };
  toggle.addEventListener('click', () => {
    const makeDark = !dark();
    root.dataset.theme = makeDark ? 'dark' : 'light';
    try {
      localStorage.setItem('vfps-dark-mode', makeDark ? '1' : '0');
    } catch {
      // the choice lasts for this page only
    }
    update();
  });
  system.addEventListener('change', update);
  update();
}

/**
 * The links of the pages that need a signed-in user: Access tokens for everyone signed in, Service
 * accounts for admins too.
 */
function showSignedInLinks() {
  const signedIn = session.authorization && Boolean(session.user);
  document.getElementById('nav-access-tokens').closest('li').hidden = !signedIn;
  document.getElementById('nav-service-accounts').closest('li').hidden = !(signedIn && session.permissions?.admin === true);
}

/** The header's account area: the signed-in user, their roles and Sign out, when authorization is on. */
function showAccount() {
  showSignedInLinks();
  const account = document.getElementById('account');
  if (!session.authorization) {
    replace(
      account,
      h('a', {class: 'badge warning', href: '/ui/access-control', title: 'Everyone may do everything'}, 'Authorization off'),
    );
    return;
  }
  const user = session.user;
  const roles = session.roles.length ? session.roles.join(', ') : 'no roles of this service';
  const details = [user.username && user.username !== user.name ? user.username : null, user.email || null].filter(Boolean);
  const signOut = h('button', {type: 'button', class: 'secondary small', id: 'sign-out'}, 'Sign out');
  signOut.addEventListener(
    'click',
    guarded(signOut, async () => {
      try {
        await api.signOut();
      } catch (e) {
        signOut.title = e.message;
      }
    }),
  );
  replace(
    account,
    h(
      'div',
      {class: 'user', id: 'account-user'},
      h('span', {class: 'user-name', id: 'account-name', title: details.join(' · ') || false}, user.name || user.username || user.subject),
      h('span', {class: 'user-roles', id: 'account-roles', title: roles}, h('span', {class: 'visually-hidden'}, 'Roles: '), roles),
    ),
    signOut,
  );
}

/** Authorization is on, but nobody can sign in: the page says so, and what to configure. */
function showSignInNotConfigured() {
  document.title = 'Sign-in is not configured · vfps';
  replace(
    main,
    h('h1', {tabindex: -1}, 'Sign-in is not configured'),
    h(
      'div',
      {class: 'message info banner', role: 'note', id: 'sign-in-not-configured'},
      h('p', {}, 'Authorization is on, so every page needs a signed-in user, but this service has no client to sign users in with.'),
      h('p', {}, 'An administrator sets ', h('code', {}, 'Authorization__ClientId'), ' and ', h('code', {}, 'Authorization__ClientSecret'), ' (a confidential client of the identity provider). The API works without them.'),
    ),
  );
}

async function start() {
  setUpThemeToggle();
  try {
    session = await api.session();
  } catch (e) {
    replace(main, h('h1', {}, 'vfps'), h('p', {class: 'message error', role: 'alert'}, `The service cannot be reached: ${e.message}`));
    return;
  }
  document.getElementById('version').textContent = session.version;
  document.getElementById('revision').textContent = session.revision;
  if (!matchRoute(location.pathname)) {
    if (!session.authorization || session.user) {
      showAccount();
    }
    showNotFound();
    return;
  }
  if (session.authorization && !session.user) {
    if (session.signIn?.configured) {
      location.replace(api.signInUrl());
    } else {
      showSignInNotConfigured();
    }
    return;
  }
  showAccount();
  await show(false);
}

start();
