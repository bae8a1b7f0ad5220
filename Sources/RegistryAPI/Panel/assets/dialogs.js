// Modal confirmations on the page's <dialog> elements. showModal() gives focus trapping and
// Escape-to-cancel for free; each function resolves true only for an explicit confirmation.

import { $, h } from './dom.js';

function ask(dialog) {
  return new Promise((resolve) => {
    dialog.returnValue = '';
    dialog.addEventListener('close', () => resolve(dialog.returnValue), { once: true });
    dialog.showModal();
    // showModal() focuses the autofocus Cancel button at the bottom, which scrolls a dialog
    // taller than the screen past its title: such a dialog opens at its top, title focused.
    if (dialog.scrollHeight > dialog.clientHeight) {
      const title = $('h2', dialog);
      title.tabIndex = -1;
      title.focus({ preventScroll: true });
    }
    dialog.scrollTop = 0;
  });
}

/** "Delete FlightAttributes version 2?" — resolves true when the user confirms. */
export async function confirmDelete(attributesType, version) {
  const dialog = $('#delete-dialog');
  $('#delete-title', dialog).textContent = `Delete ${attributesType} version ${version}?`;
  $('#delete-text', dialog).replaceChildren(
    'This permanently deletes version ', h('strong', {}, String(version)), ' of ', h('strong', {}, attributesType),
    '. It cannot be undone, and the number ', String(version), ' is never reused. Journey elements built ',
    'against it keep their values but lose their form hints.');
  $('#delete-confirm', dialog).textContent = `Delete version ${version} permanently`;
  return (await ask(dialog)) === 'delete';
}

/** Shows what will be published and the dry run's findings; `body` is a list of nodes. */
export async function confirmPublish(title, body, { risky = false } = {}) {
  const dialog = $('#publish-dialog');
  $('#publish-confirm-title', dialog).textContent = title;
  const content = $('#publish-confirm-body', dialog);
  content.replaceChildren(...body);
  content.scrollTop = 0; // opens at its title; the body scrolls between the title and the buttons
  const confirm = $('#publish-confirm', dialog);
  confirm.textContent = risky ? 'Publish anyway' : 'Publish';
  confirm.className = risky ? 'danger' : 'primary';
  return (await ask(dialog)) === 'publish';
}

/**
 * Leaving an edited publish editor: resolves 'stay', 'leave' (the draft is kept for the next
 * visit) or 'discard'. Escape stays.
 */
export async function confirmLeave(attributesType) {
  const dialog = $('#leave-dialog');
  $('#leave-text', dialog).replaceChildren('The editor has changes that are not published. ',
    'The draft stays in this browser tab and comes back when you open the editor of ',
    h('strong', {}, attributesType || 'a first schema'), ' again, unless you discard it.');
  return (await ask(dialog)) || 'stay';
}

/**
 * A yes/no question: `title`, `body` (nodes), the confirm button's text; true when confirmed.
 * `danger` draws the confirm button red, for what cannot be undone.
 */
export async function confirmAction(title, body, confirmLabel, { danger = false } = {}) {
  const dialog = $('#confirm-dialog');
  $('#confirm-title', dialog).textContent = title;
  $('#confirm-text', dialog).replaceChildren(...body);
  const confirm = $('#confirm-ok', dialog);
  confirm.textContent = confirmLabel;
  confirm.className = danger ? 'danger' : 'primary';
  return (await ask(dialog)) === 'confirm';
}

/**
 * A change of a version's state or of the type's `latest`: `title`, then `usage` (a node that
 * shows who reads it: the first thing to weigh), then `body` and `fields` (nodes). `check()`
 * returns a problem text that keeps the dialog open (a required field left empty), or null.
 * Resolves true when confirmed; `danger` draws the confirm button red.
 */
export async function confirmChange({ title, usage, body = [], fields = [], confirmLabel, danger = false, check = () => null }) {
  const dialog = $('#change-dialog');
  const form = $('form', dialog);
  const problem = $('#change-problem', dialog);
  $('#change-title', dialog).textContent = title;
  $('#change-usage', dialog).replaceChildren(usage);
  $('#change-text', dialog).replaceChildren(...body);
  $('#change-fields', dialog).replaceChildren(...fields);
  problem.replaceChildren();
  const confirm = $('#change-confirm', dialog);
  confirm.textContent = confirmLabel;
  confirm.className = danger ? 'danger' : 'primary';
  const onSubmit = (event) => {
    if (event.submitter?.value !== 'confirm') return;
    const text = check();
    if (!text) return;
    event.preventDefault();
    problem.replaceChildren(h('p', { class: 'error-box' }, text.message ?? text));
    (text.field ?? confirm).focus();
  };
  form.addEventListener('submit', onSubmit);
  try {
    return (await ask(dialog)) === 'confirm';
  } finally {
    form.removeEventListener('submit', onSubmit);
  }
}
