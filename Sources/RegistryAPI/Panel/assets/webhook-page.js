// One webhook subscription: what it sends where, whether it is failing and why, its signing
// secret once (after creating or rotating; the registry never shows it again), its actions —
// test event, enable or disable, rotate the secret, delete — redelivery since a cursor, and its
// delivery log.

import { $, append, h, plural, timeElement, uniqueId } from './dom.js';
import { api } from './api.js';
import { confirmAction, confirmChange } from './dialogs.js';
import { copyButton } from './copy-button.js';
import { complain, notify, reportFailure } from './messages.js';
import { deliveryLog } from './webhook-deliveries.js';
import { eventWords } from './webhook-form.js';

/** A secret to show once: `{application, id, secret, rotated}`, set before navigating to its page. */
let revealed = null;

/** Keeps `secret` for the next rendering of the subscription's page only (memory, never storage). */
export function revealOnce(application, id, secret, { rotated = false } = {}) {
  revealed = { application, id: String(id), secret, rotated };
}

function takeRevealed(application, id) {
  const found = revealed && revealed.application === application && revealed.id === String(id) ? revealed : null;
  revealed = null;
  return found;
}

/** Enabled, disabled (and why) or failing (how often, and when it tries again): a badge and a line. */
export function webhookState(webhook) {
  if (!webhook.enabled) {
    return {
      badge: h('span', { class: 'badge webhook-disabled' }, 'Disabled'),
      line: webhook.disabled_reason
        ? h('p', { class: 'webhook-reason small-print' }, 'Disabled by the registry: ', webhook.disabled_reason, '. Enable it to resume with the event that held it.')
        : h('p', { class: 'muted small-print' }, 'Disabled: no events are sent. Enable it to resume with the next undelivered event.'),
    };
  }
  if (webhook.failures > 0) {
    return {
      badge: h('span', { class: 'badge webhook-failing' }, 'Failing'),
      line: h('p', { class: 'webhook-reason small-print' },
        `The event at the head of its queue failed ${plural(webhook.failures, 'time')} in a row; next attempt `,
        timeElement(webhook.next_attempt_at), '.'),
    };
  }
  return { badge: h('span', { class: 'badge webhook-enabled' }, 'Enabled'), line: null };
}

export const prefixWords = (prefix) => (prefix ? ['types whose name starts with ', h('code', {}, prefix)] : 'every type');

function secretBox(shown, webhook) {
  const hide = () => {
    box.replaceChildren(h('p', { class: 'muted', id: 'webhook-secret-hidden' }, 'The secret is hidden. Lost it? Rotate it to get a new one.'));
    $('#webhook-rotate')?.focus();
  };
  const box = h('section', { class: 'secret-box', id: 'webhook-secret', 'aria-labelledby': 'webhook-secret-title' },
    h('h3', { id: 'webhook-secret-title' }, shown.rotated ? 'The new signing secret: copy it now' : 'The signing secret: copy it now'),
    h('p', {}, h('strong', {}, 'You will not see this secret again.'),
      ' The registry keeps it only to sign deliveries and never shows it; store it where your receiver reads it (for example as WEBHOOK_SECRET).'),
    shown.rotated && webhook.previous_secret_until
      ? h('p', { class: 'small-print' }, 'The old secret keeps signing beside it until ', timeElement(webhook.previous_secret_until), '.')
      : null,
    h('div', { class: 'label-row' }, h('span', { class: 'muted' }, 'Secret:'), copyButton(() => shown.secret, 'Copy the secret')),
    h('pre', { class: 'code secret-text', id: 'webhook-secret-text' }, shown.secret),
    h('button', { type: 'button', class: 'secondary small', id: 'webhook-secret-hide', onclick: hide }, 'I have stored it: hide the secret'));
  return box;
}

function facts(webhook) {
  const row = (term, ...definition) => [h('dt', {}, term), h('dd', {}, ...definition)];
  return h('dl', { class: 'webhook-facts', id: 'webhook-facts' },
    row('Receiver URL', h('code', { id: 'webhook-facts-url' }, webhook.url)),
    row('Events', h('ul', { class: 'webhook-event-list' }, webhook.events.map((kind) => h('li', {}, eventWords(kind))))),
    row('Of', prefixWords(webhook.type_prefix)),
    webhook.description ? row('Description', webhook.description) : null,
    webhook.previous_secret_until ? row('Old secret signs until', timeElement(webhook.previous_secret_until)) : null,
    row('Created', timeElement(webhook.created)),
    row('Changed', timeElement(webhook.updated)));
}

const GRACE_CHOICES = [
  [3600, 'one hour'], [86400, 'one day'], [604800, 'seven days'], [0, 'no time: only the new secret signs from now on'],
];

/**
 * Fills `container` with the subscription `webhook`. `reload(message)` shows it afresh (after
 * a change), `onDeleted()` leaves for the list, `editHref` is the address of its form.
 */
export function renderWebhookPage(container, { application, webhook, editHref, listHref, isCurrent, onUnauthenticated, reload, onDeleted }) {
  const shown = takeRevealed(application, webhook.id);
  const { badge, line } = webhookState(webhook);

  /** Runs an action of the page; a refusal shows as a message, a 401 signs out. */
  const act = (context, action) => async () => {
    try {
      await action();
    } catch (error) {
      if (error.unauthenticated) onUnauthenticated(error);
      else reportFailure(error, context);
    }
  };

  const log = deliveryLog({
    application, webhook, isCurrent, onUnauthenticated,
    onRedeliver: (cursor, webhookId) => act('Not sent again', async () => {
      await api.redeliverWebhook(application, webhook.id, { event: cursor });
      notify(`Queued ${webhookId} again; it is sent with the same webhook-id, so a receiver that saw it can tell.`);
      log.watch();
    })(),
  });

  const sendTest = act('The test event was not queued', async () => {
    const answer = await api.testWebhook(application, webhook.id);
    notify('Queued a test event (', h('code', {}, answer.webhook_id), '). It shows in the delivery log once sent.');
    log.watch();
  });

  const toggle = act(webhook.enabled ? 'Not disabled' : 'Not enabled', async () => {
    const changed = await api.updateWebhook(application, webhook.id, { enabled: !webhook.enabled });
    reload(changed.enabled ? 'Enabled: events are sent again, starting with the oldest undelivered one.'
      : 'Disabled: no events are sent until it is enabled again; they wait in the feed.');
  });

  const rotate = act('The secret was not rotated', async () => {
    const graceId = uniqueId('webhook-grace');
    const grace = h('select', { id: graceId },
      GRACE_CHOICES.map(([seconds, words]) => h('option', { value: String(seconds), selected: seconds === 86400 }, words)));
    const confirmed = await confirmChange({
      title: 'Rotate the signing secret?',
      usage: h('p', {}, 'A new secret is issued and shown once. ',
        h('strong', {}, 'The old secret keeps signing during the grace period:'),
        ' every delivery then carries two signatures, so receivers can switch to the new secret without missing one.'),
      fields: [h('div', { class: 'field' }, h('label', { for: graceId }, 'The old secret keeps signing for'), grace)],
      confirmLabel: 'Rotate the secret',
    });
    if (!confirmed) {
      $('#webhook-rotate')?.focus();
      return;
    }
    const answer = await api.rotateWebhookSecret(application, webhook.id, Number(grace.value));
    revealOnce(application, webhook.id, answer.secret, { rotated: true });
    reload('Rotated the signing secret.');
  });

  const remove = act('Not deleted', async () => {
    const confirmed = await confirmAction('Delete the subscription?', [
      h('p', {}, 'This deletes the subscription of ', h('code', {}, webhook.url), ' and its delivery log. ',
        'No more events are sent to it. It cannot be undone.')], 'Delete the subscription', { danger: true });
    if (!confirmed) {
      $('#webhook-delete')?.focus();
      return;
    }
    await api.deleteWebhook(application, webhook.id);
    onDeleted(`Deleted the subscription of ${webhook.url} and its delivery log.`);
  });

  const sinceId = 'webhook-since';
  const since = h('input', { id: sinceId, name: 'since', type: 'text', spellcheck: 'false', autocapitalize: 'off', autocomplete: 'off', 'aria-describedby': `${sinceId}-hint` });
  const sinceProblem = h('div', { role: 'alert', id: 'webhook-since-problem' });
  const redeliverSince = h('form', { class: 'webhook-since', id: 'webhook-since-form', novalidate: true },
    h('h3', {}, 'Send everything since a cursor again'),
    h('div', { class: 'field' }, h('label', { for: sinceId }, 'Feed cursor'), since,
      h('p', { class: 'field-hint', id: `${sinceId}-hint` },
        'The cursor field of a delivered event, or a cursor of /api/changes. Every matching event after it is sent again, in order, each with its original webhook-id.')),
    sinceProblem,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'secondary', id: 'webhook-since-send' }, 'Send again since this cursor')));
  redeliverSince.addEventListener('submit', async (event) => {
    event.preventDefault();
    sinceProblem.replaceChildren();
    since.removeAttribute('aria-invalid');
    const cursor = since.value.trim();
    const refuse = (text) => {
      sinceProblem.replaceChildren(h('p', { class: 'field-problem error' }, '✗ ', text));
      since.setAttribute('aria-invalid', 'true');
      since.focus();
    };
    if (!cursor) {
      refuse('Enter a feed cursor, e.g. the cursor field of the last event your receiver handled.');
      return;
    }
    const confirmed = await confirmAction('Send these events again?', [
      h('p', {}, 'Every event after ', h('code', {}, cursor), ' that this subscription matches is sent again, in order. ',
        'Receivers that dedupe by webhook-id ignore the ones they handled.')], 'Send them again');
    if (!confirmed) {
      $('#webhook-since-send')?.focus();
      return;
    }
    try {
      await api.redeliverWebhook(application, webhook.id, { since: cursor });
      notify('Queued every event after that cursor again.');
      log.watch();
    } catch (error) {
      if (error.unauthenticated) onUnauthenticated(error);
      else {
        const { path, text } = error.pathAndText;
        // `since: not a cursor issued by this service` reads as a sentence about the field.
        if (path === 'since') refuse(`The cursor ${text.startsWith('not ') ? `is ${text}` : text}. Copy the cursor field of a delivered event, or one of /api/changes.`);
        else complain(error.message);
      }
    }
  });

  const button = (id, text, onclick, className = 'secondary small') => h('button', { type: 'button', id, class: className, onclick }, text);
  container.replaceChildren();
  append(container, [
    h('p', { class: 'small-print' }, h('a', { href: listHref, id: 'webhook-back' }, '← All webhooks')),
    h('div', { class: 'view-head' },
      h('h2', { id: 'webhooks-title' }, `Webhook ${webhook.id}`, ' ', badge)),
    line,
    shown ? secretBox(shown, webhook) : null,
    facts(webhook),
    h('div', { class: 'actions webhook-actions' },
      h('a', { class: 'button-link secondary small', id: 'webhook-edit', href: editHref }, 'Edit…'),
      button('webhook-test', 'Send a test event', sendTest),
      button('webhook-toggle', webhook.enabled ? 'Disable' : 'Enable', toggle),
      button('webhook-rotate', 'Rotate the secret…', rotate),
      button('webhook-delete', 'Delete…', remove, 'danger small')),
    log.element,
    redeliverSince]);
  return { secretShown: Boolean(shown) };
}
