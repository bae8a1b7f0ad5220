// Problems in the words of the page: the field's label instead of its payload path, and for a
// pattern what to type (the schema's description, or an example that matches) instead of
// only the regular expression.

/** The text a person reads as the field's name: its label or legend, without the marks. */
export function labelOf(target) {
  if (!target) return null;
  const control = target.matches?.('input, select, textarea') ? target : null;
  const labelElement = control ? control.labels?.[0] : target.querySelector?.(':scope > legend');
  if (!labelElement) return control?.getAttribute('aria-label') ?? null;
  const copy = labelElement.cloneNode(true);
  for (const mark of copy.querySelectorAll('.req, .visually-hidden')) mark.remove();
  return copy.textContent.replace(/\s+/g, ' ').trim() || null;
}

const SIMPLE_CLASS = { '\\d': '0', '\\w': 'a', '\\s': ' ' };

/**
 * A short value matching `pattern`, for the plain patterns identifiers use (literals,
 * classes like `[A-Z]`, `\d`, quantifiers `{n}`, `{n,m}`, `+`, `*`, `?`, anchors); null for
 * anything else. The example is checked against the pattern before it is shown.
 */
export function patternExample(pattern) {
  let out = '';
  let last = '';
  let i = 0;
  const body = pattern.replace(/^\^/, '').replace(/\$$/, '');
  while (i < body.length) {
    const c = body[i];
    if (c === '[') {
      const end = body.indexOf(']', i + 1);
      if (end < 0) return null;
      const inside = body.slice(i + 1, end);
      if (inside.startsWith('^')) return null;
      const range = /^(.)-(.)/u.exec(inside);
      last = range ? range[1] : (inside[0] === '\\' ? SIMPLE_CLASS[inside.slice(0, 2)] ?? inside[1] : inside[0]);
      out += last;
      i = end + 1;
    } else if (c === '\\') {
      const pair = body.slice(i, i + 2);
      last = SIMPLE_CLASS[pair] ?? (/[.\\/()[\]{}+*?^$|-]/.test(body[i + 1]) ? body[i + 1] : null);
      if (last === null) return null;
      out += last;
      i += 2;
    } else if (c === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(body.slice(i));
      if (!match || !last) return null;
      const times = Math.max(Number(match[1]), 1);
      out = out.slice(0, out.length - last.length) + last.repeat(times);
      i += match[0].length;
    } else if (c === '+' || c === '*' || c === '?') {
      if (c !== '+') out = out.slice(0, out.length - last.length);
      i += 1;
    } else if ('()|.^$'.includes(c)) {
      return null;
    } else {
      last = c;
      out += c;
      i += 1;
    }
  }
  try {
    return out && new RegExp(pattern, 'u').test(out) ? out : null;
  } catch {
    return null;
  }
}

/**
 * The message of `problem` for a reader of the form: a pattern problem says what to type,
 * using the field's description when the schema has one.
 */
export function inWords(problem, field) {
  const pattern = /^must match the pattern (.+)$/s.exec(problem.message);
  if (!pattern) return problem.message;
  if (field?.description) return `does not have the expected form: ${field.description}`;
  const example = patternExample(field?.constraints?.pattern ?? pattern[1]);
  return example ? `does not have the expected form, for example “${example}”` : `does not have the expected form (pattern ${pattern[1]})`;
}
