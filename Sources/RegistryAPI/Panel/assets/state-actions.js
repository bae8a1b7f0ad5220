// The version page's lifecycle buttons: Deprecate, Disable (admin), Restore, and pinning the
// type's `latest` to this version or unpinning it. Each opens a dialog that shows who still
// reads the version (or the type) first, then asks what the change needs (a message, a
// reason), then calls the registry. Buttons a token's scope cannot use are hidden by CSS
// (needs-publish, admin-only); the registry still refuses them.

import { h, uniqueId } from './dom.js';
import { api } from './api.js';
import { confirmChange } from './dialogs.js';
import { stateOf } from './version-states.js';
import { usagePanel } from './usage-view.js';

const MAX_TEXT_BYTES = 1024;
const bytes = (text) => new TextEncoder().encode(text).length;

/** A labelled textarea or input for the dialog: `{field, control}`. */
function textField({ id, label, hint, required = false, type = null, rows = 3 }) {
  const hintId = uniqueId('hint');
  const control = type
    ? h('input', { id, type, 'aria-describedby': hintId })
    : h('textarea', { id, rows, required, 'aria-describedby': hintId, spellcheck: 'true' });
  return {
    control,
    field: h('div', { class: 'field' },
      h('label', { for: id }, label, required ? [' ', h('span', { class: 'req', 'aria-hidden': 'true' }, '*')] : null),
      control, h('p', { class: 'field-hint', id: hintId }, hint)),
  };
}

/** A problem for a required text field (empty or too long), or null. */
function textProblem(control, what) {
  const text = control.value.trim();
  if (!text) return { message: `Enter ${what}.`, field: control };
  if (bytes(text) > MAX_TEXT_BYTES) return { message: `${what[0].toUpperCase()}${what.slice(1)} is ${bytes(text)} bytes; at most ${MAX_TEXT_BYTES} are kept.`, field: control };
  return null;
}

/**
 * The buttons for `schema`. `pin` is the type's pinned version (or null); `run(context,
 * action)` performs a change and reports its failure; `onChanged(result, message)` shows the
 * change made.
 */
export function stateActions({ application, schema, pin, run, onChanged, onUnauthenticated }) {
  const { attributes_type: type, version } = schema;
  const state = stateOf(schema);
  const versionUsage = () => usagePanel(() => api.versionUsage(application, type, version), { onUnauthenticated });
  const typeUsage = () => usagePanel(() => api.typeUsage(application, type), { title: `Who reads ${type}`, onUnauthenticated });
  const refocus = (id) => document.getElementById(id)?.focus();

  async function deprecate() {
    const message = textField({ id: 'deprecate-message', label: 'Message to its readers', required: true,
      hint: 'Why, and what to use instead, e.g. “Use version 4: it adds the gate.” Shown with every answer about it.' });
    const sunset = textField({ id: 'deprecate-sunset', label: 'Sunset date (optional)', type: 'date',
      hint: 'The day (UTC) apps should stop reading it; sent as the Sunset header.' });
    const confirmed = await confirmChange({
      title: `Deprecate ${type} version ${version}?`, usage: versionUsage(),
      body: [h('p', {}, 'It stays readable; answers about it say it is deprecated, and ', h('code', {}, 'latest'),
        ' skips it while another version is live.')],
      fields: [message.field, sunset.field], confirmLabel: `Deprecate version ${version}`,
      check: () => textProblem(message.control, 'a message'),
    });
    if (!confirmed) {
      refocus('deprecate-version');
      return;
    }
    const body = { message: message.control.value.trim(), sunset: sunset.control.value ? `${sunset.control.value}T00:00:00Z` : undefined };
    await run('Not deprecated', async () => onChanged(await api.deprecate(application, type, version, body),
      `Deprecated ${type} version ${version}.`));
  }

  async function disable() {
    const reason = textField({ id: 'disable-reason', label: 'Reason', required: true,
      hint: 'Why it is withdrawn; admins see it in the 404 readers get.' });
    const confirmed = await confirmChange({
      title: `Disable ${type} version ${version}?`, usage: versionUsage(), danger: true,
      body: [h('p', {}, 'Every read of it answers 404 from now on, on every replica; forms and checks refuse it. ',
        'Its number stays taken, and Restore brings it back unchanged.')],
      fields: [reason.field], confirmLabel: `Disable version ${version}`,
      check: () => textProblem(reason.control, 'a reason'),
    });
    if (!confirmed) {
      refocus('disable-version');
      return;
    }
    await run('Not disabled', async () => onChanged(await api.disable(application, type, version, { reason: reason.control.value.trim() }),
      `Disabled ${type} version ${version}.`));
  }

  async function restore() {
    const confirmed = await confirmChange({
      title: `Restore ${type} version ${version}?`, usage: versionUsage(),
      body: [h('p', {}, `It is ${state} now. Restored, it is active again: served without warnings, and `,
        h('code', {}, 'latest'), ' may answer it again if it is the newest.')],
      confirmLabel: `Restore version ${version}`,
    });
    if (!confirmed) {
      refocus('restore-version');
      return;
    }
    await run('Not restored', async () => onChanged(await api.restore(application, type, version),
      `Restored ${type} version ${version}: it is active again.`));
  }

  async function pinLatest() {
    const confirmed = await confirmChange({
      title: `Pin latest of ${type} to version ${version}?`, usage: typeUsage(),
      body: [h('p', {}, h('code', {}, 'latest'), ` answers version ${version} until it is unpinned, even after newer versions are published: a rollback without deleting.`)],
      confirmLabel: `Pin latest to version ${version}`,
    });
    if (!confirmed) {
      refocus('pin-latest');
      return;
    }
    await run('Not pinned', async () => onChanged(await api.pinLatest(application, type, version),
      `Pinned latest of ${type} to version ${version}.`));
  }

  async function unpinLatest() {
    const confirmed = await confirmChange({
      title: `Unpin latest of ${type}?`, usage: typeUsage(),
      body: [h('p', {}, h('code', {}, 'latest'), ` answers version ${version} now. Unpinned, it answers the newest active version.`)],
      confirmLabel: 'Unpin latest',
    });
    if (!confirmed) {
      refocus('unpin-latest');
      return;
    }
    await run('Not unpinned', async () => onChanged(await api.unpinLatest(application, type), `Unpinned latest of ${type}.`));
  }

  const button = (id, text, onclick, className = 'secondary small needs-publish') =>
    h('button', { type: 'button', id, class: className, onclick }, text);
  return h('div', { class: 'state-actions', id: 'state-actions' },
    state === 'active' ? button('deprecate-version', 'Deprecate…', deprecate) : null,
    state !== 'active' ? button('restore-version', 'Restore…', restore) : null,
    state !== 'disabled' ? button('disable-version', 'Disable…', disable, 'secondary small admin-only') : null,
    pin === version ? button('unpin-latest', 'Unpin latest…', unpinLatest)
      : state !== 'disabled' ? button('pin-latest', 'Pin as latest…', pinLatest) : null);
}
