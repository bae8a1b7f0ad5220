// Loading and failure in place: a spinner while a pane loads, and when the registry cannot be
// reached (offline, 503) the failure with a Retry button in that pane, never an empty pane.

import { h, errorBox } from './dom.js';

/** "⟳ Loading the versions…", announced politely to screen readers. */
export function spinner(label) {
  return h('div', { class: 'loading-state', role: 'status' },
    h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', {}, label));
}

/** The failure, why it may have happened, and a Retry button that calls `retry`. */
export function failure(error, context, retry) {
  const hint = error?.status === 0
    ? 'The registry could not be reached: check the network connection, then retry.'
    : error?.status === 503 ? 'The registry is busy or starting; retry in a moment.' : null;
  return h('div', { class: 'failure' },
    errorBox(error ?? { message: 'unknown error' }, context),
    hint ? h('p', { class: 'muted' }, hint) : null,
    h('button', { type: 'button', class: 'secondary small retry', onclick: retry }, 'Retry'));
}

/**
 * Shows a spinner in `container`, runs `fetch()`, then `render(result)` — or the failure with
 * Retry. `isCurrent()` drops a result that arrives after the user went elsewhere; an
 * unauthenticated failure goes to `onUnauthenticated` instead of the pane.
 */
export async function loadInto(container, { label, context, fetch, render, isCurrent = () => true, onUnauthenticated }) {
  container.setAttribute('aria-busy', 'true');
  container.replaceChildren(spinner(label));
  let result;
  try {
    result = await fetch();
  } catch (error) {
    if (!isCurrent()) return;
    container.removeAttribute('aria-busy');
    if (error?.unauthenticated && onUnauthenticated) onUnauthenticated(error);
    else container.replaceChildren(failure(error, context, () => loadInto(container, { label, context, fetch, render, isCurrent, onUnauthenticated })));
    return;
  }
  if (!isCurrent()) return;
  container.removeAttribute('aria-busy');
  render(result);
}
