// Reads what was typed into a generated form (form-render.js) as the JSON a push would carry,
// and marks problems reported by the registry beside the fields they concern. Input names are
// the descriptor paths (`content-state.gate`, `attributes.flightNumber`, `content-state.stops[0]`),
// the same paths `:check` and `:preview` report problems at.

import { h, uniqueId } from './dom.js';
import { inWords } from './problem-words.js';

/** The form descriptor's fields by path (`content-state.stops[]` for list items). */
export function fieldsByPath(form) {
  const map = new Map();
  const walk = (fields) => {
    for (const field of fields ?? []) {
      map.set(field.path, field);
      walk(field.fields);
      if (field.item) walk([field.item]);
      for (const option of field.cases ?? []) walk(option.fields);
    }
  };
  walk(form?.content?.fields);
  walk(form?.attributes?.fields);
  return map;
}

/**
 * `{contentState, attributes, problems}` from the inputs of `formElement`. Empty inputs are left
 * out (the registry then reports a missing required field); text that should be JSON and is not
 * becomes a local problem at its path.
 */
export function readValues(formElement, fields) {
  const roots = { 'content-state': {}, attributes: {} };
  const problems = [];
  for (const input of formElement.querySelectorAll('input[name], select[name], textarea[name]')) {
    const name = input.name;
    if (name === 'content-state' || name === 'attributes') {
      readRaw(input, roots, problems);
      continue;
    }
    if (name.endsWith('[][name]') || name.endsWith('[][value]')) continue; // the free list, below
    const field = fields.get(input.dataset.path);
    const value = inputValue(input, field, problems);
    if (value !== undefined) place(roots, name, value);
  }
  for (const row of formElement.querySelectorAll('.free-row')) {
    const [key, value] = [...row.querySelectorAll('input')].map((input) => input.value);
    if (key) roots.attributes[key] = value;
  }
  return { contentState: roots['content-state'], attributes: roots.attributes, problems };
}

function readRaw(input, roots, problems) {
  const text = input.value.trim();
  if (!text) return;
  try {
    const value = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) roots[input.name] = value;
    else problems.push({ path: input.name, message: 'must be a JSON object', severity: 'error' });
  } catch {
    problems.push({ path: input.name, message: 'is not valid JSON', severity: 'error' });
  }
}

/** A JSON number as people type it: an optional minus, digits, an optional fraction and exponent. */
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** The JSON value of one input, or undefined when it is empty. */
function inputValue(input, field, problems) {
  const widget = input.dataset.widget;
  if (widget === 'toggle') {
    const set = input.checked || input.dataset.touched === 'true' || input.dataset.required === 'true';
    return set ? input.checked : undefined;
  }
  const text = input.value;
  if (text === '') return undefined;
  if (widget === 'select') return JSON.parse(text); // option values are JSON texts
  // The chosen case's key; its fields, read after it, fill the object under it.
  if (widget === 'choice') return { [text]: {} };
  if (widget === 'number') {
    if (!NUMBER.test(text.trim())) {
      problems.push({ path: input.name, message: `must be a number such as 12 or 2.5, not “${text}”`, severity: 'error' });
      return undefined;
    }
    return Number(text.trim());
  }
  if (widget === 'datetime') return dateText(input.type, text);
  if (widget === 'json' || (!field && input.tagName === 'TEXTAREA' && input.classList.contains('code'))) {
    try {
      return JSON.parse(text);
    } catch {
      problems.push({ path: input.name, message: 'is not valid JSON', severity: 'error' });
      return undefined;
    }
  }
  return text;
}

/** Date inputs have no zone: their value is read as UTC and written as RFC 3339. */
function dateText(type, text) {
  if (type === 'date') return text;
  const withSeconds = /^(\d{4}-\d{2}-\d{2}T)?\d{2}:\d{2}$/.test(text) ? `${text}:00` : text;
  return `${withSeconds}Z`;
}

/** Sets `content-state.crew.captain` or `content-state.stops[1].name` inside `roots`. */
function place(roots, name, value) {
  const steps = [];
  for (const part of name.split('.')) {
    const match = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) return;
    if (match[1]) steps.push(match[1]);
    for (const index of match[2].matchAll(/\[(\d+)\]/g)) steps.push(Number(index[1]));
  }
  let node = roots;
  steps.forEach((step, i) => {
    if (i === steps.length - 1) {
      node[step] = value;
      return;
    }
    if (node[step] === undefined) node[step] = typeof steps[i + 1] === 'number' ? [] : {};
    node = node[step];
  });
}

/** The descriptor field of a problem's path (list indices as `[]`). */
export const fieldOf = (fields, path) => fields?.get(path.replace(/\[\d+\]/g, '[]'));

/**
 * Shows each problem under the field it concerns (the input named by its path, else the
 * nearest enclosing field or group), in words (problem-words.js), and returns
 * `[{problem, target}]`: the element each problem is shown at, null when no field took it.
 */
export function markProblems(formElement, problems, fields = null) {
  clearProblems(formElement);
  const placed = [];
  for (const problem of problems) {
    const target = targetOf(formElement, problem.path);
    placed.push({ problem, target });
    if (!target) continue;
    const id = uniqueId('problem');
    const note = h('p', { id, class: `field-problem ${problem.severity === 'warning' ? 'warning' : 'error'}`, dataset: { problemPath: problem.path } },
      problem.severity === 'warning' ? '⚠ ' : '✗ ', sentenceStart(inWords(problem, fieldOf(fields, problem.path))));
    const control = target.matches('input, select, textarea') ? target : null;
    const holder = control ? control.closest('.field') ?? control.parentElement : target;
    if (control) {
      control.setAttribute('aria-invalid', problem.severity === 'warning' ? 'false' : 'true');
      const describedBy = control.getAttribute('aria-describedby');
      control.dataset.describedBy ??= describedBy ?? '';
      control.setAttribute('aria-describedby', `${describedBy ?? ''} ${id}`.trim());
    }
    if (holder.tagName === 'FIELDSET') holder.querySelector(':scope > legend').after(note);
    else holder.append(note);
  }
  return placed;
}

const sentenceStart = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** Removes every problem note and restores the inputs' descriptions. */
export function clearProblems(formElement) {
  for (const note of formElement.querySelectorAll('.field-problem')) note.remove();
  for (const control of formElement.querySelectorAll('[aria-invalid]')) {
    control.removeAttribute('aria-invalid');
    if (control.dataset.describedBy !== undefined) {
      if (control.dataset.describedBy) control.setAttribute('aria-describedby', control.dataset.describedBy);
      else control.removeAttribute('aria-describedby');
      delete control.dataset.describedBy;
    }
  }
}

/** The input named by `path`, else the nearest enclosing group or section, else null. */
export function targetOf(formElement, path) {
  let current = path;
  while (current) {
    const byName = [...formElement.querySelectorAll('[name]')].find((element) => element.name === current);
    if (byName) return byName;
    const pattern = current.replace(/\[\d+\]/g, '[]');
    const group = [...formElement.querySelectorAll('fieldset[data-path]')].find((element) => element.dataset.path === pattern);
    if (group) return group;
    const cut = Math.max(current.lastIndexOf('.'), current.lastIndexOf('['));
    current = cut > 0 ? current.slice(0, cut) : '';
  }
  const section = path.startsWith('attributes') ? 'attributes' : path.startsWith('content-state') ? 'content' : null;
  return section ? formElement.querySelector(`fieldset[data-section="${section}"]`) : null;
}
