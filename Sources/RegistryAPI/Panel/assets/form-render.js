// Renders a form descriptor ({content, attributes} of GET …/form or :validate) as live inputs.
// Input names are the descriptor paths (`content-state.gate`, `attributes.flightNumber`, list
// items `content-state.stops[0].name`), exactly what a journey builder would submit.

import { h, uniqueId, plural } from './dom.js';

const SECTIONS = [
  {
    key: 'content', root: 'content-state', title: 'Content (ContentState)',
    about: 'Changes while the activity runs. A journey may leave a field out, except those marked * needed by the app: the app cannot decode its content without them.',
    free: 'The schema has no root properties: a journey builder shows a raw JSON editor.',
  },
  {
    key: 'attributes', root: 'attributes', title: 'Attributes (ActivityAttributes)',
    about: 'Set once when the activity starts.',
    free: 'The schema has no attributes section: a journey builder shows a free name/value list.',
  },
];

/** The whole form; `label` names it for assistive technology. */
export function renderForm(form, { label } = {}) {
  const element = h('form', {
    class: 'generated-form', novalidate: true,
    'aria-label': label ?? `Form of ${form.attributes_type}${form.version ? ` version ${form.version}` : ''}`,
    onsubmit: (event) => event.preventDefault(),
  });
  element.append(h('p', { class: 'muted small-print' },
    h('span', { class: 'req', 'aria-hidden': 'true' }, '*'), ' marks a required attribute, or a content field needed by the app.'));
  for (const section of SECTIONS) element.append(renderSection(section, form[section.key]));
  return element;
}

function renderSection(section, descriptor) {
  const fieldset = h('fieldset', { class: 'form-section', dataset: { section: section.key } },
    h('legend', {}, section.title),
    h('p', { class: 'muted' }, section.about));
  if (!descriptor || descriptor.mode === 'free') {
    fieldset.append(h('p', { class: 'note' }, section.free),
      section.key === 'attributes' ? renderFreeList(section.root) : renderRawEditor(section.root));
  } else if (!descriptor.fields?.length) {
    fieldset.append(h('p', { class: 'note' }, 'No fields.'));
  } else {
    for (const field of descriptor.fields) fieldset.append(renderField(field, (path) => path));
  }
  if (typeof descriptor?.max_payload_bytes === 'number') {
    fieldset.append(h('p', { class: 'muted' }, `At most ${descriptor.max_payload_bytes} bytes of JSON in the worst case.`));
  }
  return fieldset;
}

/** One descriptor field. `rename` maps descriptor paths to input names (list indices). */
export function renderField(field, rename, labelText = field.label) {
  switch (field.widget) {
    case 'group': return renderGroup(field, rename, labelText);
    case 'list': return renderList(field, rename, labelText);
    case 'choice': return renderChoice(field, rename, labelText);
    case 'toggle': return renderToggle(field, rename, labelText);
    default: return renderInput(field, rename, labelText);
  }
}

/**
 * The mark after a label: `*` for a required attribute; `* needed by the app` (visible, so the
 * reason is plain) for a content field the schema's root `required` lists (`needed_by_app`):
 * a journey may omit other content fields, but not these.
 */
function requiredMark(field, { spoken = false } = {}) {
  if (field.needed_by_app === true) {
    return h('span', { class: 'req needed-by-app', title: 'needed by the app', dataset: { neededByApp: 'true' } },
      h('span', { 'aria-hidden': 'true' }, ' *'), h('span', { class: 'needed-text' }, ' needed by the app'));
  }
  if (!field.required) return null;
  return h('span', { class: 'req', title: 'required' },
    h('span', { 'aria-hidden': 'true' }, ' *'),
    spoken ? h('span', { class: 'visually-hidden' }, ' (required)') : null);
}

/** The line under a field: type, description, constraints, encoding. */
function hint(field, id) {
  const parts = [];
  const c = field.constraints ?? {};
  parts.push(h('code', { class: 'type' }, field.nullable ? `${field.type} or null` : field.type));
  if (field.description) parts.push(field.description);
  if (c.format) parts.push(`format ${c.format}`);
  if (c.min_length !== undefined && c.max_length !== undefined) parts.push(`${c.min_length}–${c.max_length} characters`);
  else if (c.max_length !== undefined) parts.push(`at most ${plural(c.max_length, 'character')}`);
  else if (c.min_length !== undefined) parts.push(`at least ${plural(c.min_length, 'character')}`);
  if (c.pattern !== undefined) parts.push(h('span', {}, 'matches ', h('code', {}, c.pattern)));
  if (c.minimum !== undefined) parts.push(`≥ ${c.minimum}`);
  if (c.exclusive_minimum !== undefined) parts.push(`> ${c.exclusive_minimum}`);
  if (c.maximum !== undefined) parts.push(`≤ ${c.maximum}`);
  if (c.exclusive_maximum !== undefined) parts.push(`< ${c.exclusive_maximum}`);
  if (c.multiple_of !== undefined) parts.push(`multiple of ${c.multiple_of}`);
  if (c.min_items !== undefined) parts.push(`at least ${plural(c.min_items, 'item')}`);
  if (c.max_items !== undefined) parts.push(`at most ${plural(c.max_items, 'item')}`);
  if (field.encoding === 'apple-reference-seconds') {
    parts.push(h('strong', { class: 'encoding' }, 'sent as seconds since 2001-01-01 00:00 UTC (Swift Date)'));
  } else if (field.encoding) {
    parts.push(`encoding ${field.encoding}`);
  }
  const element = h('p', { class: 'field-hint', id });
  parts.forEach((part, index) => element.append(index ? ' · ' : '', part));
  return element;
}

function defaultText(field) {
  if (field.default === undefined || field.default === null) return undefined;
  if (field.widget === 'json') return JSON.stringify(field.default, null, 2);
  return typeof field.default === 'string' ? field.default : JSON.stringify(field.default);
}

const DATETIME_INPUT = { date: 'date', time: 'time' };

function control(field, name, id, hintId) {
  const c = field.constraints ?? {};
  const common = {
    id, name, 'aria-describedby': hintId, required: field.required, dataset: { path: field.path, widget: field.widget },
  };
  switch (field.widget) {
    case 'text':
      // No maxlength: a browser would cut what is typed and the length problem would never show.
      return h('input', { ...common, type: 'text', value: defaultText(field) });
    case 'textarea':
      return h('textarea', { ...common, rows: 4, value: defaultText(field) });
    case 'number':
      // Text, not type=number: a browser empties a number input given "ten", and the
      // problem would be a missing value instead of what was typed.
      return h('input', {
        ...common, type: 'text', inputmode: field.type === 'integer' ? 'numeric' : 'decimal', spellcheck: 'false',
        autocomplete: 'off', value: defaultText(field),
      });
    case 'select':
      return renderSelect(field, common);
    case 'datetime':
      return h('input', { ...common, type: DATETIME_INPUT[c.format] ?? 'datetime-local', step: c.format === 'date' ? undefined : 1 });
    case 'url':
      return h('input', { ...common, type: 'url', placeholder: 'https://…', value: defaultText(field) });
    case 'color':
      return h('input', { ...common, type: 'color', value: /^#[0-9a-f]{6}$/i.test(field.default ?? '') ? field.default : undefined });
    default:
      return h('textarea', {
        ...common, class: 'code', rows: 3, spellcheck: 'false', dataset: { path: field.path, widget: 'json' },
        placeholder: field.type === 'object' ? '{ }' : 'any JSON value', value: defaultText({ ...field, widget: 'json' }),
      });
  }
}

function renderSelect(field, common) {
  const select = h('select', common);
  if (!field.required || field.nullable) select.append(h('option', { value: '' }, field.nullable ? '— null —' : '— none —'));
  const chosen = field.default === undefined ? undefined : JSON.stringify(field.default);
  for (const option of field.options ?? []) {
    const value = JSON.stringify(option.value);
    select.append(h('option', { value, selected: value === chosen }, option.label));
  }
  return select;
}

function renderInput(field, rename, labelText) {
  const id = uniqueId('field');
  const hintId = `${id}-hint`;
  return h('div', { class: `field widget-${field.widget}` },
    h('label', { for: id }, labelText, requiredMark(field)),
    control(field, rename(field.path), id, hintId),
    hint(field, hintId));
}

function renderToggle(field, rename, labelText) {
  const id = uniqueId('field');
  const hintId = `${id}-hint`;
  return h('div', { class: 'field widget-toggle' },
    h('div', { class: 'toggle-row' },
      h('input', {
        id, type: 'checkbox', role: 'switch', name: rename(field.path), 'aria-describedby': hintId,
        checked: field.default === true, dataset: { path: field.path, widget: 'toggle', required: field.required ? 'true' : 'false' },
        // Sent only once set: an untouched optional switch is absent from the payload, not false.
        onchange: (event) => { event.target.dataset.touched = 'true'; },
      }),
      h('label', { for: id }, labelText, requiredMark(field, { spoken: true }))),
    hint(field, hintId));
}

function renderGroup(field, rename, labelText) {
  const hintId = uniqueId('group-hint');
  const fieldset = h('fieldset', { class: 'group', 'aria-describedby': hintId, dataset: { path: field.path, widget: 'group' } },
    h('legend', {}, labelText, requiredMark(field, { spoken: true })),
    hint(field, hintId));
  if (!field.fields?.length) fieldset.append(h('p', { class: 'note' }, 'No fields.'));
  for (const child of field.fields ?? []) fieldset.append(renderField(child, rename));
  return fieldset;
}

/**
 * An enum with associated values: a select of its cases, then the chosen case's fields. The
 * select stands for the value `{"case": {}}` and the case's fields (paths `choice.case.field`)
 * fill it, so what is built is `{"case": {…fields…}}`; only the chosen case's fields exist.
 */
function renderChoice(field, rename, labelText) {
  const id = uniqueId('field');
  const hintId = `${id}-hint`;
  const cases = field.cases ?? [];
  const chosen = field.default && typeof field.default === 'object' && !Array.isArray(field.default)
    ? Object.keys(field.default)[0] : undefined;
  const select = h('select', {
    id, name: rename(field.path), 'aria-describedby': hintId, required: field.required,
    dataset: { path: field.path, widget: 'choice' }, onchange: () => showCase(),
  });
  if (!field.required) select.append(h('option', { value: '' }, '— none —'));
  for (const option of cases) select.append(h('option', { value: option.key, selected: option.key === chosen }, option.label));
  const caseFields = h('div', { class: 'choice-fields' });
  function showCase() {
    const option = cases.find((candidate) => candidate.key === select.value);
    caseFields.replaceChildren(...(option?.fields ?? []).map((child) => renderField(child, rename)));
    if (option && !option.fields?.length) caseFields.append(h('p', { class: 'note' }, `${option.label} has no fields.`));
  }
  const fieldset = h('fieldset', { class: 'group choice', 'aria-describedby': hintId, dataset: { path: field.path, widget: 'choice' } },
    h('legend', {}, labelText, requiredMark(field, { spoken: true })),
    hint(field, hintId),
    h('div', { class: 'field widget-select' }, h('label', { for: id }, 'Case'), select),
    caseFields);
  showCase();
  return fieldset;
}

/** An array: its items rendered from `item`, with add and remove buttons. */
function renderList(field, rename, labelText) {
  const listName = rename(field.path);
  const c = field.constraints ?? {};
  const hintId = uniqueId('list-hint');
  const items = h('ol', { class: 'list-items' });
  const empty = h('p', { class: 'muted list-empty' }, 'No items.');
  const add = h('button', { type: 'button', class: 'secondary small', onclick: () => { addItem(); focusLast(); } },
    `Add to ${labelText}`);
  const fieldset = h('fieldset', { class: 'group list', 'aria-describedby': hintId, dataset: { path: field.path, widget: 'list' } },
    h('legend', {}, labelText, requiredMark(field, { spoken: true })),
    hint(field, hintId), items, empty, add);

  const prefix = `${field.path}[]`;
  const renameItem = (index) => (path) =>
    rename(path.startsWith(prefix) ? `${field.path}[${index}]${path.slice(prefix.length)}` : path);

  function update() {
    [...items.children].forEach((item, index) => {
      const old = Number(item.dataset.index);
      if (old !== index) {
        for (const input of item.querySelectorAll('[name]')) {
          input.name = input.name.replace(`${listName}[${old}]`, `${listName}[${index}]`);
        }
        item.dataset.index = String(index);
      }
      const remove = item.querySelector(':scope > .remove-item');
      remove.textContent = `Remove item ${index + 1}`;
      const heading = item.querySelector(':scope > .field > label, :scope > fieldset > legend, :scope > .field .toggle-row > label');
      if (heading?.firstChild?.nodeType === Node.TEXT_NODE) heading.firstChild.textContent = `${field.item?.label ?? 'Item'} ${index + 1}`;
    });
    const count = items.children.length;
    empty.hidden = count > 0;
    add.disabled = c.max_items !== undefined && count >= c.max_items;
  }

  function addItem() {
    const index = items.children.length;
    const item = h('li', { class: 'list-item', dataset: { index: String(index) } });
    if (field.item) {
      item.append(renderField(field.item, renameItem(index), `${field.item.label ?? 'Item'} ${index + 1}`));
    }
    item.append(h('button', {
      type: 'button', class: 'link remove-item',
      onclick: () => { item.remove(); update(); add.focus(); },
    }, `Remove item ${index + 1}`));
    items.append(item);
    update();
  }

  function focusLast() {
    items.lastElementChild?.querySelector('input, select, textarea')?.focus();
  }

  const initial = Math.max(c.min_items ?? 0, Array.isArray(field.default) ? field.default.length : 0);
  for (let i = 0; i < Math.min(initial, 50); i += 1) addItem();
  update();
  return fieldset;
}

/** The attributes' free name/value list shown when the schema has no `attributes` section. */
function renderFreeList(root) {
  const rows = h('ol', { class: 'list-items free-list' });
  const add = h('button', { type: 'button', class: 'secondary small', onclick: () => addRow(true) }, 'Add an attribute');
  function addRow(focus) {
    const index = rows.children.length + 1;
    const nameId = uniqueId('free-name');
    const valueId = uniqueId('free-value');
    const row = h('li', { class: 'free-row' },
      h('div', { class: 'field' }, h('label', { for: nameId }, `Name ${index}`), h('input', { id: nameId, type: 'text', name: `${root}[][name]` })),
      h('div', { class: 'field' }, h('label', { for: valueId }, `Value ${index}`), h('input', { id: valueId, type: 'text', name: `${root}[][value]` })));
    row.append(h('button', { type: 'button', class: 'link remove-item', onclick: () => { row.remove(); add.focus(); } }, `Remove attribute ${index}`));
    rows.append(row);
    if (focus) row.querySelector('input').focus();
  }
  addRow(false);
  return h('div', { class: 'free-list-wrap' }, rows, add);
}

function renderRawEditor(root) {
  const id = uniqueId('raw');
  return h('div', { class: 'field widget-json' },
    h('label', { for: id }, 'Content state (JSON)'),
    h('textarea', { id, name: root, class: 'code', rows: 4, spellcheck: 'false', placeholder: '{ }' }));
}
