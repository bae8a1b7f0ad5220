// "Changes": this version against an earlier one (`…/{version}:diff?against=N`), field by
// field, breaking changes marked.

import { h, errorBox, plural } from './dom.js';
import { api } from './api.js';

const CHANGE_NAMES = {
  added: 'added', removed: 'removed', type: 'type changed', required: 'required changed', nullable: 'nullable changed',
  enum_values: 'allowed values changed', constraint: 'limit changed', format: 'format changed', encoding: 'date encoding changed',
};

/** `earlier` are the type's live versions older than `schema`, newest first. */
export function renderDiffView({ application, schema, earlier }) {
  if (!earlier.length) {
    return h('p', { class: 'muted', id: 'diff-none' }, `Version ${schema.version} is the oldest live version: there is nothing to compare it with.`);
  }
  const select = h('select', { id: 'diff-against', 'aria-describedby': 'diff-against-hint' },
    earlier.map((other, index) => h('option', { value: String(other.version) },
      `Version ${other.version}${index === 0 ? ' (previous)' : ''}`)));
  const result = h('div', { id: 'diff-result', 'aria-live': 'polite' });
  let sequence = 0;

  async function load() {
    const mine = ++sequence;
    const against = Number(select.value);
    result.replaceChildren(h('p', { class: 'check-status pending' }, 'Comparing…'));
    try {
      const diff = await api.diff(application, schema.attributes_type, schema.version, against);
      if (mine === sequence) result.replaceChildren(...changesTable(diff.changes ?? [], `version ${diff.against}`, `version ${diff.version}`));
    } catch (error) {
      if (mine === sequence) result.replaceChildren(errorBox(error, 'The versions could not be compared'));
    }
  }
  select.addEventListener('change', load);
  load();
  return h('div', { class: 'diff-view' },
    h('div', { class: 'field diff-select' },
      h('label', { for: 'diff-against' }, `Compare version ${schema.version} with`),
      select,
      h('p', { class: 'field-hint', id: 'diff-against-hint' }, 'Any earlier live version; breaking changes would make apps built against it fail.')),
    result);
}

/**
 * The changes `[{path, change, property?, old, new, breaking, reasons?}]` from `from` to `to`
 * ("version 2", "this draft") as a summary and a table, breaking changes marked.
 */
export function changesTable(changes, from, to, { id = 'diff' } = {}) {
  const breaking = changes.filter((change) => change.breaking).length;
  const summary = changes.length === 0
    ? h('p', { class: 'ok', id: `${id}-summary` }, `✓ No field changed between ${from} and ${to}.`)
    : h('p', { id: `${id}-summary`, class: breaking ? 'diff-breaking-summary' : 'ok' },
      `${plural(changes.length, 'change')} from ${from} to ${to}`,
      breaking ? `, ${breaking} breaking.` : ', none breaking.');
  if (!changes.length) return [summary];
  const heading = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  return [summary, h('div', {}, h('table', { class: 'diff-table', id: `${id}-table` },
    h('caption', { class: 'visually-hidden' }, `Changes from ${from} to ${to}`),
    h('thead', {}, h('tr', {},
      h('th', { scope: 'col' }, 'Field'), h('th', { scope: 'col' }, 'Change'),
      h('th', { scope: 'col' }, heading(from)), h('th', { scope: 'col' }, heading(to)))),
    h('tbody', {}, changes.map((change) => h('tr', { class: change.breaking ? 'breaking' : null, dataset: { path: change.path, change: change.change } },
      h('th', { scope: 'row' }, h('code', { class: 'path' }, change.path)),
      h('td', {},
        `${CHANGE_NAMES[change.change] ?? change.change}${change.property ? ` (${change.property.replaceAll('_', ' ')})` : ''}`,
        change.breaking ? [' ', h('span', { class: 'badge breaking-badge' }, 'breaking')] : null,
        change.reasons?.length ? h('ul', { class: 'reasons' }, change.reasons.map((reason) => h('li', {}, reason))) : null),
      h('td', { dataset: { label: heading(from) } }, shown(change.old, change.change === 'added')),
      h('td', { dataset: { label: heading(to) } }, shown(change.new, change.change === 'removed')))))))];
}

/**
 * A value as JSON, with a space after each comma and colon of a list or object, so a long list
 * of values wraps between them rather than inside a word.
 */
function shown(value, absent) {
  if (absent || value === undefined) return h('span', { class: 'muted' }, '—');
  if (value === null) return h('span', { class: 'muted' }, 'none');
  return h('code', {}, typeof value === 'string' ? value : spaced(value));
}

function spaced(value) {
  if (Array.isArray(value)) return `[${value.map(spaced).join(', ')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value).map(([key, member]) => `${JSON.stringify(key)}: ${spaced(member)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}
