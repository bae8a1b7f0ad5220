// "Check values": sends what was typed to `…/{type}/{version}:check` and shows each problem
// beside its field, with a summary. Typing checks by itself (after a pause), marking only the
// fields already edited; the button marks every field.

import { h, debounce, errorBox, plural } from './dom.js';
import { api } from './api.js';
import { readValues, markProblems, clearProblems, targetOf } from './form-values.js';
import { problemSummary } from './problem-summary.js';
import { showResult } from './result-focus.js';

const RECHECK_DELAY_MS = 500;

/** `{element, refresh}`: refresh re-runs the check when one was asked for already. */
export function renderCheckValues(context) {
  const { application, schema, formElement, fields } = context;
  const summary = h('div', { id: 'check-values-result', class: 'try-result', role: 'status', 'aria-live': 'polite', tabindex: -1 });
  const button = h('button', {
    type: 'button', id: 'check-values', class: 'primary',
    onclick: async () => { everything = true; rerun.cancel(); await run(); showResult(summary); },
  }, 'Check values');
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
    const placed = markProblems(formElement, problems.filter(shown), fields);
    summary.replaceChildren(...verdict(result.valid && values.problems.length === 0, problems, placed, { fields, formElement }));
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

/** The verdict, then every problem (those of untouched fields too) as a link to its field. */
function verdict(valid, problems, placed, { fields, formElement }) {
  const errors = problems.filter((problem) => problem.severity !== 'warning').length;
  const warnings = problems.length - errors;
  const head = valid
    ? h('p', { class: 'check-status ok' }, '✓ The values are valid', warnings ? ` (${plural(warnings, 'warning')})` : '', '.')
    : h('p', { class: 'check-status bad' }, `✗ ${plural(errors, 'problem')}`, warnings ? `, ${plural(warnings, 'warning')}` : '', '.');
  const beside = placed.filter((entry) => entry.target).length;
  const targets = new Map(placed.map((entry) => [entry.problem, entry.target]));
  return [
    head,
    beside ? h('p', { class: 'muted' }, `${beside} shown beside ${beside === 1 ? 'its field' : 'their fields'}; select one to go to its field.`) : null,
    problemSummary(problems.map((problem) => ({ problem, target: targets.get(problem) ?? targetOf(formElement, problem.path) })), { fields, id: 'check-values-problems' }),
  ].filter(Boolean);
}
