// The panel's entry point: signing in, and rendering the place the address names (router.js).
// The views are rendered by their own modules.

import { $, h, show, errorBox, focusHeading, timeElement, plural, wrappable } from './dom.js';
import { api, session } from './api.js';
import { renderVersionView } from './version-view.js';
import { renderPublishView, compatibilityReport } from './publish-view.js';
import { renderAuditView } from './audit-view.js';
import { confirmDelete } from './dialogs.js';
import { prettyJSON } from './json-text.js';
import { currentRoute, describe, hashOf, navigate, onRouteChange } from './router.js';
import { createSidebar } from './sidebar.js';
import { failure, loadInto, spinner } from './loading.js';

const state = {
  signedIn: false,
  applications: [],
  route: null, // the place shown
  back: null, // the last place that was not the publish editor, where Cancel returns
  versions: null, // {app, type, list}: the shown type's live versions, newest first
  shownVersion: null,
};

const CONTENT_VIEWS = ['status-view', 'version-view', 'publish-view', 'audit-view', 'welcome-view'];

let sidebar = null;
let renderCount = 0;
let keepMessages = false; // set before a navigation that must keep the message just shown

const scope = () => document.body.dataset.scope ?? null;

// --- messages -----------------------------------------------------------------------------

function dismissible(region, content) {
  region.replaceChildren(h('div', { class: 'message' }, content,
    h('button', { type: 'button', class: 'link dismiss', onclick: () => region.replaceChildren() }, 'Dismiss')));
}

function notify(...parts) {
  dismissible($('#messages'), h('div', { class: 'notice' }, ...parts));
}

function clearMessages() {
  $('#messages').replaceChildren();
  $('#errors').replaceChildren();
}

/** Shows an API failure; a rejected token signs the user out instead. */
function showError(error, context) {
  if (error?.unauthenticated) {
    signOut(`The registry did not accept the API token: ${error.message}. Sign in again.`);
    return;
  }
  if (!error?.kind) console.error(error);
  dismissible($('#errors'), errorBox(error ?? { message: 'unknown error' }, context));
}

/** Runs an async action, showing any failure as a message. */
const guarded = (context, action) => async (...args) => {
  try {
    await action(...args);
  } catch (error) {
    showError(error, context);
  }
};

/** Navigates and keeps the message shown (a navigation by the user clears messages). */
function goWithMessage(route, options) {
  keepMessages = true;
  navigate(route, options);
}

// --- signing in and out -------------------------------------------------------------------

/** The sign-in form; `keepToken` leaves a refused token in the field so a typo can be fixed. */
function showSignIn(reason, { keepToken = false } = {}) {
  state.signedIn = false;
  state.applications = [];
  state.versions = null;
  sidebar.reset();
  delete document.body.dataset.scope;
  show($('#workspace'), false);
  show($('#session-bar'), false);
  show($('#start-status'), false);
  show($('#sign-in-view'), true);
  if (reason) dismissible($('#errors'), h('div', { class: 'error-box' }, h('p', {}, reason)));
  const input = $('#token-input');
  if (!keepToken) input.value = '';
  input.focus();
}

function signOut(reason) {
  session.clear();
  clearMessages();
  showSignIn(reason);
  if (!reason) {
    window.history.replaceState(null, '', window.location.pathname);
    notify('Signed out. The token was removed from this tab.');
  }
}

async function onSignIn(event) {
  event.preventDefault();
  const token = $('#token-input').value.trim();
  clearMessages();
  if (!token) {
    dismissible($('#errors'), h('div', { class: 'error-box' }, h('p', {}, 'Enter your API token.')));
    $('#token-input').focus();
    return;
  }
  session.token = token;
  await enterWorkspace({ fromSignIn: true });
}

/** Loads the token's applications and scope, then shows the place the address names. */
async function enterWorkspace({ fromSignIn = false } = {}) {
  const status = $('#start-status');
  show($('#sign-in-view'), false);
  show(status, true);
  status.replaceChildren(spinner('Connecting to the registry…'));
  let applications;
  let token;
  try {
    // A registry without GET /api/token, or one failing it, leaves every control visible:
    // the registry still refuses what the token may not do.
    [applications, token] = await Promise.all([
      api.applications(),
      api.token().catch((error) => { if (error.unauthenticated) throw error; return null; }),
    ]);
  } catch (error) {
    if (error.unauthenticated) {
      session.clear();
      showSignIn(`That API token was not accepted: ${error.message}. Correct it or paste another one.`, { keepToken: fromSignIn });
    } else {
      status.replaceChildren(h('h2', {}, 'The registry could not be reached'),
        failure(error, 'Could not load the applications', () => enterWorkspace({ fromSignIn })));
    }
    return;
  }
  show(status, false);
  if (token?.scope) document.body.dataset.scope = token.scope;
  else delete document.body.dataset.scope;
  state.applications = token?.applications ? applications.filter((app) => token.applications.includes(app.code)) : applications;
  state.signedIn = true;
  show($('#session-bar'), true);
  show($('#workspace'), true);
  const select = $('#application-select');
  select.replaceChildren(...state.applications.map((app) =>
    h('option', { value: app.code }, app.name ? `${app.name} (${app.code})` : app.code)));
  if (!state.applications.length) {
    select.disabled = true;
    showContent(null);
    show($('#versions-view'), false);
    show($('#types-pane'), false);
    dismissible($('#errors'), h('div', { class: 'error-box' }, h('p', {},
      'This account has no applications yet. Create one with ', h('code', {}, 'schema-registry admin create-application'), '.')));
    return;
  }
  select.disabled = false;
  show($('#types-pane'), true);
  await render(currentRoute());
}

// --- rendering the place the address names ------------------------------------------------

function showContent(id) {
  for (const view of CONTENT_VIEWS) show($(`#${view}`), view === id);
}

/** An explanation in the content pane (a missing type or version, a missing scope). */
function explain(title, ...parts) {
  $('#status-view').replaceChildren(h('h2', { id: 'status-title' }, title), h('p', {}, ...parts));
  showContent('status-view');
  return $('#status-view');
}

const typeLink = (app, type, text) => h('a', { href: hashOf({ app, type }) }, text);
const appLink = (app, text) => h('a', { href: hashOf({ app }) }, text);

async function render(route) {
  if (!state.signedIn) return;
  const mine = ++renderCount;
  const isCurrent = () => mine === renderCount;
  if (keepMessages) keepMessages = false;
  else clearMessages();
  if (!state.applications.some((app) => app.code === route.app)) {
    const fallback = state.applications.find((app) => app.code === session.application) ?? state.applications[0];
    if (route.app) {
      keepMessages = true;
      dismissible($('#errors'), h('div', { class: 'error-box' }, h('p', {}, `This token has no application “${route.app}”; showing ${fallback.code}.`)));
    }
    navigate({ app: fallback.code }, { replace: true });
    return;
  }
  state.route = route;
  if (route.view !== 'publish') state.back = route;
  const app = route.app;
  if (sidebar.application !== app) {
    session.application = app;
    $('#application-select').value = app;
    state.versions = null;
    sidebar.open(app);
  }
  sidebar.mark(route.type);
  if (route.type === null) {
    state.versions = null; // coming back to a type loads it afresh
    show($('#versions-view'), false);
    if (route.view === 'publish') openPublish(route, []);
    else {
      showContent('welcome-view');
      focusHeading($('#types-pane'));
    }
    return;
  }
  const versions = await loadVersions(route, isCurrent);
  if (!isCurrent()) return;
  if (!versions.length && route.view !== 'publish') {
    show($('#versions-view'), false);
    focusHeading(explain(`${route.type} has no versions`, 'It was deleted or never published in ', app, '. ',
      appLink(app, `Show the types of ${app}`), '.'));
    return;
  }
  if (versions.length) renderVersions(route, versions);
  else show($('#versions-view'), false);
  if (route.view === 'publish') openPublish(route, versions);
  else if (route.view === 'audit') openAudit(route, isCurrent);
  else openVersion(route, versions);
}

/** The type's versions, from the last load when it is the same type; null when stale. */
function loadVersions(route, isCurrent) {
  const cached = state.versions;
  if (cached && cached.app === route.app && cached.type === route.type) return Promise.resolve(cached.list);
  show($('#versions-view'), false);
  showContent('status-view');
  return new Promise((resolve) => {
    loadInto($('#status-view'), {
      label: 'Loading the versions…',
      context: `Could not load ${route.type}`,
      fetch: () => api.typeVersions(route.app, route.type),
      isCurrent,
      onUnauthenticated: showError,
      render: (list) => {
        state.versions = { app: route.app, type: route.type, list };
        resolve(list);
      },
    });
  });
}

function renderVersions(route, versions) {
  const { app, type } = route;
  const current = route.view === 'type' ? versions[0].version : route.version;
  $('#versions-title').replaceChildren(...wrappable(type), ` — ${plural(versions.length, 'version')}`);
  $('#versions-list').replaceChildren(...versions.map((schema, index) =>
    h('li', {},
      h('a', {
        class: 'version-button', href: hashOf({ app, type, version: schema.version }), dataset: { version: String(schema.version) },
        'aria-current': (route.view === 'type' || route.view === 'version') && schema.version === current ? 'page' : false,
      },
      h('span', { class: 'version-number' }, `Version ${schema.version}`),
      index === 0 ? h('span', { class: 'badge' }, 'newest') : null,
      h('span', { class: 'muted' }, 'created ', timeElement(schema.created))))));
  const audit = $('#audit-link');
  audit.href = hashOf({ app, type, view: 'audit' });
  if (route.view === 'audit') audit.setAttribute('aria-current', 'page');
  else audit.removeAttribute('aria-current');
  show($('#versions-view'), true);
}

function openVersion(route, versions) {
  const { app, type } = route;
  const schema = route.version === null ? versions[0] : versions.find((candidate) => candidate.version === route.version);
  if (!schema) {
    focusHeading(explain(`${type} has no version ${route.version}`, 'It was deleted or never published. ',
      typeLink(app, type, `Show the newest version of ${type}`), '.'));
    return;
  }
  state.shownVersion = schema.version;
  renderVersionView($('#version-view'), { application: app, schema, onDelete: guarded('Not deleted', deleteVersion) });
  showContent('version-view');
  if (route.tab) $(`#version-view [role="tab"][data-tab="${CSS.escape(route.tab)}"]`)?.click();
  focusHeading(route.view === 'type' ? $('#versions-view') : $('#version-view'));
}

/** Keeps the address on the version's open tab, so a reload or a shared link opens it too. */
function onVersionTab(event) {
  const route = state.route;
  const tablist = $('#version-view [role="tablist"]');
  if (!route || !tablist || !tablist.contains(event.target) || !['type', 'version'].includes(route.view)) return;
  const tab = $('[role="tab"][aria-selected="true"]', tablist)?.dataset.tab;
  if (!tab) return;
  state.route = { ...route, view: 'version', version: state.shownVersion, tab };
  describe(state.route);
}

function openAudit(route, isCurrent) {
  if (scope() !== 'admin') {
    focusHeading(explain('The audit trail needs an admin token',
      `This token has scope ${scope() ?? 'unknown'}. `, typeLink(route.app, route.type, `Show ${route.type}`), '.'));
    return;
  }
  renderAuditView($('#audit-view'), { application: route.app, type: route.type, isCurrent, onUnauthenticated: showError });
  showContent('audit-view');
  focusHeading($('#audit-view'));
}

// --- delete and publish -------------------------------------------------------------------

async function deleteVersion(schema) {
  const { attributes_type: type, version } = schema;
  if (!(await confirmDelete(type, version))) {
    $('#delete-version')?.focus();
    return;
  }
  const app = state.route.app;
  await api.remove(app, type, version);
  state.versions = null;
  sidebar.reload();
  const left = await api.typeVersions(app, type);
  state.versions = { app, type, list: left };
  clearMessages();
  if (left.length) {
    notify(`Deleted ${type} version ${version} permanently.`);
    goWithMessage({ app, type }, { replace: true });
  } else {
    notify(`Deleted ${type} version ${version} permanently. ${type} has no versions left, so it is no longer listed.`);
    goWithMessage({ app }, { replace: true });
  }
}

function openPublish(route, versions) {
  const { app, type } = route;
  const back = state.back ?? { app };
  if (scope() === 'read') {
    focusHeading(explain('Publishing needs a publish or admin token',
      'This token has scope read: it can browse and check schemas, not publish them. ',
      back.type ? typeLink(app, back.type, `Back to ${back.type}`) : appLink(app, 'Back to the types'), '.'));
    return;
  }
  show($('#versions-view'), false);
  renderPublishView($('#publish-view'), {
    application: app,
    types: sidebar.names(),
    attributesType: type ?? '',
    schemaText: versions.length ? prettyJSON(versions[0].json_schema) : undefined,
    onCancel: () => navigate(back),
    onPublished: guarded('Published, but the list could not be reloaded', onPublished),
    onUnauthenticated: (error) => showError(error),
  });
  showContent('publish-view');
  $('#publish-type').focus();
}

async function onPublished(result) {
  const { attributes_type: type, version } = result.schema;
  const app = state.route.app;
  state.versions = null;
  sidebar.reload();
  clearMessages();
  const compatibility = result.compatibility;
  const findings = compatibility?.compatible === false
    ? (compatibility.groups?.filter((group) => group.new) ?? compatibility.problems ?? []) : [];
  notify(`Published ${type} version ${version}.`, findings.length
    ? h('details', { class: 'findings' },
      h('summary', {}, `It has ${plural(findings.length, 'compatibility finding')} against earlier versions.`),
      compatibilityReport(result.compatibility, type))
    : null);
  goWithMessage({ app, type, version }, { replace: true });
}

// --- start --------------------------------------------------------------------------------

function start() {
  sidebar = createSidebar({ onUnauthenticated: showError });
  onRouteChange((route) => guarded('Could not show this page', render)(route));
  $('#sign-in-form').addEventListener('submit', guarded('Could not sign in', onSignIn));
  $('#sign-out').addEventListener('click', () => signOut());
  $('#application-select').addEventListener('change', (event) => navigate({ app: event.target.value }));
  $('#new-schema').addEventListener('click', () => navigate({ app: state.route.app, view: 'publish' }));
  $('#new-version').addEventListener('click', () => navigate({ app: state.route.app, type: state.route.type, view: 'publish' }));
  $('#version-view').addEventListener('click', onVersionTab);
  $('#version-view').addEventListener('keyup', onVersionTab);
  if (session.token) guarded('Could not load the panel', enterWorkspace)();
  else showSignIn();
}

start();
