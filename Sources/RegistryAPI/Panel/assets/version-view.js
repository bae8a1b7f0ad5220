// The version view: header, what publishing reported (when it happened in this tab), then
// tabs "Form" (with "Try values"), "JSON", "Published text", "Changes" and "Policy".

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

/**
 * Fills `container` with `schema` (a Schema object of the API). `versions` are the type's live
 * versions, newest first (fetched when not given); `scope` is the token's (read, publish, admin). The form is fetched from GET …/form; a
 * failure there shows as a message in the Form tab only.
 */
export function renderVersionView(container, { application, schema, versions, scope, onDelete, onUnauthenticated = () => {} }) {
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
      h('button', { type: 'button', class: 'danger small', id: 'delete-version', onclick: () => onDelete(schema) },
        `Delete version ${version}…`)),
    h('p', { class: 'muted' }, 'Published ', timeElement(schema.created), ` · ${size} bytes`),
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

/** What the registry answered when this version was published in this tab. */
function publishReport(schema) {
  const result = publishedReport(schema);
  if (!result) return null;
  return h('section', { class: 'publish-report', id: 'publish-report', 'aria-labelledby': 'publish-report-title' },
    h('h3', { id: 'publish-report-title' }, 'When it was published'),
    compatibilityReport(result.compatibility, schema.attributes_type),
    warningList(result.warnings, 'publish-report-warnings'));
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
