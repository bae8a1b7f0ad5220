// A version's labels and release notes (for example the app build that ships it), shown on
// its page; with a publish token a form replaces them (PUT …/{version}/metadata). The schema
// itself never changes.

import { h, errorBox } from './dom.js';
import { api } from './api.js';
import { LIMITS, byteLength, labelBadges, labelsText, metadataField, parseLabels } from './metadata-text.js';

/** `onSaved(message)` is called after a save, to show the version afresh. */
export function renderVersionMetadata({ application, schema, onSaved, onUnauthenticated = () => {} }) {
  const container = h('section', { class: 'version-metadata', id: 'version-metadata', 'aria-label': 'Labels and release notes' });

  function show() {
    const hasLabels = Object.keys(schema.labels ?? {}).length > 0;
    container.replaceChildren(
      hasLabels ? labelBadges(schema.labels, 'version-labels') : '',
      schema.release_notes ? h('div', { class: 'release-notes', id: 'release-notes' },
        h('h3', {}, 'Release notes'), h('p', {}, schema.release_notes)) : '',
      h('button', { type: 'button', class: 'link needs-publish', id: 'version-metadata-edit', onclick: edit },
        hasLabels || schema.release_notes ? 'Edit labels and notes…' : 'Add labels or release notes…'));
  }

  function edit() {
    const labels = metadataField('version-labels-input', 'Labels', labelsText(schema.labels),
      'One key=value a line, e.g. app_version=2.3.1.', { multiline: true });
    const notes = metadataField('version-notes-input', 'Release notes', schema.release_notes,
      `What changed and which app build ships it (at most ${LIMITS.releaseNotes} bytes).`, { multiline: true, rows: 5 });
    const problem = h('div', { role: 'alert' });
    const form = h('form', { class: 'metadata-form', id: 'version-metadata-form', novalidate: true },
      h('h3', {}, `Labels and release notes of version ${schema.version}`),
      labels.field, notes.field, problem,
      h('div', { class: 'actions' },
        h('button', { type: 'submit', class: 'primary', id: 'version-metadata-save' }, 'Save'),
        h('button', { type: 'button', class: 'secondary', onclick: () => { show(); container.querySelector('#version-metadata-edit')?.focus(); } }, 'Cancel')));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const parsed = parseLabels(labels.control.value);
      const text = notes.control.value.trim();
      const refuse = parsed.problem ? [parsed.problem, labels.control]
        : byteLength(text) > LIMITS.releaseNotes ? [`The release notes are longer than ${LIMITS.releaseNotes} bytes.`, notes.control] : null;
      if (refuse) {
        problem.replaceChildren(h('p', { class: 'error-box' }, refuse[0]));
        refuse[1].focus();
        return;
      }
      const body = { labels: parsed.labels };
      if (text) body.release_notes = text;
      try {
        await api.setVersionMetadata(application, schema.attributes_type, schema.version, body);
        onSaved(`Saved the labels and release notes of version ${schema.version}.`);
      } catch (error) {
        if (error.unauthenticated) onUnauthenticated(error);
        else problem.replaceChildren(errorBox(error, 'Not saved'));
      }
    });
    container.replaceChildren(form);
    labels.control.focus();
  }

  show();
  return container;
}
