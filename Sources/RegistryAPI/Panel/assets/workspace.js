// The workspace: renders the place the address names (router.js) — the sidebar's application,
// a type's versions, one version, the publish editor, the audit trail, the search or the
// application's webhooks — and the changes made from there (publish, delete, a version's state,
// the latest pin, metadata).

import { $, h, show, focusHeading, timeElement, plural, wrappable } from './dom.js';
import { api, session } from './api.js';
import { renderVersionView } from './version-view.js';
import { markBreakingVersions } from './version-badges.js';
import { renderPublishView, compatibilityReport } from './publish-view.js';
import { renderAuditView } from './audit-view.js';
import { renderSearchView } from './search-view.js';
import { renderWebhooksView } from './webhooks-view.js';
import { renderTypeAbout } from './type-about.js';
import { latestVersion, stateBadge, stateLine } from './version-states.js';
import { usageSummary } from './usage-view.js';
import { confirmDelete, confirmLeave } from './dialogs.js';
import { drafts } from './drafts.js';
import { prettyJSON } from './json-text.js';
import { describe, guardLeaving, hashOf, navigate, settle } from './router.js';
import { createSidebar } from './sidebar.js';
import { loadInto } from './loading.js';
import { clearMessages, complain, notify } from './messages.js';

const state = {
  applications: [],
  route: null, // the place shown
  back: null, // the last place that was not the publish editor, where Cancel returns
  versions: null, // {app, type, list, summary}: the shown type's versions, newest first, and its index entry
  about: null, // [app, type] whose details the versions pane shows
  shownVersion: null,
  editor: null, // the open publish editor: {application, draftType, isEdited()}
};

const TAB_NAMES = { form: 'Form', json: 'JSON', text: 'Published text', changes: 'Changes', policy: 'Policy' };

/** Each place has its own title, so history entries and browser tabs tell them apart. */
function setTitle(...parts) {
  document.title = [...parts.filter(Boolean), 'Schema Registry'].join(' · ');
}

const CONTENT_VIEWS = ['status-view', 'version-view', 'publish-view', 'audit-view', 'search-view', 'webhooks-view', 'welcome-view'];

let sidebar = null;
let renderCount = 0;
let keepMessages = false; // set before a navigation that must keep the message just shown
let showError = null; // both set once by setUpWorkspace
let guarded = null;

const scope = () => document.body.dataset.scope ?? null;

/** Navigates and keeps the message shown (a navigation by the user clears messages). */
function goWithMessage(route, options) {
  keepMessages = true;
  navigate(route, options);
}

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

/** Renders `route`; does nothing while signed out (no applications). */
export async function render(route) {
  if (!state.applications.length) return;
  const mine = ++renderCount;
  const isCurrent = () => mine === renderCount;
  settle();
  if (route.view !== 'publish') state.editor = null;
  if (keepMessages) keepMessages = false;
  else clearMessages();
  if (!state.applications.some((app) => app.code === route.app)) {
    const fallback = state.applications.find((app) => app.code === session.application) ?? state.applications[0];
    if (route.app) {
      keepMessages = true;
      complain(`This token has no application “${route.app}”; showing ${fallback.code}.`);
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
  $('#search-link').href = hashOf({ app, view: 'search' });
  const webhooksLink = $('#webhooks-link');
  webhooksLink.href = hashOf({ app, view: 'webhooks' });
  if (route.view === 'webhooks') webhooksLink.setAttribute('aria-current', 'page');
  else webhooksLink.removeAttribute('aria-current');
  sidebar.mark(route.type);
  if (route.type === null) {
    state.versions = null; // coming back to a type loads it afresh
    state.about = null;
    show($('#versions-view'), false);
    if (route.view === 'publish') openPublish(route, []);
    else if (route.view === 'search') openSearch(route, isCurrent);
    else if (route.view === 'webhooks') openWebhooks(route, isCurrent);
    else {
      setTitle(`Types of ${app}`);
      showContent('welcome-view');
      focusHeading($('#types-pane'));
    }
    return;
  }
  const versions = await loadVersions(route, isCurrent);
  if (!isCurrent()) return;
  if (!versions.length && route.view !== 'publish') {
    setTitle(`${route.type} has no versions`);
    show($('#versions-view'), false);
    const disabled = state.versions?.summary?.states?.disabled ?? 0;
    focusHeading(explain(`${route.type} has no versions`, disabled
      ? `Its ${plural(disabled, 'version')} ${disabled === 1 ? 'is' : 'are'} disabled; an admin can restore them. `
      : ['It was deleted or never published in ', app, '. '],
    appLink(app, `Show the types of ${app}`), '.'));
    return;
  }
  if (versions.length) renderVersions(route, versions);
  else show($('#versions-view'), false);
  if (route.view === 'publish') openPublish(route, versions);
  else if (route.view === 'audit') openAudit(route, isCurrent);
  else openVersion(route, versions);
}

/** The type's versions (kept while the same type is shown); settles only for the current place. */
function loadVersions(route, isCurrent) {
  const cached = state.versions;
  if (cached && cached.app === route.app && cached.type === route.type) return Promise.resolve(cached.list);
  show($('#versions-view'), false);
  showContent('status-view');
  return new Promise((resolve) => {
    loadInto($('#status-view'), {
      label: 'Loading the versions…',
      context: `Could not load ${route.type}`,
      fetch: () => Promise.all([
        api.typeVersions(route.app, route.type, { includeDisabled: scope() === 'admin' }),
        // The index entry says which version `latest` is pinned to; without it nothing is pinned.
        api.typeSummary(route.app, route.type).catch((error) => { if (error.unauthenticated) throw error; return null; }),
      ]),
      isCurrent,
      onUnauthenticated: showError,
      render: ([list, summary]) => {
        state.versions = { app: route.app, type: route.type, list, summary };
        resolve(list);
      },
    });
  });
}

/** The pinned version of the shown type, or null. */
const pinned = () => state.versions?.summary?.latest_pin ?? null;

function renderVersions(route, versions) {
  const { app, type } = route;
  const current = route.view === 'type' ? versions[0].version : route.version;
  const latest = latestVersion(versions, pinned());
  $('#versions-title').replaceChildren(...wrappable(type), ` — ${plural(versions.length, 'version')}`);
  $('#versions-list').replaceChildren(...versions.map((schema, index) =>
    h('li', {},
      h('a', {
        class: 'version-button', href: hashOf({ app, type, version: schema.version }),
        dataset: { version: String(schema.version), state: schema.state ?? 'active' },
        'aria-current': (route.view === 'type' || route.view === 'version') && schema.version === current ? 'page' : false,
      },
      h('span', { class: 'version-number' }, `Version ${schema.version}`),
      index === 0 ? h('span', { class: 'badge' }, 'newest') : null,
      schema.version === latest ? h('span', { class: 'badge latest-badge' }, pinned() === latest ? 'latest (pinned)' : 'latest') : null,
      stateBadge(schema),
      h('span', { class: 'muted' }, 'created ', timeElement(schema.created)),
      stateLine(schema)))));
  const about = JSON.stringify([app, type]);
  if (state.about !== about) {
    state.about = about;
    renderTypeAbout($('#type-about'), { application: app, type, isCurrent: () => state.about === about, onUnauthenticated: showError });
  }
  const audit = $('#audit-link');
  audit.href = hashOf({ app, type, view: 'audit' });
  if (route.view === 'audit') audit.setAttribute('aria-current', 'page');
  else audit.removeAttribute('aria-current');
  show($('#versions-view'), true);
  markBreakingVersions($('#versions-list'), app, type, versions);
}

function openVersion(route, versions) {
  const { app, type } = route;
  const schema = route.version === null ? versions[0] : versions.find((candidate) => candidate.version === route.version);
  if (!schema) {
    setTitle(`${type} has no version ${route.version}`);
    focusHeading(explain(`${type} has no version ${route.version}`, 'It was deleted or never published. ',
      typeLink(app, type, `Show the newest version of ${type}`), '.'));
    return;
  }
  state.shownVersion = schema.version;
  renderVersionView($('#version-view'), {
    application: app, schema, versions, scope: scope(), latest: latestVersion(versions, pinned()), pin: pinned(),
    lifecycle: { run: (context, action) => guarded(context, action)(), onChanged: (result, message) => afterChange(schema, message, result) },
    onMetadataSaved: (message) => afterChange(schema, message),
    onDelete: guarded('Not deleted', deleteVersion), onUnauthenticated: showError,
  });
  showContent('version-view');
  if (route.tab && TAB_NAMES[route.tab]) $(`#version-view [role="tab"][data-tab="${CSS.escape(route.tab)}"]`)?.click();
  else if (route.tab) {
    complain(`This version has no tab “${route.tab}”; showing Form. The tabs are ${Object.values(TAB_NAMES).join(', ')}.`);
    state.route = { ...route, tab: null };
    describe(state.route);
  }
  setTitle(`${type} version ${schema.version}`, TAB_NAMES[state.route.tab] ?? 'Form');
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
  setTitle(`${route.type} version ${state.shownVersion}`, TAB_NAMES[tab]);
}

function openAudit(route, isCurrent) {
  if (scope() !== 'admin') {
    focusHeading(explain('The audit trail needs an admin token',
      `This token has scope ${scope() ?? 'unknown'}. `, typeLink(route.app, route.type, `Show ${route.type}`), '.'));
    return;
  }
  setTitle(`Audit trail of ${route.type}`);
  renderAuditView($('#audit-view'), { application: route.app, type: route.type, isCurrent, onUnauthenticated: showError });
  showContent('audit-view');
  focusHeading($('#audit-view'));
}

function openSearch(route, isCurrent) {
  const { app, query } = route;
  setTitle(query ? `Search “${query}”` : 'Search', app);
  renderSearchView($('#search-view'), {
    application: app, query, isCurrent, onUnauthenticated: showError,
    onSearch: (text) => navigate({ app, view: 'search', query: text }),
  });
  showContent('search-view');
  if (query) focusHeading($('#search-view'));
  else $('#search-words')?.focus();
}

function openWebhooks(route, isCurrent) {
  const { app } = route;
  if (scope() !== 'admin') {
    setTitle('Webhooks need an admin token');
    focusHeading(explain('Webhooks need an admin token',
      `This token has scope ${scope() ?? 'unknown'}: only an admin token sees and manages an application's webhooks. `,
      appLink(app, 'Back to the types'), '.'));
    return;
  }
  const place = (webhook, tab = null) => hashOf({ app, view: 'webhooks', webhook: webhook === null ? null : String(webhook), tab });
  renderWebhooksView($('#webhooks-view'), {
    application: app, route, isCurrent, onUnauthenticated: showError, setTitle, place,
    // A move after a change (created, saved, deleted) replaces the place it leaves and keeps its message.
    go: (webhook, tab = null, message = null) => {
      const target = { app, view: 'webhooks', webhook: webhook === null ? null : String(webhook), tab };
      if (!message) {
        navigate(target);
        return;
      }
      clearMessages();
      notify(message);
      goWithMessage(target, { replace: true });
    },
  });
  showContent('webhooks-view');
}

// --- changes: a version's state, the latest pin, metadata, delete, publish ----------------

/**
 * After a change of `schema` (its state, the pin, its labels): the versions and the type list
 * are read afresh and the version is shown again with `message` and, when the answer has it,
 * who reads it.
 */
function afterChange(schema, message, result) {
  const { attributes_type: type, version } = schema;
  const app = state.route.app;
  state.versions = null;
  sidebar.reload();
  clearMessages();
  notify(message, result?.usage ? usageSummary(result.usage, { days: null }) : null);
  goWithMessage({ app, type, version, tab: state.route.tab }, { replace: true });
}

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
    setTitle('Publishing needs a publish or admin token');
    focusHeading(explain('Publishing needs a publish or admin token',
      'This token has scope read: it can browse and check schemas, not publish them. ',
      back.type ? typeLink(app, back.type, `Back to ${back.type}`) : appLink(app, 'Back to the types'), '.'));
    return;
  }
  show($('#versions-view'), false);
  setTitle(type ? `Publish a new version of ${type}` : 'Publish a first schema');
  state.editor = renderPublishView($('#publish-view'), {
    application: app,
    types: sidebar.names(),
    attributesType: type ?? '',
    newest: versions[0] ?? null,
    versions,
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
  state.editor = null; // published: nothing left to lose
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

/**
 * Wires the workspace's controls once. `showError(error, context)` reports a failure (and
 * signs out on a rejected token); `guarded(context, action)` wraps an action with it.
 */
export function setUpWorkspace(options) {
  ({ showError, guarded } = options);
  sidebar = createSidebar({ onUnauthenticated: showError });
  $('#application-select').addEventListener('change', (event) => navigate({ app: event.target.value }));
  $('#new-schema').addEventListener('click', () => navigate({ app: state.route.app, view: 'publish' }));
  $('#new-version').addEventListener('click', () => navigate({ app: state.route.app, type: state.route.type, view: 'publish' }));
  $('#version-view').addEventListener('click', onVersionTab);
  $('#version-view').addEventListener('keyup', onVersionTab);
  guardLeaving(mayLeave);
  window.addEventListener('beforeunload', (event) => {
    if (!state.editor?.isEdited()) return;
    event.preventDefault(); // the draft is kept either way; the browser still asks
    event.returnValue = '';
  });
}

/** Leaving an edited editor asks first; the draft is kept unless the user discards it. */
async function mayLeave(route) {
  const editor = state.editor;
  if (!editor || !editor.isEdited() || !$('#publish-view') || $('#publish-view').hidden) return true;
  if (route.view === 'publish' && route.app === editor.application && (route.type ?? '') === editor.draftType) return true;
  const answer = await confirmLeave(editor.draftType);
  if (answer === 'stay') {
    $('#publish-schema')?.focus();
    return false;
  }
  if (answer === 'discard') drafts.remove(editor.application, editor.draftType);
  state.editor = null;
  return true;
}

/** The Sign out button: an edited editor asks first, as leaving it would (drafts go with the token). */
export async function confirmSignOut() {
  const editor = state.editor;
  if (!editor || !editor.isEdited() || $('#publish-view').hidden) return true;
  const answer = await confirmLeave(editor.draftType);
  if (answer === 'stay') return false;
  if (answer === 'discard') drafts.remove(editor.application, editor.draftType);
  state.editor = null;
  return true;
}

/** The applications the token may reach, in the picker; the next render shows one of them. */
export function openWorkspace(applications) {
  state.applications = applications;
  const select = $('#application-select');
  select.replaceChildren(...applications.map((app) =>
    h('option', { value: app.code }, app.name ? `${app.name} (${app.code})` : app.code)));
  select.disabled = applications.length === 0;
  show($('#types-pane'), applications.length > 0);
  if (!applications.length) {
    showContent(null);
    show($('#versions-view'), false);
  }
}

/** Forgets everything shown (signing out). */
export function closeWorkspace() {
  state.applications = [];
  state.versions = null;
  state.route = null;
  state.about = null;
  renderCount += 1;
  sidebar.reset();
}
