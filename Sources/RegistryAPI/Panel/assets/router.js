// Addresses: every view of the panel is a hash URL, so reload, Back, Forward and shared links
// land on the same place.
//
//   #/app/CODE                                 the application's types
//   #/app/CODE/publish                         publish a first schema
//   #/app/CODE/search[/QUERY]                  search names, descriptions, owners, labels, fields
//   #/app/CODE/type/NAME                       a type: its versions and the newest one
//   #/app/CODE/type/NAME/publish               publish a new version of NAME
//   #/app/CODE/type/NAME/audit                 the type's audit trail
//   #/app/CODE/type/NAME/version/N[/TAB]       one version, optionally on a tab (form, json, …)
//   #/app/CODE/webhooks                        the application's webhook subscriptions (admin)
//   #/app/CODE/webhooks/new                    subscribe a URL
//   #/app/CODE/webhooks/ID[/edit]              one subscription and its delivery log, or its form
//
// Codes and names are percent-encoded as one segment each (`/`, `%`, `#`, `?` and dots
// included), so every name, `.` and `..` too, round-trips exactly.

const encode = (text) => encodeURIComponent(String(text)).replace(/[!'()*.~]/g,
  (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function decode(segment) {
  try { return decodeURIComponent(segment); } catch { return null; }
}

/**
 * `{app, type, version, tab, query, webhook, view}` of a hash; `view` is app, publish, search,
 * type, audit, version or webhooks (`webhook` then names `new` or a subscription's id, `tab` its `edit`).
 */
export function parseHash(hash) {
  const parts = hash.replace(/^#\/?/, '').split('/').map(decode);
  const route = { app: null, type: null, version: null, tab: null, query: '', webhook: null, view: 'app' };
  if (parts.includes(null) || parts[0] !== 'app' || !parts[1]) return route;
  route.app = parts[1];
  if (parts[2] === 'publish' && parts.length === 3) return { ...route, view: 'publish' };
  if (parts[2] === 'search' && parts.length <= 4) return { ...route, view: 'search', query: parts[3] ?? '' };
  if (parts[2] === 'webhooks') return webhooksRoute(route, parts.slice(3));
  if (parts[2] !== 'type' || !parts[3]) return route;
  route.type = parts[3];
  const rest = parts.slice(4);
  if (rest.length === 0) return { ...route, view: 'type' };
  if (rest.length === 1 && (rest[0] === 'audit' || rest[0] === 'publish')) return { ...route, view: rest[0] };
  const version = Number(rest[1]);
  if (rest[0] === 'version' && /^[1-9]\d{0,9}$/.test(rest[1] ?? '') && rest.length <= 3) {
    return { ...route, view: 'version', version, tab: rest[2] || null };
  }
  return { ...route, view: 'type' };
}

/** The webhooks' places: the list, `new`, an id (digits, no leading zero) and its `edit`; else the list. */
function webhooksRoute(route, rest) {
  const place = { ...route, view: 'webhooks' };
  if (rest.length === 1 && rest[0] === 'new') return { ...place, webhook: 'new' };
  if (/^[1-9]\d{0,17}$/.test(rest[0] ?? '') && (rest.length === 1 || (rest.length === 2 && rest[1] === 'edit'))) {
    return { ...place, webhook: rest[0], tab: rest[1] ?? null };
  }
  return place;
}

/** The hash of a route (the inverse of parseHash). */
export function hashOf({ app, type = null, version = null, tab = null, query = '', webhook = null, view = null }) {
  let hash = `#/app/${encode(app)}`;
  if (type === null && view === 'webhooks') {
    if (webhook === null) return `${hash}/webhooks`;
    return `${hash}/webhooks/${encode(webhook)}${tab === 'edit' && webhook !== 'new' ? '/edit' : ''}`;
  }
  if (type === null && view === 'search') return `${hash}/search${query ? `/${encode(query)}` : ''}`;
  if (type === null) return view === 'publish' ? `${hash}/publish` : hash;
  hash += `/type/${encode(type)}`;
  if (view === 'audit' || view === 'publish') return `${hash}/${view}`;
  if (version === null) return hash;
  return `${hash}/version/${version}${tab ? `/${encode(tab)}` : ''}`;
}

export const currentRoute = () => parseHash(window.location.hash);

let listener = () => {};
let leaving = null; // asked before the place changes; resolves false to stay
let shownHash = window.location.hash;
// Every history entry the panel shows is numbered (history.state.panelIndex), so staying
// after a refused move knows which way to go back: Back moved to a lower number, a link or
// Forward to a new or higher one.
let shownIndex = window.history.state?.panelIndex ?? 0;
let restoring = false; // the next hashchange is the panel undoing a refused move

/**
 * `guard(route)` is asked before the address moves to `route` (a link, Back, the application
 * picker, Cancel); when it resolves false the address goes back to the place still shown.
 */
export function guardLeaving(guard) {
  leaving = guard;
}

function stay() {
  const index = window.history.state?.panelIndex;
  if (index === undefined || index > shownIndex) {
    restoring = true;
    window.history.back();
  } else if (index < shownIndex) {
    restoring = true;
    window.history.go(shownIndex - index);
  } else {
    window.history.replaceState(window.history.state, '', shownHash);
  }
}

async function arrive(route) {
  if (leaving && !(await leaving(route))) {
    if (window.location.hash !== shownHash) stay();
    return;
  }
  settle();
  listener(route);
}

/** Calls `render(route)` whenever the address changes (links, Back, Forward, typing it). */
export function onRouteChange(render) {
  listener = render;
  window.addEventListener('hashchange', () => {
    if (restoring) {
      restoring = false;
      return;
    }
    arrive(currentRoute());
  });
}

/**
 * Goes to `route`: a new history entry, or with `replace` the current one is rewritten (for
 * places that no longer exist, like a deleted version). Renders even when the address stays.
 */
export function navigate(route, { replace = false } = {}) {
  const hash = hashOf(route);
  if (hash === window.location.hash) arrive(currentRoute());
  else if (replace) {
    window.history.replaceState(window.history.state, '', hash);
    arrive(currentRoute());
  } else window.location.hash = hash;
}

/** Rewrites the address without rendering, for a change the page already shows (a tab). */
export function describe(route) {
  const hash = hashOf(route);
  if (hash !== window.location.hash) window.history.replaceState(window.history.state, '', hash);
  shownHash = hash;
}

/** The place shown is the address now: numbers its history entry (see `shownIndex`). */
export function settle() {
  const index = window.history.state?.panelIndex;
  if (index === undefined) {
    shownIndex += 1;
    window.history.replaceState({ panelIndex: shownIndex }, '', window.location.href);
  } else {
    shownIndex = index;
  }
  shownHash = window.location.hash;
}
