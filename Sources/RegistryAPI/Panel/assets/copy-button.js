// A Copy button: the clipboard where the browser allows it, else the text selected for Ctrl+C.

import { h } from './dom.js';

/** A button copying `text()`; `label` names it; a status beside it says what happened. */
export function copyButton(text, label = 'Copy') {
  const status = h('span', { class: 'muted copy-status', role: 'status' });
  const button = h('button', {
    type: 'button', class: 'secondary small copy-button',
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(text());
        status.textContent = 'Copied.';
      } catch {
        const pre = button.closest('div')?.nextElementSibling;
        if (pre) window.getSelection().selectAllChildren(pre);
        status.textContent = 'Selected: press Ctrl+C to copy.';
      }
    },
  }, label);
  return h('span', { class: 'copy' }, button, ' ', status);
}
