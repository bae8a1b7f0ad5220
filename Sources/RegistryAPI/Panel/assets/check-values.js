// "Check values": sends what was typed to `…/{type}/{version}:check` and shows each problem
// beside its field, with a summary. Typing checks by itself (after a pause), marking only the
// fields already edited; the button marks every field.

import { h, debounce, errorBox, plural } from './dom.js';
import { api } from './api.js';
import { readValues, markProblems, clearProblems } from './form-values.js';

const RECHECK_DELAY_MS = 500;

/** `{element, refresh}`: refresh re-runs the check when one was asked for already. */
export function renderCheckValues(context) {
  const { application, schema, formElement, fields } = context;
  const summary = h('div', { id: 'check-values-result', class: 'try-result', role: 'status', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', id: 'check-values', class: 'primary', onclick: () => { everything = true; rerun.cancel(); run(); } },
    'Check values');
  const touched = new Set(); // names of the inputs edited so far
  let everything = false; // the button was used: mark problems of untouched fields too
  let active = false;
  let sequence = 0;

  const shown = (problem) => everything || [...touched].some((name) =>
    problem.path === name || problem.path.startsWith(`${name}.`) || problem.path.startsWith(`${name}[`));

  async function run() {
    active = true;
    const mine = ++sequence;
    summary.replaceChildren(h('p', { class: 'check-status pending' }, 'Checking…'));
    const event = context.event();
    const values = readValues(formElement, fields);
    let result;
    try {
      result = await api.check(application, schema.attributes_type, schema.version, {
        event, contentState: values.contentState, attributes: event === 'start' ? values.attributes : undefined,
      });
    } catch (error) {
      if (mine !== sequence) return;
      if (error.unauthenticated) context.onUnauthenticated(error);
      clearProblems(formElement);
      summary.replaceChildren(errorBox(error, 'The values could not be checked'));
      return;
    }
    if (mine !== sequence) return; // a newer check superseded this one
    const problems = [...values.problems, ...(result.problems ?? [])];
    const unplaced = markProblems(formElement, problems.filter(shown));
    const placed = problems.filter(shown).length - unplaced.length;
    summary.replaceChildren(...verdict(result.valid && values.problems.length === 0, problems, placed));
  }

  const rerun = debounce(run, RECHECK_DELAY_MS);
  const edited = (event) => {
    if (event.target.name) touched.add(event.target.name);
    const status = summary.querySelector('.check-status');
    if (status) { // the verdict shown is for other values now
      status.className = 'check-status pending';
      status.textContent = 'Checking…';
    }
    rerun();
  };
  formElement.addEventListener('input', edited);
  formElement.addEventListener('change', edited);
  formElement.addEventListener('click', (event) => { if (event.target.closest('.remove-item')) rerun(); });

  const element = h('div', { class: 'try-part', id: 'check-values-part' },
    h('h4', {}, 'Check values'),
    h('p', { class: 'muted' }, 'Every rule of the schema (types, required fields, lengths, patterns, formats), as a journey would be checked. ',
      'Typing checks the fields you edit; the button checks them all.'),
    h('div', { class: 'actions' }, button),
    summary);
  return { element, refresh: () => { if (active) run(); } };
}

function verdict(valid, problems, placed) {
  const errors = problems.filter((problem) => problem.severity !== 'warning').length;
  const warnings = problems.length - errors;
  const head = valid
    ? h('p', { class: 'check-status ok' }, '✓ The values are valid', warnings ? ` (${plural(warnings, 'warning')})` : '', '.')
    : h('p', { class: 'check-status bad' }, `✗ ${plural(errors, 'problem')}`, warnings ? `, ${plural(warnings, 'warning')}` : '', '.');
  return [
    head,
    placed ? h('p', { class: 'muted' }, `${placed} shown beside ${placed === 1 ? 'its field' : 'their fields'}.`) : null,
    problems.length ? h('ul', { class: 'problems', id: 'check-values-problems' }, problems.map((problem) =>
      h('li', { class: problem.severity === 'warning' ? 'warning' : 'error' },
        h('code', { class: 'path' }, problem.path), ' ', problem.message))) : null,
  ].filter(Boolean);
}
