// The panel's entry point. State lives here; the views are rendered by their own modules.

import { $, h, show, errorBox, focusHeading, timeElement, plural } from './dom.js';
import { api, session } from './api.js';
import { renderVersionView } from './version-view.js';
import { markBreakingVersions } from './version-badges.js';
import { renderPublishView, compatibilityReport } from './publish-view.js';
import { confirmDelete } from './dialogs.js';
import { prettyJSON } from './json-text.js';

const state = {
  applications: [],
  schemas: [], // every version of the application: types in byte order, newest version first
  type: null,
  version: null,
};

const CONTENT_VIEWS = ['version-view', 'publish-view', 'welcome-view'];

const application = () => session.application;
const typeNames = () => [...new Set(state.schemas.map((schema) => schema.attributes_type))];
const versionsOf = (type) => state.schemas.filter((schema) => schema.attributes_type === type);

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

// --- signing in and out -------------------------------------------------------------------

function showSignIn(reason) {
  state.applications = [];
  state.schemas = [];
  show($('#workspace'), false);
  show($('#session-bar'), false);
  show($('#sign-in-view'), true);
  if (reason) dismissible($('#errors'), h('div', { class: 'error-box' }, h('p', {}, reason)));
  const input = $('#token-input');
  input.value = '';
  input.focus();
}

function signOut(reason) {
  session.clear();
  $('#messages').replaceChildren();
  $('#errors').replaceChildren();
  showSignIn(reason);
  if (!reason) notify('Signed out. The token was removed from this tab.');
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
  await enterWorkspace();
}

/** Loads the token's applications and shows the workspace. */
async function enterWorkspace() {
  try {
    state.applications = await api.applications();
  } catch (error) {
    if (error.unauthenticated) {
      session.clear();
      showSignIn(`That API token was not accepted: ${error.message}.`);
    } else {
      showError(error, 'Could not load the applications');
    }
    return;
  }
  show($('#sign-in-view'), false);
  show($('#session-bar'), true);
  show($('#workspace'), true);
  const select = $('#application-select');
  select.replaceChildren(...state.applications.map((app) =>
    h('option', { value: app.code }, app.name ? `${app.name} (${app.code})` : app.code)));
  if (!state.applications.length) {
    select.disabled = true;
    showContent(null);
    show($('#versions-view'), false);
    $('#types-list').replaceChildren();
    dismissible($('#errors'), h('div', { class: 'error-box' }, h('p', {},
      'This account has no applications yet. Create one with ', h('code', {}, 'schema-registry admin create-application'), '.')));
    return;
  }
  select.disabled = false;
  const saved = state.applications.find((app) => app.code === session.application);
  await selectApplication((saved ?? state.applications[0]).code);
  focusHeading($('#types-pane'));
}

// --- application, types and versions ------------------------------------------------------

async function selectApplication(code) {
  session.application = code;
  $('#application-select').value = code;
  state.type = null;
  state.version = null;
  await reloadSchemas();
}

/** Reloads the list and selects `type`/`version` (or keeps the selection when possible). */
async function reloadSchemas({ type = state.type, version = null } = {}) {
  $('#workspace').setAttribute('aria-busy', 'true');
  try {
    state.schemas = await api.schemas(application());
  } finally {
    $('#workspace').removeAttribute('aria-busy');
  }
  const types = typeNames();
  renderTypes();
  if (type && types.includes(type)) selectType(type, version);
  else if (types.length) selectType(types[0]);
  else {
    state.type = null;
    state.version = null;
    show($('#versions-view'), false);
    showContent('welcome-view');
  }
}

function renderTypes() {
  const types = typeNames();
  show($('#types-empty'), types.length === 0);
  $('#types-list').replaceChildren(...types.map((type) => {
    const versions = versionsOf(type);
    return h('li', {},
      h('button', {
        type: 'button', class: 'type-button', dataset: { type }, 'aria-current': type === state.type ? 'true' : false,
        onclick: () => { clearMessages(); selectType(type); focusHeading($('#versions-view')); },
      },
      h('span', { class: 'type-name' }, type),
      h('span', { class: 'muted' }, `${plural(versions.length, 'version')} · newest ${versions[0].version}`)));
  }));
}

function selectType(type, version = null) {
  state.type = type;
  renderTypes();
  const versions = versionsOf(type);
  const wanted = versions.find((schema) => schema.version === version) ?? versions[0];
  openVersion(wanted.version);
}

function renderVersions() {
  const versions = versionsOf(state.type);
  $('#versions-title').textContent = `${state.type} — ${plural(versions.length, 'version')}`;
  $('#versions-list').replaceChildren(...versions.map((schema, index) =>
    h('li', {},
      h('button', {
        type: 'button', class: 'version-button', dataset: { version: String(schema.version) },
        'aria-current': schema.version === state.version ? 'true' : false,
        onclick: () => { clearMessages(); openVersion(schema.version); focusHeading($('#version-view')); },
      },
      h('span', { class: 'version-number' }, `Version ${schema.version}`),
      index === 0 ? h('span', { class: 'badge' }, 'newest') : null,
      h('span', { class: 'muted' }, 'created ', timeElement(schema.created))))));
  show($('#versions-view'), true);
  markBreakingVersions($('#versions-list'), application(), state.type, versions);
}

function openVersion(version) {
  state.version = version;
  renderVersions();
  const schema = versionsOf(state.type).find((candidate) => candidate.version === version);
  renderVersionView($('#version-view'), {
    application: application(), schema, versions: versionsOf(state.type),
    onDelete: guarded('Not deleted', deleteVersion), onUnauthenticated: (error) => showError(error),
  });
  showContent('version-view');
}

function showContent(id) {
  for (const view of CONTENT_VIEWS) show($(`#${view}`), view === id);
}

// --- delete and publish -------------------------------------------------------------------

async function deleteVersion(schema) {
  const { attributes_type: type, version } = schema;
  if (!(await confirmDelete(type, version))) {
    $('#delete-version')?.focus();
    return;
  }
  await api.remove(application(), type, version);
  clearMessages();
  notify(`Deleted ${type} version ${version} permanently.`);
  await reloadSchemas({ type });
  focusHeading($('#types-pane'));
}

function openPublish(type) {
  clearMessages();
  const newest = type ? versionsOf(type)[0] : null;
  show($('#versions-view'), false);
  renderPublishView($('#publish-view'), {
    application: application(),
    types: typeNames(),
    attributesType: type ?? '',
    schemaText: newest ? prettyJSON(newest.json_schema) : undefined,
    onCancel: () => {
      if (state.type) openVersion(state.version);
      else showContent('welcome-view');
      $('#new-schema').focus();
    },
    onPublished: guarded('Published, but the list could not be reloaded', onPublished),
    onUnauthenticated: (error) => showError(error),
  });
  showContent('publish-view');
  $('#publish-type').focus();
}

async function onPublished(result) {
  const { attributes_type: type, version } = result.schema;
  clearMessages();
  const compatibility = result.compatibility;
  const findings = compatibility?.compatible === false
    ? (compatibility.groups?.filter((group) => group.new) ?? compatibility.problems ?? []) : [];
  notify(`Published ${type} version ${version}.`, findings.length
    ? h('details', { class: 'findings' },
      h('summary', {}, `It has ${plural(findings.length, 'compatibility finding')} against earlier versions.`),
      compatibilityReport(result.compatibility, type))
    : null);
  await reloadSchemas({ type, version });
  focusHeading($('#version-view'));
}

// --- start --------------------------------------------------------------------------------

function start() {
  $('#sign-in-form').addEventListener('submit', guarded('Could not sign in', onSignIn));
  $('#sign-out').addEventListener('click', () => signOut());
  $('#application-select').addEventListener('change', guarded('Could not load the schemas', async (event) => {
    clearMessages();
    await selectApplication(event.target.value);
  }));
  $('#new-schema').addEventListener('click', () => openPublish(null));
  $('#new-version').addEventListener('click', () => openPublish(state.type));
  if (session.token) guarded('Could not load the panel', enterWorkspace)();
  else showSignIn();
}

start();
