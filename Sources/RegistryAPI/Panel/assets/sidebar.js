// The sidebar's type list: one page of the type index at a time, a search box that narrows it
// by prefix (debounced, so typing a name sends one request), "Show more" for the next page.

import { $, h, show, debounce, plural, wrappable } from './dom.js';
import { api } from './api.js';
import { loadInto } from './loading.js';
import { hashOf } from './router.js';

const PAGE_SIZE = 100;
const SEARCH_DELAY_MS = 250;

/** `onUnauthenticated(error)` is called when the token is rejected while loading. */
export function createSidebar({ onUnauthenticated }) {
  const list = $('#types-list');
  const status = $('#types-status');
  const more = $('#types-more');
  const search = $('#type-search');
  let application = null;
  let current = null;
  let nextPageToken = null;
  let generation = 0;

  function entry(summary) {
    const type = summary.attributes_type;
    return h('li', {},
      h('a', {
        class: 'type-button', href: hashOf({ app: application, type }), title: type, dataset: { type },
        'aria-current': type === current ? 'page' : false,
      },
      h('span', { class: 'type-name' }, wrappable(type)),
      h('span', { class: 'muted' }, `${plural(summary.live_versions, 'version')} · newest ${summary.newest_version}`)));
  }

  function load({ append = false } = {}) {
    const mine = ++generation;
    const prefix = search.value;
    if (!append) {
      list.replaceChildren();
      nextPageToken = null;
    }
    show(more, false);
    show($('#types-empty'), false);
    return loadInto(status, {
      label: append ? 'Loading more types…' : 'Loading the types…',
      context: 'Could not load the types',
      fetch: () => api.types(application, { prefix, pageSize: PAGE_SIZE, pageToken: append ? nextPageToken : undefined }),
      isCurrent: () => mine === generation,
      onUnauthenticated,
      render: (page) => {
        status.replaceChildren();
        list.dataset.prefix = prefix; // what the list shows, for a reader waiting on a search
        list.append(...(page.types ?? []).map(entry));
        nextPageToken = page.next_page_token || null;
        show(more, nextPageToken !== null);
        const empty = $('#types-empty');
        empty.textContent = prefix ? `No type starts with “${prefix}”.` : 'No schemas published yet.';
        show(empty, list.children.length === 0);
      },
    });
  }

  const searchSoon = debounce(() => load(), SEARCH_DELAY_MS);
  search.addEventListener('input', searchSoon);
  more.addEventListener('click', () => load({ append: true }));

  return {
    /** Shows the types of `code` (the search box is cleared when the application changes). */
    open(code) {
      if (code !== application) search.value = '';
      application = code;
      searchSoon.cancel();
      return load();
    },
    /** Reloads the list after a change (publish, delete), keeping the search. */
    reload() {
      searchSoon.cancel();
      return load();
    },
    /** Forgets the list (signing out), so the next sign-in loads it afresh. */
    reset() {
      generation += 1;
      searchSoon.cancel();
      application = null;
      search.value = '';
      list.replaceChildren();
      status.replaceChildren();
    },
    get application() { return application; },
    /** Marks `type` as the one shown (aria-current), or none. */
    mark(type) {
      current = type;
      for (const link of list.querySelectorAll('.type-button')) {
        if (link.dataset.type === type) link.setAttribute('aria-current', 'page');
        else link.removeAttribute('aria-current');
      }
    },
    /** The names listed now, for the publish form's suggestions. */
    names() {
      return [...list.querySelectorAll('.type-button')].map((link) => link.dataset.type);
    },
  };
}
