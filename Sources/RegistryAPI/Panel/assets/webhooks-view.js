// An application's webhooks (admin tokens only): the list of subscriptions — where, which
// events, for which types, whether each is failing or disabled and when it tries again — and
// the places under it: subscribing a URL, one subscription's page, its form.

import { h, focusHeading } from './dom.js';
import { api } from './api.js';
import { loadInto } from './loading.js';
import { eventWords, renderWebhookForm } from './webhook-form.js';
import { prefixWords, renderWebhookPage, revealOnce, webhookState } from './webhook-page.js';

function subscriptionItem(webhook, href) {
  const { badge, line } = webhookState(webhook);
  return h('li', { class: 'webhook-item', dataset: { webhook: String(webhook.id), enabled: String(webhook.enabled) } },
    h('p', { class: 'webhook-url' }, h('a', { href, class: 'webhook-link' }, webhook.url), ' ', badge),
    h('p', { class: 'small-print' }, webhook.events.map(eventWords).join(' · '), ' — of ', prefixWords(webhook.type_prefix)),
    webhook.description ? h('p', { class: 'muted small-print webhook-description' }, webhook.description) : null,
    line);
}

/**
 * Fills `container` with the webhooks place `route` names. `place(webhook, tab)` is the address
 * of a place (null: the list), `go(webhook, tab, message)` moves there keeping `message`, and
 * `setTitle(...parts)` names the view.
 */
export function renderWebhooksView(container, { application, route, isCurrent, onUnauthenticated, place, go, setTitle }) {
  const heading = (text) => h('h2', { id: 'webhooks-title' }, text);

  if (route.webhook === null) {
    setTitle('Webhooks', application);
    const status = h('div', { id: 'webhooks-status' });
    container.replaceChildren(
      h('div', { class: 'view-head' }, heading(`Webhooks of ${application}`),
        h('a', { class: 'button-link primary small', id: 'webhook-new', href: place('new') }, 'Subscribe a URL…')),
      h('p', { class: 'muted' }, 'The registry POSTs each change of this application to these URLs, signed per ',
        'Standard Webhooks, retried for a day when the receiver fails. Only admin tokens see this.'),
      status);
    loadInto(status, {
      label: 'Loading the webhooks…',
      context: 'Could not load the webhooks',
      fetch: () => api.webhooks(application),
      isCurrent,
      onUnauthenticated,
      render: (webhooks) => status.replaceChildren(webhooks.length
        ? h('ul', { class: 'webhook-list', id: 'webhook-list' }, webhooks.map((webhook) => subscriptionItem(webhook, place(webhook.id))))
        : h('p', { class: 'muted', id: 'webhooks-empty' }, 'No subscriptions yet. Subscribe a URL to have changes pushed to it.')),
    });
    focusHeading(container);
    return;
  }

  if (route.webhook === 'new') {
    setTitle('Subscribe a URL', application);
    const body = h('div', {});
    container.replaceChildren(
      h('p', { class: 'small-print' }, h('a', { href: place(null) }, '← All webhooks')),
      heading('Subscribe a URL to the changes of ' + application), body);
    renderWebhookForm(body, {
      application, onUnauthenticated,
      onCancel: () => go(null),
      onSaved: ({ webhook, secret }) => {
        revealOnce(application, webhook.id, secret);
        go(webhook.id, null, `Subscribed ${webhook.url}. A test event shows whether the receiver verifies the signature.`);
      },
    });
    return;
  }

  const id = route.webhook;
  const editing = route.tab === 'edit';
  setTitle(editing ? `Edit webhook ${id}` : `Webhook ${id}`, application);
  const status = h('div', { id: 'webhook-status' });
  container.replaceChildren(status);
  loadInto(status, {
    label: 'Loading the webhook…',
    context: `Could not load webhook ${id}`,
    fetch: () => api.webhook(application, id),
    isCurrent,
    onUnauthenticated,
    render: (webhook) => {
      if (editing) {
        const body = h('div', {});
        container.replaceChildren(
          h('p', { class: 'small-print' }, h('a', { href: place(id) }, `← Webhook ${id}`)),
          heading(`Edit webhook ${id}`), body);
        renderWebhookForm(body, {
          application, webhook, onUnauthenticated,
          onCancel: () => go(id),
          onSaved: () => go(id, null, 'Saved the changes.'),
        });
        return;
      }
      renderWebhookPage(container, {
        application, webhook, isCurrent, onUnauthenticated,
        editHref: place(id, 'edit'), listHref: place(null),
        reload: (message) => go(id, null, message),
        onDeleted: (message) => go(null, null, message),
      });
      const secret = container.querySelector('#webhook-secret-title');
      if (secret) {
        secret.tabIndex = -1;
        secret.focus();
      } else focusHeading(container);
    },
  });
}
