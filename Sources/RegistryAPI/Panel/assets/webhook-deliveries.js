// A subscription's delivery log: every attempt, newest first, a page at a time — when, which
// event, what the receiver answered, how long it took, the error and the first bytes of the
// answer — and a button on each feed event that sends it again with its webhook-id.

import { h, plural, timeElement } from './dom.js';
import { api } from './api.js';
import { loadInto } from './loading.js';
import { eventWords } from './webhook-form.js';

const PAGE_SIZE = 20;
const WATCH_TRIES = 20; // after a test or a redelivery, the log is read again up to this many times
const WATCH_MS = 1000;

const answerWords = (delivery) => (delivery.status ? `HTTP ${delivery.status}` : 'no answer');

function attempt(delivery, onRedeliver) {
  const cursor = delivery.cursor; // null for a test event, which no feed event stands behind
  const outcome = delivery.succeeded
    ? h('span', { class: 'badge delivery-ok' }, '✓ Delivered')
    : h('span', { class: 'badge delivery-failed' }, '✗ Failed');
  return h('li', { class: 'delivery', dataset: { delivery: String(delivery.id), succeeded: String(delivery.succeeded) } },
    h('p', { class: 'delivery-head' }, outcome, ' ', h('strong', {}, answerWords(delivery)),
      h('span', { class: 'muted' }, ` in ${delivery.latency_ms} ms · `, timeElement(delivery.at))),
    h('p', { class: 'small-print' }, delivery.type === 'test' ? 'Test event' : eventWords(delivery.type),
      ' · ', h('code', { class: 'delivery-id' }, delivery.webhook_id)),
    delivery.error ? h('p', { class: 'delivery-error small-print' }, 'Error: ', delivery.error) : null,
    delivery.response
      ? h('div', { class: 'delivery-answer' }, h('p', { class: 'muted small-print' }, 'The answer began with:'),
        h('pre', { class: 'code small-print' }, delivery.response))
      : null,
    cursor ? h('button', {
      type: 'button', class: 'secondary small redeliver-one', dataset: { cursor },
      'aria-label': `Send again: ${delivery.webhook_id}`, onclick: () => onRedeliver(cursor, delivery.webhook_id),
    }, 'Send again') : null);
}

/**
 * The log of `webhook` as an element, with `reload()` (the newest page again) and `watch()`
 * (reads it again every second until a new attempt shows, for a queued test or redelivery).
 * `onRedeliver(cursor, webhookId)` sends one event again.
 */
export function deliveryLog({ application, webhook, isCurrent, onUnauthenticated, onRedeliver }) {
  const list = h('ol', { class: 'delivery-list', id: 'delivery-list' });
  const status = h('div', { id: 'delivery-status' });
  const count = h('p', { class: 'muted small-print', id: 'delivery-count', role: 'status' });
  const more = h('button', { type: 'button', class: 'secondary small', id: 'delivery-more', hidden: true }, 'Show older attempts');
  const refresh = h('button', { type: 'button', class: 'secondary small', id: 'delivery-refresh' }, 'Refresh');
  let nextPageToken = null;
  let newest = null; // id of the newest attempt shown
  let watching = 0;

  function load(append) {
    more.hidden = true;
    return loadInto(status, {
      label: 'Loading the delivery log…',
      context: 'Could not load the delivery log',
      fetch: () => api.webhookDeliveries(application, webhook.id, { pageSize: PAGE_SIZE, pageToken: append ? nextPageToken : undefined }),
      isCurrent: () => isCurrent() && list.isConnected,
      onUnauthenticated,
      render: (page) => {
        const deliveries = page.deliveries ?? [];
        if (!append) {
          list.replaceChildren();
          newest = deliveries[0]?.id ?? null;
        }
        list.append(...deliveries.map((delivery) => attempt(delivery, onRedeliver)));
        status.replaceChildren(list.children.length ? '' : h('p', { class: 'muted', id: 'delivery-empty' },
          'No attempts yet: events committed from now on, and test events, show here once sent.'));
        count.textContent = list.children.length ? `${plural(list.children.length, 'attempt')} shown, newest first.` : '';
        nextPageToken = page.next_page_token || null;
        more.hidden = nextPageToken === null;
      },
    });
  }

  /** Reads the log again every second until a new attempt shows; a later watch() replaces it. */
  async function watch() {
    const before = newest;
    const mine = ++watching;
    const stillWanted = () => mine === watching && list.isConnected && isCurrent();
    for (let i = 0; i < WATCH_TRIES; i += 1) {
      await new Promise((resolve) => { setTimeout(resolve, WATCH_MS); });
      if (!stillWanted()) return;
      await load(false);
      if (newest !== before) return;
    }
  }

  more.addEventListener('click', () => load(true));
  refresh.addEventListener('click', () => load(false));
  const element = h('section', { class: 'delivery-log', 'aria-labelledby': 'delivery-title' },
    h('div', { class: 'pane-head' }, h('h3', { id: 'delivery-title' }, 'Delivery log'), refresh),
    h('p', { class: 'muted small-print' }, 'Every attempt, newest first (the registry keeps the newest 1000). ',
      'A failing event is retried with growing waits and holds the events behind it.'),
    count, status, list, more);
  load(false);
  return { element, reload: () => load(false), watch };
}
