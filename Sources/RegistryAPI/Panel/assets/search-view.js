// The search page: one query over an application's type names (any part, any letter case),
// descriptions and owners, labels (`label:team=checkout`) and field names or paths in any live
// version (`field:gate`), the terms ANDed. The filters are fields of their own, written into
// one query (the address keeps it, so a reload or a shared link repeats the search); each
// result says what matched and where, and links to the type or the version.

import { h, plural, show, wrappable } from './dom.js';
import { api } from './api.js';
import { loadInto } from './loading.js';
import { hashOf } from './router.js';
import { nameMarks } from './name-marks.js';

const PAGE_SIZE = 50;

/** The filters: each a field of the form and a prefix of the query's terms ('' for bare words). */
const FILTERS = [
  { prefix: '', id: 'search-words', label: 'Words', hint: 'Any part of a type name, a description or an owner, in any letter case.' },
  { prefix: 'label:', id: 'search-label', label: 'Label', hint: 'key=value of a type or version label, e.g. team=checkout.' },
  { prefix: 'field:', id: 'search-field', label: 'Field', hint: 'A field name or path in any live version, e.g. gate or content-state.gate.' },
  { prefix: 'owner:', id: 'search-owner', label: 'Owner', hint: 'Any part of the owner, e.g. checkout.' },
];

/** The query's terms by filter: {'': ['ride'], 'label:': ['team=checkout'], …}. */
export function splitQuery(query) {
  const terms = Object.fromEntries(FILTERS.map((filter) => [filter.prefix, []]));
  for (const term of query.split(/\s+/).filter(Boolean)) {
    const filter = FILTERS.find((candidate) => candidate.prefix && term.startsWith(candidate.prefix)) ?? FILTERS[0];
    const value = term.slice(filter.prefix.length);
    if (value) terms[filter.prefix].push(value);
  }
  return terms;
}

/** The fields' values as one query: bare words first, then each filter's terms. */
const joinQuery = (values) => FILTERS.flatMap((filter) =>
  values[filter.prefix].split(/\s+/).filter(Boolean).map((word) => filter.prefix + word)).join(' ');

const MATCH_WORDS = { name: 'Name', description: 'Description', owner: 'Owner', label: 'Label', field: 'Field' };

function matchItem(application, type, match) {
  const where = match.version !== undefined && match.version !== null
    ? [' in ', h('a', { href: hashOf({ app: application, type, version: match.version }) }, `version ${match.version}`)] : null;
  const text = match.in === 'field' ? h('code', { class: 'path' }, match.path ?? match.text) : h('span', { class: 'match-text' }, match.text);
  return h('li', { class: 'search-match', dataset: { in: match.in, version: match.version ?? '' } },
    h('span', { class: 'badge' }, MATCH_WORDS[match.in] ?? match.in), ' ', text, where);
}

function resultItem(application, result) {
  const type = result.attributes_type;
  return h('li', { class: 'search-result', dataset: { type } },
    h('a', { class: 'search-type', href: hashOf({ app: application, type }) }, h('span', { class: 'type-name' }, wrappable(type))),
    nameMarks(type),
    h('ul', { class: 'search-matches' }, (result.matches ?? []).map((match) => matchItem(application, type, match))));
}

/**
 * Fills `container` with the search form for `query` and, when it is not empty, its results.
 * `onSearch(query)` puts a new query into the address (which renders this view again).
 */
export function renderSearchView(container, { application, query, isCurrent, onSearch, onUnauthenticated }) {
  const terms = splitQuery(query);
  const controls = {};
  const fields = FILTERS.map((filter) => {
    const control = h('input', {
      id: filter.id, type: 'text', value: terms[filter.prefix].join(' '), spellcheck: 'false', autocapitalize: 'off',
      autocomplete: 'off', 'aria-describedby': `${filter.id}-hint`,
    });
    controls[filter.prefix] = control;
    return h('div', { class: 'field' }, h('label', { for: filter.id }, filter.label), control,
      h('p', { class: 'field-hint', id: `${filter.id}-hint` }, filter.hint));
  });
  const form = h('form', { class: 'search-form', id: 'search-form', role: 'search', 'aria-label': `Search ${application}` },
    h('div', { class: 'search-fields' }, fields),
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary', id: 'search-submit' }, 'Search')));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onSearch(joinQuery(Object.fromEntries(Object.entries(controls).map(([prefix, control]) => [prefix, control.value]))));
  });
  const status = h('div', { id: 'search-status', role: 'status' });
  const list = h('ol', { class: 'search-results', id: 'search-results', tabindex: -1, 'aria-label': 'Results' });
  const more = h('button', { type: 'button', class: 'secondary small', id: 'search-more', hidden: true }, 'Show more results');
  let pageToken = null;

  function load(append) {
    show(more, false);
    return loadInto(status, {
      label: 'Searching…',
      context: 'Could not search',
      fetch: () => api.search(application, { q: query, pageSize: PAGE_SIZE, pageToken: append ? pageToken : undefined }),
      isCurrent,
      onUnauthenticated,
      render: (page) => {
        const before = list.children.length;
        list.append(...(page.results ?? []).map((result) => resultItem(application, result)));
        pageToken = page.next_page_token || null;
        show(more, pageToken !== null);
        const found = list.children.length;
        status.replaceChildren(h('p', { class: 'muted', id: 'search-count' }, found
          ? `${plural(found, 'type')} ${pageToken ? 'shown so far' : 'found'} for ${query}.`
          : `Nothing matches ${query}.`));
        list.dataset.query = query; // what the list shows, for a reader waiting on a search
        if (append) list.children[before]?.querySelector('a')?.focus();
      },
    });
  }
  more.addEventListener('click', () => load(true));

  container.replaceChildren(
    h('h2', { id: 'search-title' }, 'Search ', application),
    h('p', { class: 'muted' }, 'Every filter filled in must match (they combine with AND). The query is ',
      query ? h('code', { id: 'search-query' }, query) : 'empty', '.'),
    form, status, list, more);
  if (query) load(false);
}
