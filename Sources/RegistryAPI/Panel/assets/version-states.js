// A version's state as people read it: `active`, `deprecated` (still served, with a message and
// maybe a sunset date) or `disabled` (withdrawn: readers get 404). Lists show a badge and the
// deprecation in one line; the version page shows the whole notice. `latest` follows the
// registry's rule: the pinned version, else the newest active one, else the newest deprecated
// one, never a disabled one.

import { h, timeElement } from './dom.js';

export const stateOf = (schema) => schema?.state ?? 'active';

const WORDS = { deprecated: 'deprecated', disabled: 'disabled' };

/** "deprecated" or "disabled" as a badge; nothing for an active version. */
export function stateBadge(schema) {
  const state = stateOf(schema);
  if (!WORDS[state]) return null;
  return h('span', { class: `badge state-badge state-${state}`, dataset: { state } }, WORDS[state]);
}

/** The version number `latest` answers for these versions (newest first), or null. */
export function latestVersion(versions, pin) {
  const live = versions.filter((schema) => stateOf(schema) !== 'disabled');
  if (pin !== null && pin !== undefined && live.some((schema) => schema.version === pin)) return pin;
  return (live.find((schema) => stateOf(schema) === 'active') ?? live[0])?.version ?? null;
}

/** "by token 7 · 2026-12-01 10:00:00 UTC" of a state change, when the registry says. */
function changedBy(change) {
  if (!change?.at && !change?.by) return null;
  return h('p', { class: 'muted small-print' }, change.by ? `By ${change.by}` : 'Changed', change.at ? [' · ', timeElement(change.at)] : null);
}

/** One line for a version list: the deprecation's message and sunset. */
export function stateLine(schema) {
  const state = stateOf(schema);
  if (state === 'deprecated') {
    const { message, sunset } = schema.deprecation ?? {};
    return h('span', { class: 'state-line deprecated' }, 'Deprecated', message ? `: ${message}` : '',
      sunset ? [' · sunset ', timeElement(sunset)] : null);
  }
  if (state === 'disabled') {
    const reason = schema.disabled?.reason;
    return h('span', { class: 'state-line disabled' }, 'Disabled', reason ? `: ${reason}` : '');
  }
  return null;
}

/** The version page's notice: what the state means for readers, why, by whom and when. */
export function stateNotice(schema) {
  const state = stateOf(schema);
  if (state === 'deprecated') {
    const change = schema.deprecation ?? {};
    return h('div', { class: 'warning-box state-notice', id: 'state-notice', dataset: { state } },
      h('p', {}, h('strong', {}, '⚠ Deprecated. '), change.message ?? ''),
      h('p', {}, change.sunset
        ? ['Sunset ', timeElement(change.sunset), ': apps should stop reading it by then. ']
        : 'No sunset date. ',
      'It is still served; answers about it carry a Deprecation header, and checks and previews warn.'),
      changedBy(change));
  }
  if (state === 'disabled') {
    const change = schema.disabled ?? {};
    return h('div', { class: 'error-box state-notice', id: 'state-notice', dataset: { state } },
      h('p', {}, h('strong', {}, '⛔ Disabled. '), change.reason ?? ''),
      h('p', {}, 'Readers get 404 for it, checks and forms refuse it; its number stays taken. Restore brings it back.'),
      changedBy(change));
  }
  return null;
}
