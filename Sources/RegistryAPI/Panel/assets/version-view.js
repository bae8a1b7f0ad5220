// The version view: header, then tabs "Form", "JSON" and "Published text".

import { h, errorBox, timeElement } from './dom.js';
import { api } from './api.js';
import { renderForm } from './form-render.js';
import { highlightedJSON } from './json-text.js';

/**
 * Fills `container` with `schema` (a Schema object of the API). The form is fetched from
 * GET …/form; a failure there shows as a message in the Form tab only.
 */
export function renderVersionView(container, { application, schema, onDelete }) {
  const { attributes_type: attributesType, version } = schema;
  const formPanel = h('div', { class: 'loading' }, 'Loading the form…');
  api.form(application, attributesType, version)
    .then((form) => formPanel.replaceChildren(renderForm(form)))
    .catch((error) => formPanel.replaceChildren(errorBox(error, 'The form could not be loaded')))
    .finally(() => formPanel.classList.remove('loading'));

  const size = new TextEncoder().encode(schema.json_schema).length;
  container.replaceChildren(
    h('div', { class: 'view-head' },
      h('h2', { id: 'version-title' }, attributesType, ' ', h('span', { class: 'version-tag' }, `version ${version}`)),
      h('button', { type: 'button', class: 'danger small', id: 'delete-version', onclick: () => onDelete(schema) },
        `Delete version ${version}…`)),
    h('p', { class: 'muted' }, 'Published ', timeElement(schema.created), ` · ${size} bytes`),
    tabs('version-tabs', [
      { id: 'form', label: 'Form', panel: formPanel },
      { id: 'json', label: 'JSON', panel: h('pre', { class: 'code json-view', tabindex: 0 }, highlightedJSON(schema.json_schema)) },
      { id: 'text', label: 'Published text', panel: publishedText(schema.json_schema) },
    ]));
}

function publishedText(text) {
  const pre = h('pre', { class: 'code raw-view', tabindex: 0 }, text);
  const status = h('span', { class: 'muted', role: 'status' });
  const copy = h('button', {
    type: 'button', class: 'secondary small',
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(text);
        status.textContent = 'Copied.';
      } catch {
        window.getSelection().selectAllChildren(pre);
        status.textContent = 'Selected: press Ctrl+C to copy.';
      }
    },
  }, 'Copy');
  return h('div', {}, h('p', { class: 'muted' }, 'Exactly as published, byte for byte. ', copy, ' ', status), pre);
}

/** Accessible tabs (WAI-ARIA pattern): arrow keys, Home and End move between tabs. */
function tabs(name, items) {
  const list = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Show the version as' });
  const panels = [];
  const buttons = items.map((item, index) => {
    const tabId = `${name}-${item.id}-tab`;
    const panelId = `${name}-${item.id}`;
    panels.push(h('div', { id: panelId, class: 'tab-panel', role: 'tabpanel', 'aria-labelledby': tabId, tabindex: 0, hidden: index > 0 },
      item.panel));
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
