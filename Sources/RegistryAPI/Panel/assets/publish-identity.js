// Before publishing: is the version number taken, is the same text already published? Both
// are read from the type's live versions (one list request, kept per type while the editor is
// open), so a dry run asks for no version that may not exist: no 404 on every keystroke.

import { h, formatTimestamp } from './dom.js';
import { api } from './api.js';

/**
 * The text without the whitespace between JSON tokens: the registry's "identical content"
 * ignores only that (number spellings and string escapes still differ).
 */
export function withoutLayout(text) {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === '\\') { out += text[i + 1] ?? ''; i += 1; } else if (c === '"') inString = false;
    } else if (c === '"') { inString = true; out += c; } else if (!' \t\n\r'.includes(c)) out += c;
  }
  return out;
}

/** `versionsOf(type)`: the type's live versions, newest first, asked once per type. */
export function versionSource(application, known = {}) {
  const lists = new Map(Object.entries(known).map(([type, list]) => [type, Promise.resolve(list)]));
  return (type) => {
    if (!lists.has(type)) lists.set(type, api.typeVersions(application, type).catch(() => { lists.delete(type); return []; }));
    return lists.get(type);
  };
}

/**
 * What already exists: `{taken}` when the chosen version number is live, `{duplicate}` the
 * newest live version with identical content. A failure counts as "nothing found":
 * publishing itself still refuses a taken number.
 */
export async function identity(request, versionsOf) {
  const versions = await versionsOf(request.attributesType);
  const text = withoutLayout(request.jsonSchema);
  return {
    taken: request.version === undefined ? null : versions.find((schema) => schema.version === request.version) ?? null,
    duplicate: versions.find((schema) => withoutLayout(schema.json_schema) === text) ?? null,
  };
}

/** The warnings for `identity`'s findings; `idPrefix` keeps ids unique when shown twice. */
export function identityWarnings({ request, taken, duplicate }, idPrefix = '') {
  if (!taken && !duplicate) return null;
  return h('div', { class: 'warning-box identity-warnings', id: `${idPrefix}identity-warnings` },
    h('ul', {},
      taken ? h('li', { id: `${idPrefix}version-taken` }, h('strong', {}, `Version ${request.version} already exists`),
        ` (published ${formatTimestamp(taken.created)}); publishing it again is refused. Leave the version empty for the next free number.`) : null,
      duplicate ? h('li', { id: `${idPrefix}identical-version` }, h('strong', {}, `Identical to version ${duplicate.version}`),
        ` of ${duplicate.attributes_type}: the same text (ignoring whitespace) is already published.`) : null));
}
