// Labels and links as people type them: one `key=value` a line, one `name https://…` a line;
// the registry's bounds checked before sending, each problem naming its line.

import { h } from './dom.js';

export const LIMITS = { labels: 32, labelValueBytes: 256, links: 8, description: 4096, owner: 256, releaseNotes: 8192 };
const LABEL_KEY = /^[a-z0-9][a-z0-9_.-]{0,62}$/;

export const byteLength = (text) => new TextEncoder().encode(text).length;

const lines = (text) => text.split('\n').map((line) => line.trim()).filter(Boolean);

export const labelsText = (labels) => Object.entries(labels ?? {}).map(([key, value]) => `${key}=${value}`).join('\n');

export const linksText = (links) => (links ?? []).map((link) => (link.name ? `${link.name} ${link.url}` : link.url)).join('\n');

/** `{labels}` or `{problem}` for the text of a labels box. */
export function parseLabels(text) {
  const labels = {};
  for (const line of lines(text)) {
    const at = line.indexOf('=');
    const key = at < 0 ? line : line.slice(0, at).trim();
    if (at < 0) return { problem: `“${line}” has no “=”: write each label as key=value.` };
    if (!LABEL_KEY.test(key)) return { problem: `The label key “${key}” must start with a lower-case letter or digit and use only a–z, 0–9, “_”, “.” and “-” (at most 63).` };
    const value = line.slice(at + 1).trim();
    if (byteLength(value) > LIMITS.labelValueBytes) return { problem: `The value of label ${key} is longer than ${LIMITS.labelValueBytes} bytes.` };
    if (Object.hasOwn(labels, key)) return { problem: `The label ${key} is given twice.` };
    labels[key] = value;
  }
  if (Object.keys(labels).length > LIMITS.labels) return { problem: `At most ${LIMITS.labels} labels.` };
  return { labels };
}

/** `{links}` or `{problem}`: the last word of a line is the address, the words before its name. */
export function parseLinks(text) {
  const links = [];
  for (const line of lines(text)) {
    const words = line.split(/\s+/);
    const url = words.pop();
    if (!/^https:\/\/\S+$/.test(url)) return { problem: `“${line}” does not end with an https:// address.` };
    links.push({ name: words.join(' ') || url, url });
  }
  if (links.length > LIMITS.links) return { problem: `At most ${LIMITS.links} links.` };
  return { links };
}

/** `team=checkout` badges, or null without labels. */
export function labelBadges(labels, id) {
  const entries = Object.entries(labels ?? {});
  if (!entries.length) return null;
  return h('ul', { class: 'label-list', id, 'aria-label': 'Labels' },
    entries.map(([key, value]) => h('li', { class: 'badge label-badge', dataset: { key } }, `${key}=${value}`)));
}

/** A labelled text field for the metadata forms: `{field, control}`. */
export function metadataField(id, label, value, hint, { multiline = false, rows = 3 } = {}) {
  const hintId = `${id}-hint`;
  const control = multiline
    ? h('textarea', { id, rows, value: value ?? '', 'aria-describedby': hintId, spellcheck: 'true' })
    : h('input', { id, type: 'text', value: value ?? '', 'aria-describedby': hintId, spellcheck: 'false' });
  return { control, field: h('div', { class: 'field' }, h('label', { for: id }, label), control, h('p', { class: 'field-hint', id: hintId }, hint)) };
}
