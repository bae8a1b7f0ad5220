// Before publishing: is the version number taken, is the same text already published?

import { h, formatTimestamp } from './dom.js';
import { api } from './api.js';

/**
 * What already exists: `{taken}` when the chosen version number is live, `{duplicate}` when the
 * newest live version with identical content exists (`:lookup`). Failures count as "nothing
 * found": publishing itself still refuses a taken number.
 */
export async function identity(request) {
  const { application, attributesType, version } = request;
  const [taken, duplicate] = await Promise.all([
    version === undefined ? null : api.schemaIfLive(application, attributesType, version).catch(() => null),
    api.lookup(request).catch(() => null),
  ]);
  return { taken, duplicate };
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
