// Builds elements from plain data. Text from the server is only ever inserted as text nodes.

/** h('button', {class: 'primary', onclick: fn}, 'Save') → <button class="primary">Save</button> */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') element.className = value;
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') element.addEventListener(key.slice(2), value);
    else if (key === 'value' || key === 'checked') element[key] = value;
    else element.setAttribute(key, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends children, flattening arrays and skipping null, undefined and false. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : String(child));
  }
  return parent;
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

let idCounter = 0;
/** A document-unique id, for label/for and aria-describedby pairs. */
export function uniqueId(prefix = 'id') {
  idCounter += 1;
  return `${prefix}-${idCounter}`;
}

export function show(element, visible = true) {
  element.hidden = !visible;
}

/** Calls `fn` once `ms` milliseconds have passed without another call. */
export function debounce(fn, ms) {
  let timer;
  const debounced = (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
  debounced.cancel = () => clearTimeout(timer);
  return debounced;
}

/** Moves keyboard focus to a view's heading after the view changed. */
export function focusHeading(container) {
  const heading = container.querySelector('h2, h3');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus({ preventScroll: false });
}

const pad = (n) => String(n).padStart(2, '0');

/** RFC 3339 → "2026-09-01 10:00 UTC", the same for every reader. */
export function formatTimestamp(text) {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return text;
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} UTC`;
}

/** A <time> element showing UTC, with the reader's local time as its tooltip. */
export function timeElement(text) {
  const date = new Date(text);
  const local = Number.isNaN(date.getTime()) ? text : date.toLocaleString();
  return h('time', { datetime: text, title: local }, formatTimestamp(text));
}

/** An error as a readable block: its kind ("Not found (HTTP 404, code 5)") and message. */
export function errorBox(error, context) {
  const details = Array.isArray(error.details) && error.details.length
    ? h('pre', { class: 'code small-print', tabindex: 0 }, JSON.stringify(error.details, null, 2)) : null;
  return h('div', { class: 'error-box' },
    h('p', {}, h('strong', {}, context ? `${context}. ` : '', error.kind ?? 'Error'), ': ', error.message), details);
}

export function plural(count, word) {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * A name as text with <wbr> break opportunities where a reader expects them: between a lower-
 * case letter or digit and a capital ("Flight|Attributes") and after `.`, `_`, `-` and `:`.
 * Long names then wrap at those points; `overflow-wrap: anywhere` still breaks what remains.
 */
export function wrappable(text) {
  const parts = String(text).split(/(?<=[\p{Ll}\p{Nd}])(?=\p{Lu})|(?<=[._:-])(?=.)/u);
  return parts.flatMap((part, index) => (index === 0 ? [part] : [h('wbr'), part]));
}
