// "Preview push": the values typed into the form, as one Live Activity notification, through
// `live_activities:preview`. Shows the APNs headers, the exact payload with a Copy button and
// its size against APNs' 4,096-byte budget.

import { h, errorBox, plural, uniqueId } from './dom.js';
import { api } from './api.js';
import { readValues, markProblems } from './form-values.js';
import { problemSummary } from './problem-summary.js';
import { showResult } from './result-focus.js';
import { rawMember } from './raw-json.js';
import { highlightedJSON } from './json-text.js';
import { copyButton } from './copy-button.js';

/** APNs refuses a Live Activity payload over this many bytes. */
export const PAYLOAD_BUDGET_BYTES = 4096;

const numberFormat = new Intl.NumberFormat('en-US');

/** `{element, clear}` for the version in `context` (see try-values.js). */
export function renderPushPreview(context) {
  const input = (id, name, label, props, hint) => {
    const hintId = hint ? `${id}-hint` : undefined;
    const control = h('input', { id, name, type: 'text', spellcheck: 'false', autocapitalize: 'off', 'aria-describedby': hintId, ...props });
    return {
      control,
      field: h('div', { class: 'field' }, h('label', { for: id }, label), control,
        hint ? h('p', { class: 'field-hint', id: hintId }, hint) : null),
    };
  };
  const defaults = previewDefaults(context.schema.attributes_type);
  const title = input('preview-title', 'title', 'Alert title', { value: defaults.title });
  const content = input('preview-content', 'content', 'Alert text', { value: defaults.content }, 'On start, a title or a text is required.');
  const bundle = input('preview-bundle', 'bundle_id', 'Bundle id', { value: 'com.example.app' }, 'The APNs topic is <bundle id>.push-type.liveactivity.');
  const activity = input('preview-activity-id', 'live_activity_id', 'Live Activity id', { value: 'preview-1' });
  const priority = h('select', { id: 'preview-priority' },
    h('option', { value: '10' }, '10 — deliver now'),
    h('option', { value: '5' }, '5 — when convenient'));
  const result = h('div', { id: 'preview-result', class: 'try-result', 'aria-live': 'polite', tabindex: -1 });
  const grid = h('div', { class: 'try-grid' }, title.field, content.field, bundle.field, activity.field,
    h('div', { class: 'field' }, h('label', { for: 'preview-priority' }, 'Priority'), priority));

  async function run() {
    const event = context.event();
    const values = readValues(context.formElement, context.fields);
    const liveActivity = { event, 'attributes-type': context.schema.attributes_type, 'content-state': values.contentState };
    if (event === 'start') liveActivity.attributes = values.attributes;
    result.replaceChildren(h('p', { class: 'check-status pending' }, 'Composing…'));
    let answer;
    try {
      answer = await api.preview({
        application: context.application, bundle_id: bundle.control.value.trim(), schema_version: context.schema.version,
        title: title.control.value, content: content.control.value, live_activity_id: activity.control.value,
        apns_priority: Number(priority.value), live_activity: liveActivity,
      });
    } catch (error) {
      if (error.unauthenticated) context.onUnauthenticated(error);
      // A refused request ("bundle_id: must not be empty") is shown beside its field too.
      const { path, text } = error.pathAndText ?? {};
      const placed = path ? markProblems(grid, [{ path, message: text, severity: 'error' }]) : [];
      result.replaceChildren(placed.some((entry) => entry.target)
        ? h('div', { class: 'error-box' }, h('p', { class: 'check-status bad' }, '✗ The push could not be previewed.'),
          problemSummary(placed, { id: 'preview-problems', rewrite: inPageWords }))
        : errorBox(error, 'The push could not be previewed'));
      showResult(result);
      return;
    }
    const { data, text } = answer;
    const problems = [...values.problems, ...(data.problems ?? [])];
    // Problems of the push's own fields (title, content, bundle_id) go beside them, the rest
    // beside the form's fields.
    const inForm = markProblems(context.formElement, problems, context.fields);
    const inGrid = new Map(markProblems(grid, problems.map((problem) => ({ ...problem, message: inPageWords(problem.message) })))
      .map((entry, index) => [problems[index], entry.target]));
    const placed = inForm.map((entry) => ({ problem: entry.problem, target: entry.target ?? inGrid.get(entry.problem) ?? null }));
    result.replaceChildren(...outcome(data, rawMember(text, ['request', 'payload']), placed, context.fields));
    showResult(result);
  }

  const element = h('div', { class: 'try-part', id: 'push-preview-part' },
    h('h4', {}, 'Preview push'),
    h('p', { class: 'muted' }, 'The APNs request a push with these values would become; nothing is sent.'),
    grid,
    h('div', { class: 'actions' }, h('button', { type: 'button', id: 'preview-push', class: 'primary', onclick: run }, 'Preview push')),
    result);
  return { element, clear: () => result.replaceChildren() };
}

/** The push's own fields as the page labels them, for the registry's messages about them. */
const PAGE_WORDS = [
  [/^a start needs a non-empty content or title$/, 'is needed at start (or an Alert title)'],
  [/\bcontent or title\b/g, 'Alert text or Alert title'],
  [/\bbundle_id\b/g, 'Bundle id'],
  [/\blive_activity_id\b/g, 'Live Activity id'],
];
const inPageWords = (text) => PAGE_WORDS.reduce((out, [pattern, words]) => out.replace(pattern, words), text);

/**
 * An alert title and text from the type's name (`FlightAttributes` → "Flight update",
 * "Flight: new details"), not the same flight text for every type.
 */
export function previewDefaults(attributesType) {
  const base = String(attributesType).replace(/(Activity)?Attributes$/, '') || String(attributesType);
  const words = base.replace(/(?<=[\p{Ll}\p{Nd}])(?=\p{Lu})/gu, ' ').replace(/[_-]+/g, ' ').trim() || 'Activity';
  return { title: `${words} update`, content: `${words}: new details` };
}

function outcome(data, payloadText, placed, fields) {
  const parts = [];
  const problems = placed.map((entry) => entry.problem);
  const errors = problems.filter((problem) => problem.severity !== 'warning');
  parts.push(data.valid && !errors.length
    ? h('p', { class: 'check-status ok' }, '✓ This push would be accepted.')
    : h('p', { class: 'check-status bad' }, `✗ ${plural(errors.length, 'problem')}: this push would be refused.`));
  if (problems.length) parts.push(problemSummary(placed, { fields, id: 'preview-problems', rewrite: inPageWords }));
  const request = data.request;
  if (!request) {
    parts.push(h('p', { class: 'muted' }, 'No payload: the push API would refuse this notification before composing one.'));
    return parts;
  }
  const exact = payloadText ?? JSON.stringify(request.payload);
  parts.push(
    h('h5', {}, 'APNs headers'),
    h('dl', { class: 'apns-headers', id: 'preview-headers' }, Object.entries(request.headers ?? {}).map(([name, value]) =>
      [h('dt', {}, h('code', {}, name)), h('dd', {}, h('code', {}, value))])),
    h('h5', {}, 'Payload'),
    budget(request.payload_bytes),
    h('div', { class: 'label-row' }, h('span', { class: 'muted' }, 'Exactly as sent:'), copyButton(() => exact, 'Copy payload')),
    // Focusable, so a keyboard can scroll a long payload.
    h('pre', { class: 'code payload-raw', id: 'preview-payload', tabindex: 0, 'aria-label': 'Payload as sent' }, exact),
    h('details', { class: 'payload-pretty' }, h('summary', {}, 'Formatted'),
      h('pre', { class: 'code json-view', tabindex: 0, 'aria-label': 'Payload, formatted' }, highlightedJSON(exact))));
  return parts;
}

/** "254 of 4,096 bytes (6 %)", with a meter; over the budget in the danger colour. */
function budget(bytes) {
  const id = uniqueId('budget');
  const over = bytes > PAYLOAD_BUDGET_BYTES;
  const percent = Math.round((bytes / PAYLOAD_BUDGET_BYTES) * 100);
  return h('p', { class: `payload-budget${over ? ' over' : ''}`, id: 'preview-size' },
    h('span', { id }, `${numberFormat.format(bytes)} of ${numberFormat.format(PAYLOAD_BUDGET_BYTES)} bytes (${percent} %)`,
      over ? ` — ${numberFormat.format(bytes - PAYLOAD_BUDGET_BYTES)} bytes over APNs' limit` : ''),
    ' ',
    h('meter', { min: 0, max: PAYLOAD_BUDGET_BYTES, low: 3072, high: 3800, optimum: 0, value: bytes, 'aria-labelledby': id }));
}
