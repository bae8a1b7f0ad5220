// The version view: header with its state and lifecycle buttons, the deprecation or disabling,
// labels and release notes, the warnings publishing gave (stored with the version; the
// compatibility report too when it was published in this tab), then tabs "Form" (with "Try
// values"), "JSON", "Published text", "Changes" and "Policy".

import { h, append, errorBox, timeElement } from './dom.js';
import { api } from './api.js';
import { renderForm } from './form-render.js';
import { highlightedJSON } from './json-text.js';
import { renderTryValues } from './try-values.js';
import { renderDiffView } from './diff-view.js';
import { renderPolicyView } from './policy-view.js';
import { compatibilityReport, warningList } from './compat-report.js';
import { publishedReport } from './publish-report.js';
import { copyButton } from './copy-button.js';
import { stateBadge, stateNotice } from './version-states.js';
import { stateActions } from './state-actions.js';
import { renderVersionMetadata } from './version-metadata.js';

/**
 * Fills `container` with `schema` (a Schema object of the API). `versions` are the type's live
 * versions, newest first (fetched when not given); `scope` is the token's (read, publish,
 * admin); `latest` is the version `latest` answers and `pin` the pinned one (or null). The form
 * is fetched from GET …/form; a failure there shows as a message in the Form tab only.
 * `lifecycle` is `{run, onChanged}` for the state and pin buttons (state-actions.js) and
 * `onMetadataSaved(message)` follows a save of the labels and notes.
 */
export function renderVersionView(container, {
  application, schema, versions, scope, latest = null, pin = null, lifecycle, onMetadataSaved, onDelete, onUnauthenticated = () => {},
}) {
  const { attributes_type: attributesType, version } = schema;
  const formPanel = h('div', { class: 'loading' }, 'Loading the form…');
  api.form(application, attributesType, version)
    .then((form) => {
      const formElement = renderForm(form);
      formPanel.replaceChildren(formElement, renderTryValues({ application, schema, form, formElement, onUnauthenticated }));
    })
    .catch((error) => {
      if (error.unauthenticated) onUnauthenticated(error);
      formPanel.replaceChildren(errorBox(error, 'The form could not be loaded'));
    })
    .finally(() => formPanel.classList.remove('loading'));

  const changesPanel = () => {
    const panel = h('div', {}, h('p', { class: 'muted' }, 'Loading the versions…'));
    Promise.resolve(versions ?? api.typeVersions(application, attributesType))
      .then((list) => panel.replaceChildren(
        renderDiffView({ application, schema, earlier: list.filter((other) => other.version < version) })))
      .catch((error) => panel.replaceChildren(errorBox(error, 'The versions could not be listed')));
    return panel;
  };

  const size = new TextEncoder().encode(schema.json_schema).length;
  container.replaceChildren();
  append(container, [
    h('div', { class: 'view-head' },
      h('h2', { id: 'version-title' }, attributesType, ' ', h('span', { class: 'version-tag' }, `version ${version}`)),
      h('div', { class: 'pane-actions' },
        lifecycle ? stateActions({ application, schema, pin, onUnauthenticated, ...lifecycle }) : null,
        h('button', { type: 'button', class: 'danger small', id: 'delete-version', onclick: () => onDelete(schema) },
          `Delete version ${version}…`))),
    h('p', { class: 'muted version-facts', id: 'version-facts' },
      [stateBadge(schema), latest === version ? h('span', { class: 'badge latest-badge' }, pin === version ? 'latest (pinned)' : 'latest') : null]
        .filter(Boolean).flatMap((badge) => [badge, ' ']),
      'Published ', timeElement(schema.created), ` · ${size} bytes`),
    stateNotice(schema),
    onMetadataSaved ? renderVersionMetadata({ application, schema, onSaved: onMetadataSaved, onUnauthenticated }) : null,
    publishReport(schema),
    tabs('version-tabs', [
      { id: 'form', label: 'Form', panel: formPanel },
      { id: 'json', label: 'JSON', panel: h('pre', { class: 'code json-view', tabindex: 0 }, highlightedJSON(schema.json_schema)) },
      { id: 'text', label: 'Published text', panel: publishedText(schema.json_schema) },
      { id: 'changes', label: 'Changes', panel: changesPanel },
      { id: 'policy', label: 'Policy', panel: () => renderPolicyView({ application, attributesType, scope, onUnauthenticated }) },
    ]),
  ]);
}

/**
 * What the registry said when this version was published: the warnings stored with it (so a
 * reload or a colleague sees them), and the compatibility report when it was published in this
 * tab (the registry does not store that one).
 */
function publishReport(schema) {
  const result = publishedReport(schema);
  const stored = schema.warnings?.length ? schema.warnings : null;
  const warnings = stored ?? result?.warnings;
  if (!result && !warnings?.length) return null;
  return h('section', {
    class: 'publish-report', id: 'publish-report', 'aria-labelledby': 'publish-report-title',
    dataset: { warnings: stored ? 'stored' : result?.warnings?.length ? 'this-tab' : 'none' },
  },
  h('h3', { id: 'publish-report-title' }, 'When it was published'),
  result ? compatibilityReport(result.compatibility, schema.attributes_type) : null,
  warningList(warnings, 'publish-report-warnings'));
}

function publishedText(text) {
  return h('div', {},
    h('div', { class: 'label-row' }, h('span', { class: 'muted' }, 'Exactly as published, byte for byte.'), copyButton(() => text)),
    h('pre', { class: 'code raw-view', tabindex: 0 }, text));
}

/**
 * Accessible tabs (WAI-ARIA pattern): arrow keys, Home and End move between tabs. A panel given
 * as a function is built when its tab is first shown, so a version opened only to read its
 * form asks the registry for nothing else.
 */
function tabs(name, items) {
  const list = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Show the version as' });
  const panels = [];
  const buttons = items.map((item, index) => {
    const tabId = `${name}-${item.id}-tab`;
    const panelId = `${name}-${item.id}`;
    panels.push(h('div', { id: panelId, class: 'tab-panel', role: 'tabpanel', 'aria-labelledby': tabId, tabindex: 0, hidden: index > 0 },
      typeof item.panel === 'function' ? null : item.panel));
    return h('button', {
      type: 'button', id: tabId, role: 'tab', 'aria-controls': panelId, dataset: { tab: item.id },
      onclick: () => select(index), onkeydown: (event) => keys(event, index),
    }, item.label);
  });
  function select(index, focus = false) {
    buttons.forEach((button, i) => {
      button.setAttribute('aria-selected', String(i === index));
      button.tabIndex = i === index ? 0 : -1;
      panels[i].hidden = i !== index;
    });
    const lazy = items[index].panel;
    if (typeof lazy === 'function' && !panels[index].hasChildNodes()) panels[index].append(lazy());
    if (focus) buttons[index].focus();
  }
  function keys(event, index) {
    const last = buttons.length - 1;
    const target = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(target, true);
  }
  list.append(...buttons);
  select(0);
  return h('div', { class: 'tabbed' }, list, panels);
}
