// A compatibility report as people read it: `{compatible, problems, groups, inherited_problems,
// compared_versions, summary}` (older servers send only `compatible` and `problems`). New
// problems come first, grouped by path; problems earlier publishes accepted are listed apart.

import { h, plural } from './dom.js';

export function compatibilityReport(compatibility, attributesType) {
  if (!compatibility) return h('p', { class: 'muted' }, 'No compatibility report in the answer.');
  const compared = compatibility.compared_versions;
  const groups = compatibility.groups
    ?? (compatibility.problems ?? []).map((problem) => ({ ...problem, new: true, version_ranges: [[problem.version, problem.version]] }));
  const fresh = groups.filter((group) => group.new);
  const inherited = groups.filter((group) => !group.new);
  const inheritedCount = compatibility.inherited_problem_count ?? compatibility.inherited_problems?.length ?? inherited.length;
  const inheritedPart = inheritedCount
    ? h('details', { class: 'compat-inherited' },
      h('summary', {}, `${plural(inheritedCount, 'inherited problem')} already accepted by earlier versions (not counted)`),
      byPath(inherited))
    : null;
  if (compatibility.compatible && fresh.length === 0) {
    if (compared && compared.length === 0) {
      return h('p', { class: 'muted compat-nothing' }, sentence(compatibility.summary ?? 'nothing to compare'));
    }
    const against = compared ? `the compared versions (${compared.join(', ')})` : 'every earlier version';
    return h('div', {}, h('p', { class: 'ok compat-ok' }, `✓ Compatible with ${against} of ${attributesType}.`), inheritedPart);
  }
  const paths = new Set(fresh.map((group) => group.path)).size;
  return h('div', { class: 'warning-box compat-warning', role: 'group', 'aria-label': 'Compatibility warning' },
    h('p', {}, h('strong', {}, '⚠ Not compatible with earlier versions. '),
      `Apps built against them would fail to decode data of this schema: ${plural(fresh.length, 'new problem')} in ${plural(paths, 'field')}:`),
    h('div', { class: 'compat-new' }, byPath(fresh)),
    inheritedPart,
    compatibility.truncated
      ? h('p', { class: 'muted compat-truncated' }, `Listed: the first ${plural(groups.length, 'group')} of ${compatibility.group_count}.`)
      : null,
    compatibility.comparison_limit_reached ? h('p', { class: 'muted' }, sentence(compatibility.summary)) : null);
}

/** One item per path (in the report's order), each listing its kinds of problem. */
function byPath(groups) {
  const paths = new Map();
  for (const group of groups) {
    if (!paths.has(group.path)) paths.set(group.path, []);
    paths.get(group.path).push(group);
  }
  return h('ul', { class: 'compat-problems' }, [...paths].map(([path, kinds]) =>
    h('li', { dataset: { path } }, h('code', { class: 'path' }, path),
      h('ul', { class: 'compat-kinds' }, kinds.map((group) => h('li', {},
        h('span', { class: 'badge problem-kind' }, group.problem.replaceAll('_', ' ')), ' ',
        h('span', { class: 'badge' }, versionsText(group)), ' ',
        group.message))))));
}

/** `versions 1–3, 7` from a group's `version_ranges` (`versions` from older servers). */
function versionsText(group) {
  const ranges = group.version_ranges ?? (group.versions ?? []).map((version) => [version, version]);
  const count = group.version_count ?? ranges.reduce((sum, [first, last]) => sum + last - first + 1, 0);
  const text = ranges.map(([first, last]) => (first === last ? `${first}` : `${first}–${last}`)).join(', ');
  return `version${count === 1 ? '' : 's'} ${text}`;
}

/** `text` with a capital first letter and a full stop. */
export function sentence(text) {
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

/** Warnings of `:validate` or Create (`[{path, message}]`), or null when there are none. */
export function warningList(warnings, id) {
  if (!warnings?.length) return null;
  return h('div', { class: 'warning-box warnings', id }, h('p', {}, h('strong', {}, `⚠ ${plural(warnings.length, 'warning')}`)),
    h('ul', {}, warnings.map((warning) => h('li', {}, warning.path ? [h('code', { class: 'path' }, warning.path), ' '] : null, warning.message))));
}
