// Finds a member's value in a JSON text and returns it exactly as written: the bytes a server
// sent, where JSON.parse + JSON.stringify could reorder integer-like keys or respell numbers.

/**
 * The text of `keys` (a path of object members) inside `text`, or null when absent or not
 * valid JSON. `rawMember('{"a":{"b":[1.50]}}', ['a', 'b'])` → `[1.50]`.
 */
export function rawMember(text, keys) {
  try {
    let start = skipSpace(text, 0);
    for (const key of keys) {
      start = memberStart(text, start, key);
      if (start < 0) return null;
    }
    return text.slice(start, valueEnd(text, start));
  } catch {
    return null;
  }
}

function skipSpace(text, at) {
  while (at < text.length && ' \t\n\r'.includes(text[at])) at += 1;
  return at;
}

/** Where the value of member `key` starts in the object at `at`, or -1. */
function memberStart(text, at, key) {
  if (text[at] !== '{') return -1;
  at = skipSpace(text, at + 1);
  while (text[at] === '"') {
    const nameEnd = valueEnd(text, at);
    const name = JSON.parse(text.slice(at, nameEnd));
    at = skipSpace(text, nameEnd);
    if (text[at] !== ':') throw new SyntaxError('expected :');
    const valueStart = skipSpace(text, at + 1);
    if (name === key) return valueStart;
    at = skipSpace(text, valueEnd(text, valueStart));
    if (text[at] === ',') at = skipSpace(text, at + 1);
  }
  return -1;
}

/** The index just after the JSON value starting at `at`. */
function valueEnd(text, at) {
  const first = text[at];
  if (first === '"') {
    let i = at + 1;
    while (text[i] !== '"') {
      if (i >= text.length) throw new SyntaxError('unterminated string');
      i += text[i] === '\\' ? 2 : 1;
    }
    return i + 1;
  }
  if (first === '{' || first === '[') {
    let depth = 0;
    let i = at;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') { i = valueEnd(text, i); continue; }
      if (c === '{' || c === '[') depth += 1;
      if (c === '}' || c === ']') depth -= 1;
      i += 1;
      if (depth === 0) return i;
    }
    throw new SyntaxError('unterminated value');
  }
  let i = at;
  while (i < text.length && !',}] \t\n\r'.includes(text[i])) i += 1;
  if (i === at) throw new SyntaxError('expected a value');
  return i;
}
