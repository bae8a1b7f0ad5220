// The message regions above the workspace: notices (status) and errors (alert), dismissible.

import { $, h, errorBox } from './dom.js';

export function dismissible(region, content) {
  region.replaceChildren(h('div', { class: 'message' }, content,
    h('button', { type: 'button', class: 'link dismiss', onclick: () => region.replaceChildren() }, 'Dismiss')));
}

export function notify(...parts) {
  dismissible($('#messages'), h('div', { class: 'notice' }, ...parts));
}

/** A plain error sentence (no API failure behind it). */
export function complain(...parts) {
  dismissible($('#errors'), h('div', { class: 'error-box' }, h('p', {}, ...parts)));
}

/** An API failure as a message: its kind, context and text. */
export function reportFailure(error, context) {
  if (!error?.kind) console.error(error);
  dismissible($('#errors'), errorBox(error ?? { message: 'unknown error' }, context));
}

export function clearMessages() {
  $('#messages').replaceChildren();
  $('#errors').replaceChildren();
}
