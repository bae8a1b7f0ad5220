// "Preview push": the values typed into the form, as one Live Activity notification, through
// `live_activities:preview`. Shows the APNs headers, the exact payload with a Copy button and
// its size against APNs' 4,096-byte budget.

import { h, errorBox, plural, uniqueId } from './dom.js';
import { api } from './api.js';
import { readValues, markProblems } from './form-values.js';
import { rawMember } from './raw-json.js';
import { highlightedJSON } from './json-text.js';
import { copyButton } from './copy-button.js';

/** APNs refuses a Live Activity payload over this many bytes. */
export const PAYLOAD_BUDGET_BYTES = 4096;

const numberFormat = new Intl.NumberFormat('en-US');

/** `{element, clear}` for the version in `context` (see try-values.js). */
export function renderPushPreview(context) {
  const input = (id, label, props, hint) => {
    const hintId = hint ? `${id}-hint` : undefined;
    const control = h('input', { id, type: 'text', spellcheck: 'false', autocapitalize: 'off', 'aria-describedby': hintId, ...props });
    return {
      control,
      field: h('div', { class: 'field' }, h('label', { for: id }, label), control,
        hint ? h('p', { class: 'field-hint', id: hintId }, hint) : null),
    };
  };
  const title = input('preview-title', 'Alert title', { value: 'Your flight' });
  const content = input('preview-content', 'Alert text', { value: 'Boarding soon' }, 'On start, a title or a text is required.');
  const bundle = input('preview-bundle', 'Bundle id', { value: 'com.example.app' }, 'The APNs topic is <bundle id>.push-type.liveactivity.');
  const activity = input('preview-activity-id', 'Live Activity id', { value: 'preview-1' });
  const priority = h('select', { id: 'preview-priority' },
    h('option', { value: '10' }, '10 — deliver now'),
    h('option', { value: '5' }, '5 — when convenient'));
  const result = h('div', { id: 'preview-result', class: 'try-result', 'aria-live': 'polite' });

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
      result.replaceChildren(errorBox(error, 'The push could not be previewed'));
      return;
    }
    const { data, text } = answer;
    const problems = [...values.problems, ...(data.problems ?? [])];
    markProblems(context.formElement, problems);
    result.replaceChildren(...outcome(data, rawMember(text, ['request', 'payload']), problems));
  }

  const element = h('div', { class: 'try-part', id: 'push-preview-part' },
    h('h4', {}, 'Preview push'),
    h('p', { class: 'muted' }, 'The APNs request a push with these values would become; nothing is sent.'),
    h('div', { class: 'try-grid' }, title.field, content.field, bundle.field, activity.field,
      h('div', { class: 'field' }, h('label', { for: 'preview-priority' }, 'Priority'), priority)),
    h('div', { class: 'actions' }, h('button', { type: 'button', id: 'preview-push', class: 'primary', onclick: run }, 'Preview push')),
    result);
  return { element, clear: () => result.replaceChildren() };
}

function outcome(data, payloadText, problems) {
  const parts = [];
  const errors = problems.filter((problem) => problem.severity !== 'warning');
  parts.push(data.valid && !errors.length
    ? h('p', { class: 'check-status ok' }, '✓ This push would be accepted.')
    : h('p', { class: 'check-status bad' }, `✗ ${plural(errors.length, 'problem')}: this push would be refused.`));
  if (problems.length) {
    parts.push(h('ul', { class: 'problems', id: 'preview-problems' }, problems.map((problem) =>
      h('li', {}, h('code', { class: 'path' }, problem.path), ' ', problem.message))));
  }
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
