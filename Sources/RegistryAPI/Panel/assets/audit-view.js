// A type's audit trail (admin tokens only): who published or deleted which version, when,
// and what the publish accepted; newest first, a page at a time.

import { h, show, timeElement, wrappable } from './dom.js';
import { api } from './api.js';
import { loadInto } from './loading.js';
import { tokenName } from './token-status.js';

const PAGE_SIZE = 50;

const ACTIONS = {
  publish: 'Published', delete: 'Deleted', policy_change: 'Policy changed', import: 'Imported',
  application_create: 'Application created',
};

function actor(event) {
  if (event.actor === 'cli') return 'the command line (schema-registry admin)';
  return tokenName(event.token_id, event.token_name);
}

function eventItem(event) {
  const what = ACTIONS[event.action] ?? event.action;
  const details = event.details && Object.keys(event.details).length
    ? h('details', { class: 'audit-details' }, h('summary', {}, 'Details'),
      h('pre', { class: 'code small-print' }, JSON.stringify(event.details, null, 2)))
    : null;
  return h('li', { class: 'audit-event', dataset: { action: event.action, version: event.version ?? '' } },
    h('p', { class: 'audit-what' }, h('strong', {}, what), event.version !== null ? ` version ${event.version}` : ''),
    h('p', { class: 'muted small-print' }, timeElement(event.at), ' · by ', actor(event),
      event.request_id ? [' · request ', h('code', {}, event.request_id)] : null),
    details);
}

/** Fills `container` with the audit trail of `type` in `application`. */
export function renderAuditView(container, { application, type, isCurrent, onUnauthenticated }) {
  const list = h('ol', { class: 'audit-list', id: 'audit-list' });
  const status = h('div', { id: 'audit-status' });
  const more = h('button', { type: 'button', class: 'secondary small', id: 'audit-more', hidden: true }, 'Show older events');
  let nextPageToken = null;

  function load(append) {
    show(more, false);
    return loadInto(status, {
      label: 'Loading the audit trail…',
      context: 'Could not load the audit trail',
      fetch: () => api.auditEvents(application, { attributesType: type, pageSize: PAGE_SIZE, pageToken: append ? nextPageToken : undefined }),
      isCurrent,
      onUnauthenticated,
      render: (page) => {
        const events = page.audit_events ?? [];
        status.replaceChildren(list.children.length || events.length ? '' : h('p', { class: 'muted' }, 'No recorded changes.'));
        list.append(...events.map(eventItem));
        nextPageToken = page.next_page_token || null;
        show(more, nextPageToken !== null);
      },
    });
  }
  more.addEventListener('click', () => load(true));

  container.replaceChildren(
    h('h2', { id: 'audit-title' }, 'Audit trail of ', h('span', { class: 'type-title' }, wrappable(type))),
    h('p', { class: 'muted' }, 'Every publish and delete of this type, newest first. Only admin tokens see this. ',
      'Name tokens when issuing them (', h('code', {}, 'schema-registry admin issue-token --name …'), ') to tell them apart here.'),
    status, list, more);
  load(false);
}
