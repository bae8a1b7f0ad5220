// The sidebar's type list. The application's whole type index is read once (pages of 1,000,
// at most MAX_TYPES names) and shown a hundred at a time; the search box narrows it as you
// type, case-insensitively, to the names that contain the text anywhere. Enter opens the first
// match, ↓ and ↑ move through the list; the type shown is always revealed in it.

import { $, h, show, debounce, plural, wrappable } from './dom.js';
import { api } from './api.js';
import { loadInto } from './loading.js';
import { hashOf } from './router.js';
import { nameMarks } from './name-marks.js';

const PAGE_SIZE = 100; // names shown per "Show more types"
const FETCH_PAGE_SIZE = 1000; // the index's largest page
const MAX_TYPES = 20000; // read at most this many names
const SEARCH_DELAY_MS = 150;

/** Lower case for comparing what is typed with names; the names themselves stay as they are. */
const folded = (text) => String(text).toLowerCase();

/** "2 deprecated", "1 disabled" and "latest pinned to 3" badges of a type, or null. */
function typeStates(summary) {
  const deprecated = summary.states?.deprecated ?? 0;
  const disabled = summary.states?.disabled ?? 0;
  const pin = summary.latest_pin ?? null;
  if (!deprecated && !disabled && pin === null) return null;
  return h('span', { class: 'type-states' },
    deprecated ? h('span', { class: 'badge state-badge state-deprecated', dataset: { state: 'deprecated' } }, `${deprecated} deprecated`) : null,
    disabled ? h('span', { class: 'badge state-badge state-disabled', dataset: { state: 'disabled' } }, `${disabled} disabled`) : null,
    pin !== null ? h('span', { class: 'badge latest-badge', dataset: { pin: String(pin) } }, `latest pinned to ${pin}`) : null);
}

/** `onUnauthenticated(error)` is called when the token is rejected while loading. */
export function createSidebar({ onUnauthenticated }) {
  const list = $('#types-list');
  const status = $('#types-status');
  const more = $('#types-more');
  const search = $('#type-search');
  let application = null;
  let current = null;
  let all = null; // every summary of the application, in the index's (byte) order
  let truncated = false;
  let shownCount = PAGE_SIZE;
  let generation = 0;

  function entry(summary) {
    const type = summary.attributes_type;
    return h('li', {},
      h('a', {
        class: 'type-button', href: hashOf({ app: application, type }), title: type, dataset: { type },
        'aria-current': type === current ? 'page' : false,
      },
      h('span', { class: 'type-name' }, wrappable(type)),
      nameMarks(type),
      h('span', { class: 'muted' }, `${plural(summary.live_versions, 'version')} · newest ${summary.newest_version}`),
      typeStates(summary)));
  }

  const query = () => search.value;
  const matches = () => {
    const text = folded(query());
    return text ? all.filter((summary) => folded(summary.attributes_type).includes(text)) : all;
  };

  /** Draws the list for the search text; keeps the type shown within the names drawn. */
  function draw() {
    if (!all) return;
    const found = matches();
    const at = current === null ? -1 : found.findIndex((summary) => summary.attributes_type === current);
    if (at >= shownCount) shownCount = Math.ceil((at + 1) / PAGE_SIZE) * PAGE_SIZE;
    list.replaceChildren(...found.slice(0, shownCount).map(entry));
    list.dataset.prefix = query(); // what the list shows, for a reader waiting on a search
    show(more, found.length > shownCount);
    more.textContent = found.length > shownCount ? `Show more types (${found.length - shownCount} more)` : 'Show more types';
    const empty = $('#types-empty');
    empty.replaceChildren(...(query()
      ? [`No type contains “${query()}”. `,
        h('a', { href: hashOf({ app: application, view: 'search', query: query().trim() }), id: 'types-empty-search' },
          'Search descriptions, owners and fields for it'), '.']
      : ['No schemas published yet.']));
    show(empty, found.length === 0);
    status.replaceChildren(truncated ? h('p', { class: 'muted small-print' }, `Only the first ${MAX_TYPES} types are searched.`) : '');
    if (at >= 0) reveal();
  }

  /** Scrolls the list (not the page) to the type shown. */
  function reveal() {
    const link = [...list.querySelectorAll('.type-button')].find((element) => element.dataset.type === current);
    if (link && list.scrollHeight > list.clientHeight) {
      const top = link.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - link.offsetHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
  }

  async function fetchAll() {
    const summaries = [];
    let pageToken;
    do {
      const page = await api.types(application, { pageSize: FETCH_PAGE_SIZE, pageToken });
      summaries.push(...(page.types ?? []));
      pageToken = page.next_page_token || undefined;
    } while (pageToken && summaries.length < MAX_TYPES);
    truncated = Boolean(pageToken);
    return summaries;
  }

  function load() {
    const mine = ++generation;
    all = null;
    list.replaceChildren();
    show(more, false);
    show($('#types-empty'), false);
    return loadInto(status, {
      label: 'Loading the types…',
      context: 'Could not load the types',
      fetch: fetchAll,
      isCurrent: () => mine === generation,
      onUnauthenticated,
      render: (summaries) => {
        all = summaries;
        status.replaceChildren();
        draw();
      },
    });
  }

  const searchSoon = debounce(() => { shownCount = PAGE_SIZE; draw(); }, SEARCH_DELAY_MS);
  search.addEventListener('input', searchSoon);
  search.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    searchSoon.cancel();
    shownCount = PAGE_SIZE;
    draw();
    const first = list.querySelector('.type-button');
    if (!first) return;
    if (event.key === 'Enter') window.location.hash = first.getAttribute('href');
    else first.focus();
  });
  list.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const links = [...list.querySelectorAll('.type-button')];
    const at = links.indexOf(document.activeElement);
    if (at < 0) return;
    event.preventDefault();
    if (event.key === 'ArrowUp' && at === 0) search.focus();
    else links[Math.min(links.length - 1, Math.max(0, at + (event.key === 'ArrowDown' ? 1 : -1)))].focus();
  });
  more.addEventListener('click', () => {
    const before = list.children.length;
    shownCount += PAGE_SIZE;
    draw();
    // The button may be gone now (the last names): focus goes to the first name it revealed.
    list.children[before]?.querySelector('.type-button')?.focus();
  });

  return {
    /** Shows the types of `code` (the search box is cleared when the application changes). */
    open(code) {
      if (code !== application) search.value = '';
      application = code;
      shownCount = PAGE_SIZE;
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
      all = null;
      search.value = '';
      list.replaceChildren();
      status.replaceChildren();
    },
    get application() { return application; },
    /** Marks `type` as the one shown (aria-current), revealed in the list, or none. */
    mark(type) {
      current = type;
      const drawn = [...list.querySelectorAll('.type-button')];
      if (type !== null && all && !drawn.some((link) => link.dataset.type === type)) {
        draw();
        return;
      }
      for (const link of drawn) {
        if (link.dataset.type === type) link.setAttribute('aria-current', 'page');
        else link.removeAttribute('aria-current');
      }
      if (type !== null) reveal();
    },
    /** The names known, for the publish form's suggestions. */
    names() {
      return (all ?? []).map((summary) => summary.attributes_type);
    },
  };
}
