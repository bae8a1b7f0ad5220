// The form that subscribes a URL to an application's changes or changes a subscription: the
// events as checkboxes of the change feed's kinds, each problem beside the field it concerns in
// the form's words (the registry names fields `url`, `events`, …; a person sees their labels),
// and what is typed kept as a draft in the tab until it is saved.

import { h, errorBox, formatTimestamp, uniqueId } from './dom.js';
import { api } from './api.js';
import { webhookDrafts } from './drafts.js';
import { byteLength } from './metadata-text.js';

/** The change feed's kinds a subscription can ask for, in the words of the form. */
export const EVENT_KINDS = [
  ['published', 'A version is published'],
  ['deleted', 'A version is deleted'],
  ['state_changed', 'A version is deprecated, disabled or restored'],
  ['latest_pinned', 'A type’s “latest” is pinned or unpinned'],
  ['metadata_changed', 'Details, labels or release notes change'],
  ['policy_changed', 'A compatibility policy changes'],
];

export const eventWords = (kind) => EVENT_KINDS.find(([name]) => name === kind)?.[1] ?? kind;

/** The registry's limits (WebhookSettings), checked here so a problem shows before sending. */
const MAX_URL_BYTES = 2048;
const MAX_PREFIX_BYTES = 200;
const MAX_DESCRIPTION_BYTES = 1000;

const LABELS = {
  url: 'Receiver URL', events: 'Events', type_prefix: 'Only types whose name starts with',
  description: 'Description', enabled: 'Send events',
};

const sentenceStart = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function textField(id, label, hint, { multiline = false, type = 'text', value = '' } = {}) {
  const hintId = `${id}-hint`;
  const control = multiline
    ? h('textarea', { id, name: id, rows: 3, 'aria-describedby': hintId, spellcheck: 'true', value })
    : h('input', { id, name: id, type, 'aria-describedby': hintId, spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off', value });
  return { control, field: h('div', { class: 'field' }, h('label', { for: id }, label), control, h('p', { class: 'field-hint', id: hintId }, hint)) };
}

/**
 * Fills `container` with the form. `webhook` is the subscription to change, or null to create
 * one; `onSaved(answer)` gets `{webhook, secret}` after creating and `{webhook}` after changing.
 */
export function renderWebhookForm(container, { application, webhook = null, onSaved, onCancel, onUnauthenticated }) {
  const draftKey = webhook ? webhook.id : 'new';
  const start = {
    url: webhook?.url ?? '', events: webhook?.events ?? ['published', 'deleted'],
    type_prefix: webhook?.type_prefix ?? '', description: webhook?.description ?? '', enabled: webhook?.enabled ?? true,
  };
  const url = textField('webhook-url', LABELS.url,
    'Where the registry POSTs each event, e.g. https://ci.example.com/registry-hook. Plain http and private addresses only when the operator allows them.',
    { type: 'url' });
  const prefix = textField('webhook-prefix', LABELS.type_prefix,
    'Leave empty for every type; Flight sends FlightAttributes and FlightStatus. Letter case counts.');
  const description = textField('webhook-description', LABELS.description,
    'What the receiver does, for whoever reads this list next, e.g. CI rebuilds the clients.', { multiline: true });
  const boxes = EVENT_KINDS.map(([kind, words]) => {
    const id = `webhook-event-${kind}`;
    return h('div', { class: 'toggle-row' },
      h('input', { type: 'checkbox', id, name: 'events', value: kind }), h('label', { for: id }, words));
  });
  const eventsHintId = uniqueId('webhook-events-hint');
  const events = h('fieldset', { class: 'webhook-events', id: 'webhook-events', 'aria-describedby': eventsHintId },
    h('legend', {}, LABELS.events),
    h('p', { class: 'field-hint', id: eventsHintId }, 'Which changes are sent. A test event can be sent at any time.'),
    boxes);
  const enabled = h('input', { type: 'checkbox', id: 'webhook-enabled', name: 'enabled' });
  const enabledRow = h('div', { class: 'toggle-row webhook-enabled-row' }, enabled,
    h('label', { for: 'webhook-enabled' }, LABELS.enabled), h('span', { class: 'muted small-print' }, '(untick to pause it; events wait in the feed)'));
  const problem = h('div', { id: 'webhook-form-problem', role: 'alert' });
  const draftNote = h('div', {});
  const controls = { url: url.control, events, type_prefix: prefix.control, description: description.control, enabled };

  const form = h('form', { class: 'webhook-form', id: 'webhook-form', novalidate: true },
    draftNote, url.field, events, prefix.field, description.field, enabledRow, problem,
    h('div', { class: 'actions' },
      h('button', { type: 'submit', class: 'primary', id: 'webhook-save' }, webhook ? 'Save the changes' : 'Subscribe'),
      h('button', { type: 'button', class: 'secondary', id: 'webhook-cancel', onclick: onCancel }, 'Cancel')));

  const checkedEvents = () => boxes.map((row) => row.querySelector('input')).filter((box) => box.checked).map((box) => box.value);
  const typed = () => ({
    url: url.control.value, events: checkedEvents(), type_prefix: prefix.control.value,
    description: description.control.value, enabled: enabled.checked,
  });
  const fill = (fields) => {
    url.control.value = fields.url;
    for (const row of boxes) {
      const box = row.querySelector('input');
      box.checked = fields.events.includes(box.value);
    }
    prefix.control.value = fields.type_prefix;
    description.control.value = fields.description;
    enabled.checked = fields.enabled;
  };
  const isEdited = () => JSON.stringify(typed()) !== JSON.stringify(start);

  // --- problems beside their fields -----------------------------------------------------

  function clearProblems() {
    problem.replaceChildren();
    for (const note of form.querySelectorAll('.field-problem')) note.remove();
    for (const control of form.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
    for (const control of Object.values(controls)) {
      if (control.dataset.describedBy !== undefined) {
        control.setAttribute('aria-describedby', control.dataset.describedBy);
        delete control.dataset.describedBy;
      }
    }
  }

  /** Shows `text` under the field named `name` (a request field) and focuses it. */
  function markField(name, text) {
    const control = controls[name];
    const id = uniqueId('webhook-problem');
    const note = h('p', { class: 'field-problem error', id, dataset: { field: name } }, '✗ ', sentenceStart(text));
    control.dataset.describedBy = control.getAttribute('aria-describedby') ?? '';
    control.setAttribute('aria-describedby', `${control.dataset.describedBy} ${id}`.trim());
    if (control.tagName === 'FIELDSET') {
      control.querySelector(':scope > legend').after(note);
      control.querySelector('input').focus();
    } else {
      control.setAttribute('aria-invalid', 'true');
      control.closest('.field').append(note);
      control.focus();
    }
  }

  /** The problems the registry would find, in the form's words: [[field, text]]. */
  function localProblems(fields) {
    const found = [];
    const address = fields.url.trim();
    if (!address) found.push(['url', 'enter the address the registry sends events to, e.g. https://ci.example.com/registry-hook']);
    else if (byteLength(address) > MAX_URL_BYTES) found.push(['url', `is ${byteLength(address)} bytes long; the registry takes at most ${MAX_URL_BYTES}`]);
    if (!fields.events.length) found.push(['events', 'tick at least one event']);
    if (byteLength(fields.type_prefix) > MAX_PREFIX_BYTES) {
      found.push(['type_prefix', `is ${byteLength(fields.type_prefix)} bytes long; the registry takes at most ${MAX_PREFIX_BYTES}`]);
    }
    if (byteLength(fields.description) > MAX_DESCRIPTION_BYTES) {
      found.push(['description', `is ${byteLength(fields.description)} bytes long; the registry takes at most ${MAX_DESCRIPTION_BYTES}`]);
    }
    return found;
  }

  /** A refusal of the registry: beside its field when it names one (`url: must be https`), else below the form. */
  function showRefusal(error) {
    const { path, text } = error.pathAndText;
    const name = path === 'typePrefix' ? 'type_prefix' : path;
    if (name && controls[name]) markField(name, text);
    else problem.replaceChildren(errorBox(error, webhook ? 'Not saved' : 'Not subscribed'));
  }

  // --- the draft ------------------------------------------------------------------------

  function keepDraft() {
    if (isEdited()) webhookDrafts.save(application, draftKey, typed());
    else webhookDrafts.remove(application, draftKey);
  }

  function discardDraft() {
    webhookDrafts.remove(application, draftKey);
    fill(start);
    draftNote.replaceChildren();
    clearProblems();
    url.control.focus();
  }

  fill(start);
  const draft = webhookDrafts.get(application, draftKey);
  if (draft) {
    fill({ ...start, ...draft });
    draftNote.replaceChildren(h('div', { class: 'notice draft-restored', id: 'webhook-draft-restored', role: 'status' },
      h('p', {}, h('strong', {}, 'Your unsaved draft is back'), draft.saved ? ` (last typed ${formatTimestamp(draft.saved)}).` : '.'),
      h('button', { type: 'button', class: 'link', id: 'webhook-draft-discard', onclick: discardDraft }, 'Discard the draft and start again')));
  }
  form.addEventListener('input', keepDraft);
  form.addEventListener('change', keepDraft);

  // --- saving ---------------------------------------------------------------------------

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearProblems();
    const fields = typed();
    const found = localProblems(fields);
    if (found.length) {
      for (const [name, text] of found.toReversed()) markField(name, text); // the first one keeps the focus
      return;
    }
    const settings = { ...fields, url: fields.url.trim() };
    const save = form.querySelector('#webhook-save');
    save.disabled = true;
    try {
      const answer = webhook
        ? { webhook: await api.updateWebhook(application, webhook.id, settings) }
        : await api.createWebhook(application, settings);
      webhookDrafts.remove(application, draftKey);
      onSaved(answer);
    } catch (error) {
      if (error.unauthenticated) onUnauthenticated(error);
      else showRefusal(error);
    } finally {
      save.disabled = false;
    }
  });

  container.replaceChildren(form);
  url.control.focus();
  return { isEdited };
}
