// Names that look alike: a type name with invisible characters (U+200B ZERO WIDTH SPACE, a
// soft hyphen, a direction mark, …) or not in Unicode NFC renders like another name but is a
// different one. Such names get a badge and an escaped form, so two look-alike entries can be
// told apart.

import { h } from './dom.js';

// Format characters (Cf: zero-width spaces and joiners, direction marks, the BOM), other
// spaces than U+0020, and variation selectors draw nothing or look like something else.
const INVISIBLE = /[\p{Cf}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u115f\u1160\u3164]|\u034f|[\ufe00-\ufe0f]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');

/** What makes `name` look like another: `{invisible, notNFC}`, or null for a plain name. */
export function lookAlike(name) {
  const text = String(name);
  const invisible = INVISIBLE.test(text);
  const notNFC = text.normalize('NFC') !== text;
  return invisible || notNFC ? { invisible, notNFC } : null;
}

/** `Flight\u{200B}Attributes`: the invisible (and, for a non-NFC name, every non-ASCII) character escaped. */
export function escapedName(name) {
  const text = String(name);
  const escape = (c) => `\\u{${c.codePointAt(0).toString(16).toUpperCase()}}`;
  if (text.normalize('NFC') !== text) return [...text].map((c) => (c.codePointAt(0) > 0x7e ? escape(c) : c)).join('');
  return text.replace(INVISIBLE_ALL, escape);
}

/** The badges and escaped form for a look-alike name, or null. */
export function nameMarks(name) {
  const marks = lookAlike(name);
  if (!marks) return null;
  return h('span', { class: 'name-marks' },
    marks.invisible ? h('span', { class: 'badge name-badge', title: 'The name contains characters that draw nothing' }, 'invisible characters') : null,
    marks.notNFC ? h('span', { class: 'badge name-badge', title: 'The name is not in Unicode NFC: it looks like a different name' }, 'not NFC') : null,
    h('code', { class: 'escaped-name' }, escapedName(name)));
}
