// The signed-in token in the header: its name, scope, applications and expiry (GET
// /api/token), a warning once expiry is near, and the reason a refused token gets.

import { $, show, formatTimestamp } from './dom.js';

/** The warning appears this long before the token expires. */
const WARN_BEFORE_MS = 60 * 60 * 1000;
const MAX_TIMER_MS = 2 ** 31 - 1; // setTimeout's limit (about 24.8 days)

let token = null; // the GET /api/token answer of the tab's token, or null
const timers = [];

const expiresAt = () => (token?.expires ? Date.parse(token.expires) : NaN);

/** "unnamed token 7" or "token 7 “CI”": how people tell tokens apart. */
export function tokenName(id, name) {
  return name ? `token ${id ?? '?'} “${name}”` : `unnamed token ${id ?? '?'}`;
}

function minutesLeft(ms) {
  const minutes = Math.max(0, Math.round(ms / 60000));
  return minutes < 1 ? 'in less than a minute' : minutes < 120 ? `in ${minutes} minute${minutes === 1 ? '' : 's'}` : `in ${Math.round(minutes / 60)} hours`;
}

function warn() {
  const element = $('#token-warning');
  element.textContent = `⚠ This token expires ${minutesLeft(expiresAt() - Date.now())} (${formatTimestamp(token.expires)}). ` +
    'Publish or keep your work now; sign in with a new token after that.';
  show(element, true);
}

function later(ms, action) {
  timers.push(setTimeout(action, Math.min(Math.max(ms, 0), MAX_TIMER_MS)));
}

/**
 * Shows `info` (or nothing when the registry could not tell) and calls `onExpired()` when
 * the token's expiry passes while the tab is signed in.
 */
export function showToken(info, { onExpired }) {
  forgetToken();
  token = info;
  const element = $('#token-info');
  if (!info) {
    element.textContent = '';
    return;
  }
  const applications = Array.isArray(info.applications) ? `applications ${info.applications.join(', ')}` : 'every application';
  const expiry = info.expires ? `expires ${formatTimestamp(info.expires)}` : 'never expires';
  element.textContent = `Signed in with ${tokenName(info.id, info.name)} · scope ${info.scope} · ${applications} · ${expiry}`;
  const left = expiresAt() - Date.now();
  if (Number.isNaN(left)) return;
  if (left <= WARN_BEFORE_MS) warn();
  else later(left - WARN_BEFORE_MS, warn);
  later(left, onExpired);
}

export function forgetToken() {
  while (timers.length) clearTimeout(timers.pop());
  token = null;
  show($('#token-warning'), false);
}

/** Why the registry refused the tab's token, in words: expired (the clock says so), revoked, invalid. */
export function refusalReason(error) {
  if (!Number.isNaN(expiresAt()) && expiresAt() <= Date.now() + 1000) {
    return `Your API token expired at ${formatTimestamp(token.expires)}. Sign in with a new token; your unsaved drafts are kept in this tab.`;
  }
  const message = error?.message ?? 'the token was refused';
  if (/revoked/i.test(message)) {
    return `The registry no longer accepts your API token: it was revoked (the registry said “${message}”). ` +
      'Sign in with a valid token; your unsaved drafts are kept in this tab.';
  }
  return `The registry did not accept the API token: ${message}. Sign in again; your unsaved drafts are kept in this tab.`;
}
