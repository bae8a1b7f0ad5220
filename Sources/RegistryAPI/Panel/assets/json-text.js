// Re-indents JSON text without turning it into JavaScript values (which would reorder
// integer-like keys and round big numbers). Input is assumed to be valid JSON.

const PUNCTUATION = '{}[],:';
const WHITESPACE = ' \n\r\t';

/** [{kind: 'punct' | 'key' | 'string' | 'number' | 'literal', text}] */
export function tokenize(text) {
  const tokens = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (WHITESPACE.includes(c)) { i += 1; continue; }
    if (PUNCTUATION.includes(c)) { tokens.push({ kind: 'punct', text: c }); i += 1; continue; }
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      tokens.push({ kind: 'string', text: text.slice(i, j + 1) });
      i = j + 1;
      continue;
    }
    let j = i + 1;
    while (j < text.length && !PUNCTUATION.includes(text[j]) && !WHITESPACE.includes(text[j]) && text[j] !== '"') j += 1;
    const word = text.slice(i, j);
    tokens.push({ kind: /^(true|false|null)$/.test(word) ? 'literal' : 'number', text: word });
    i = j;
  }
  tokens.forEach((token, index) => {
    if (token.kind === 'string' && tokens[index + 1]?.text === ':') token.kind = 'key';
  });
  return tokens;
}

const opens = (token) => token?.kind === 'punct' && (token.text === '{' || token.text === '[');
const closes = (token) => token?.kind === 'punct' && (token.text === '}' || token.text === ']');

/** The tokens with whitespace tokens ({kind: 'space'}) inserted: two-space indentation. */
export function layout(tokens, indent = '  ') {
  const out = [];
  let depth = 0;
  const newline = () => out.push({ kind: 'space', text: `\n${indent.repeat(depth)}` });
  tokens.forEach((token, index) => {
    if (opens(token)) {
      out.push(token);
      if (!closes(tokens[index + 1])) { depth += 1; newline(); }
    } else if (closes(token)) {
      if (!opens(tokens[index - 1])) { depth -= 1; newline(); }
      out.push(token);
    } else if (token.kind === 'punct' && token.text === ',') {
      out.push(token);
      newline();
    } else if (token.kind === 'punct' && token.text === ':') {
      out.push(token, { kind: 'space', text: ' ' });
    } else {
      out.push(token);
    }
  });
  return out;
}

export function prettyJSON(text) {
  return layout(tokenize(text)).map((token) => token.text).join('');
}

/** Pretty-printed, with one span per token (classes j-key, j-string, j-number, j-literal). */
export function highlightedJSON(text) {
  const fragment = document.createDocumentFragment();
  for (const token of layout(tokenize(text))) {
    if (token.kind === 'space' || token.kind === 'punct') {
      fragment.append(token.text);
    } else {
      const span = document.createElement('span');
      span.className = `j-${token.kind}`;
      span.textContent = token.text;
      fragment.append(span);
    }
  }
  return fragment;
}

/** The character index of a UTF-8 byte offset (the registry reports JSON errors in bytes). */
export function characterIndex(text, byteOffset) {
  const encoder = new TextEncoder();
  let bytes = 0;
  let index = 0;
  for (const character of text) {
    if (bytes >= byteOffset) break;
    bytes += encoder.encode(character).length;
    index += character.length;
  }
  return index;
}
