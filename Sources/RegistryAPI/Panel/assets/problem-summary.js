// The list of problems under "Check values" and "Preview push": each item names the field by
// its label and is a link that scrolls to the field and focuses it (the field may be far down
// a long form).

import { h } from './dom.js';
import { inWords, labelOf } from './problem-words.js';
import { fieldOf } from './form-values.js';

/** The element to focus for a problem shown at `target` (an input, or a group's first input). */
function focusable(target) {
  if (target.matches('input, select, textarea, button')) return target;
  return target.querySelector('input, select, textarea, button') ?? target;
}

function jumpTo(target) {
  const control = focusable(target);
  control.scrollIntoView({ block: 'center' });
  if (control.tabIndex < 0 && !control.matches('input, select, textarea, button')) control.tabIndex = -1;
  control.focus({ preventScroll: true });
}

/** `placed` as markProblems returns it; `rewrite(text)` turns API words into the page's words. */
export function problemSummary(placed, { fields = null, id, rewrite = (text) => text } = {}) {
  if (!placed.length) return null;
  return h('ul', { class: 'problems', id }, placed.map(({ problem, target }) => {
    const label = labelOf(target);
    const message = rewrite(inWords(problem, fieldOf(fields, problem.path)));
    const name = label && target
      ? h('a', {
        href: `#${focusable(target).id || ''}`, class: 'problem-link', dataset: { problemPath: problem.path },
        onclick: (event) => { event.preventDefault(); jumpTo(target); },
      }, label)
      : h('code', { class: 'path' }, problem.path);
    return h('li', { class: problem.severity === 'warning' ? 'warning' : 'error', dataset: { problemPath: problem.path } },
      problem.severity === 'warning' ? '⚠ ' : '', name, /^[a-z]/.test(message) ? ' ' : ': ', message);
  }));
}
