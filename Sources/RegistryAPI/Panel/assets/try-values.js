// "Try values" under a version's form: one event choice shared by "Check values" and
// "Preview push", which both read what was typed into the form.

import { h } from './dom.js';
import { fieldsByPath } from './form-values.js';
import { renderCheckValues } from './check-values.js';
import { renderPushPreview } from './push-preview.js';

const EVENTS = [
  { value: 'start', label: 'start' },
  { value: 'update', label: 'update' },
  { value: 'end', label: 'end' },
];

/** The section for `schema` (a Schema of the API) whose form is drawn in `formElement`. */
export function renderTryValues({ application, schema, form, formElement, onUnauthenticated }) {
  const eventSelect = h('select', { id: 'try-event', name: 'event', 'aria-describedby': 'try-event-hint' },
    EVENTS.map((event) => h('option', { value: event.value }, event.label)));
  const context = {
    application, schema, formElement, onUnauthenticated,
    fields: fieldsByPath(form),
    event: () => eventSelect.value,
  };
  const check = renderCheckValues(context);
  const preview = renderPushPreview(context);
  eventSelect.addEventListener('change', () => { check.refresh(); preview.clear(); });
  return h('section', { class: 'try-values', 'aria-labelledby': 'try-title' },
    h('h3', { id: 'try-title' }, 'Try values'),
    h('p', { class: 'muted' }, 'Fill in the form above, then check the values against this version or preview the push they make. ',
      'Date and time fields are read as UTC.'),
    h('div', { class: 'field try-event' },
      h('label', { for: 'try-event' }, 'Event'),
      eventSelect,
      h('p', { class: 'field-hint', id: 'try-event-hint' }, 'start begins the activity (attributes and content); update and end send new content only.')),
    check.element,
    preview.element);
}
