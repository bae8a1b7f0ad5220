// Who still reads a version (or a type's versions), shown before anything changes its state:
// reads in the last days, how many tokens, the last read, and each reader by token name.

import { h, errorBox, plural, timeElement } from './dom.js';
import { spinner } from './loading.js';
import { tokenName } from './token-status.js';

export const USAGE_DAYS = 30;

const count = (n) => Number(n ?? 0).toLocaleString('en-US');

function reader(entry) {
  const versions = entry.versions?.length
    ? ` (${entry.versions.map((item) => `version ${item.version}: ${count(item.reads)}`).join(', ')})` : '';
  return h('li', { class: 'usage-reader', dataset: { tokenId: String(entry.token_id ?? '') } },
    h('strong', {}, tokenName(entry.token_id, entry.token_name)), `: ${plural(Number(entry.reads ?? 0), 'read')}${versions}`,
    entry.last_read ? [', last ', timeElement(entry.last_read)] : null);
}

/**
 * The usage answer (or the summary `{total_reads, readers: n, last_read}`) in words; `days`
 * is the window it counts, null for every read the registry keeps (the summary of a change).
 */
export function usageSummary(usage, { days = USAGE_DAYS } = {}) {
  const readers = Array.isArray(usage?.readers) ? usage.readers : [];
  const readerCount = Array.isArray(usage?.readers) ? readers.length : Number(usage?.readers ?? 0);
  const total = Number(usage?.total_reads ?? 0);
  const span = days ? ` in the last ${days} days` : '';
  const headline = total === 0
    ? h('p', { class: 'usage-headline' }, `Nobody read it${span || ' in the reads the registry keeps'}.`)
    : h('p', { class: 'usage-headline' }, h('strong', {}, `Read ${count(total)} time${total === 1 ? '' : 's'}`),
      ` by ${plural(readerCount, 'token')}${span}`,
      usage.last_read ? [', last ', timeElement(usage.last_read)] : null, '.');
  return h('div', { class: 'usage-summary', dataset: { totalReads: String(total), readers: String(readerCount) } },
    headline, readers.length ? h('ul', { class: 'usage-readers' }, readers.map(reader)) : null);
}

/**
 * A region that shows `load()`'s usage once it answers (a spinner until then, the failure if
 * it fails: the change can still be made, the registry does not need the usage for it).
 */
export function usagePanel(load, { title = 'Who reads it', onUnauthenticated = () => {} } = {}) {
  const body = h('div', { class: 'usage-body', 'aria-busy': 'true' }, spinner('Loading who reads it…'));
  const region = h('section', { class: 'usage-panel', id: 'usage-panel', 'aria-labelledby': 'usage-title', dataset: { loaded: 'false' } },
    h('h3', { id: 'usage-title' }, title), body);
  load().then((usage) => {
    body.replaceChildren(usageSummary(usage));
  }, (error) => {
    if (error?.unauthenticated) onUnauthenticated(error);
    body.replaceChildren(errorBox(error ?? { message: 'unknown error' }, 'Who reads it could not be loaded'));
    region.dataset.failed = 'true';
  }).finally(() => {
    body.removeAttribute('aria-busy');
    region.dataset.loaded = 'true';
  });
  return region;
}
