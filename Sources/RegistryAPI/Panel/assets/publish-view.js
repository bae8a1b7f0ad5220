// The publish view: type, optional version, schema text; a live dry run beside it.

import { h, append, debounce, errorBox, formatTimestamp } from './dom.js';
import { api } from './api.js';
import { renderForm } from './form-render.js';
import { prettyJSON, characterIndex } from './json-text.js';
import { confirmPublish } from './dialogs.js';
import { compatibilityReport, warningList } from './compat-report.js';
import { rememberPublished } from './publish-report.js';
import { identity, identityWarnings, versionSource } from './publish-identity.js';
import { drafts } from './drafts.js';
import { formChanges } from './draft-diff.js';
import { changesTable } from './diff-view.js';

export { compatibilityReport };

const MAX_SCHEMA_BYTES = 65536;
const DRY_RUN_DELAY_MS = 400;

export const EXAMPLE_SCHEMA = prettyJSON(JSON.stringify({
  type: 'object',
  properties: {
    gate: { type: 'string', title: 'Gate', maxLength: 8 },
    status: { type: 'string', enum: ['scheduled', 'boarding', 'departed'] },
    estimatedTime: { type: 'string', format: 'date-time' },
  },
  attributes: {
    properties: { flightNumber: { type: 'string' } },
    required: ['flightNumber'],
  },
}));

/**
 * Fills `container` with the editor. `onPublished(result)` gets the Create response;
 * `onUnauthenticated(error)` is called when the token is rejected. `newest` is the type's
 * newest live version (null for a first schema), `versions` all of them. What is typed is kept
 * as a draft of the application and type (drafts.js) and restored when the editor opens again.
 * Returns `{application, draftType, isEdited()}` for the workspace's leave prompt.
 */
export function renderPublishView(container, options) {
  const { application, types, attributesType = '', schemaText = EXAMPLE_SCHEMA, newest = null, versions = [] } = options;
  const draftType = attributesType;
  const draft = drafts.get(application, draftType);
  const versionsOf = versionSource(application, attributesType ? { [attributesType]: versions } : {});
  const typeInput = h('input', {
    id: 'publish-type', name: 'attributesType', type: 'text', required: true, list: 'publish-type-options',
    value: attributesType, spellcheck: 'false', autocapitalize: 'off', maxlength: 256, 'aria-describedby': 'publish-type-hint',
  });
  const versionInput = h('input', {
    id: 'publish-version', name: 'version', type: 'number', min: 1, max: 2147483647, step: 1, inputmode: 'numeric',
    placeholder: 'next free', 'aria-describedby': 'publish-version-hint',
  });
  const schemaInput = h('textarea', {
    id: 'publish-schema', name: 'jsonSchema', class: 'code editor', rows: 20, required: true, spellcheck: 'false',
    autocapitalize: 'off', autocomplete: 'off', value: schemaText, 'aria-describedby': 'publish-schema-hint publish-schema-size',
  });
  const size = h('span', { id: 'publish-schema-size', class: 'muted' });
  const checkArea = h('div', { id: 'publish-check', class: 'check', tabindex: -1, 'aria-live': 'polite' });
  const draftNote = h('div', { id: 'draft-note' });
  const publishError = h('div', { id: 'publish-error', role: 'alert' });
  const submit = h('button', { type: 'submit', id: 'publish-submit', class: 'primary' }, 'Publish…');
  const statusNear = h('a', {
    href: '#publish-check', id: 'check-status-near', class: 'check-near pending',
    onclick: (event) => { event.preventDefault(); checkArea.scrollIntoView({ block: 'start' }); checkArea.focus({ preventScroll: true }); },
  });

  const form = h('form', { id: 'publish-form', class: 'publish-form', novalidate: true },
    h('div', { class: 'field' },
      h('label', { for: 'publish-type' }, 'Attributes type ', h('span', { class: 'req', 'aria-hidden': 'true' }, '*')),
      typeInput,
      h('datalist', { id: 'publish-type-options' }, types.map((type) => h('option', { value: type }))),
      h('p', { class: 'field-hint', id: 'publish-type-hint' }, 'The Swift ActivityAttributes type name, e.g. FlightAttributes.')),
    h('div', { class: 'field' },
      h('label', { for: 'publish-version' }, 'Version (optional)'),
      versionInput,
      h('p', { class: 'field-hint', id: 'publish-version-hint' },
        'Leave empty for the next free version. Numbers are never reused, not even after a delete.')),
    h('div', { class: 'field' },
      h('div', { class: 'label-row' },
        h('label', { for: 'publish-schema' }, 'JSON Schema ', h('span', { class: 'req', 'aria-hidden': 'true' }, '*')),
        h('button', { type: 'button', class: 'link', id: 'publish-format', onclick: format }, 'Format JSON')),
      schemaInput,
      h('p', { class: 'field-hint', id: 'publish-schema-hint' },
        'ContentState fields go in ', h('code', {}, 'properties'), '; ActivityAttributes fields in ',
        h('code', {}, 'attributes.properties'), ' with an optional ', h('code', {}, 'attributes.required'), '. ', size)),
    publishError,
    h('div', { class: 'actions' },
      submit,
      h('button', { type: 'button', class: 'secondary', onclick: () => options.onCancel() }, 'Cancel'),
      statusNear));

  container.replaceChildren(
    h('h2', { id: 'publish-title' }, 'Publish a schema version'),
    h('p', { class: 'muted' }, `Application ${application}. Every change is checked with a dry run; nothing is written until you confirm. `,
      'What you type is kept in this tab as a draft until you publish it.'),
    draftNote,
    h('div', { class: 'publish-layout' }, form,
      h('section', { class: 'check-pane', 'aria-labelledby': 'check-title' }, h('h3', { id: 'check-title' }, 'Dry run'), checkArea)));

  // --- the dry run ----------------------------------------------------------------------

  let sequence = 0;
  let latest = null; // {key, promise}

  function publishRequest() {
    const request = { application, attributesType: typeInput.value.trim(), jsonSchema: schemaInput.value };
    if (versionInput.value !== '') request.version = Number(versionInput.value);
    return request;
  }

  /** Runs (or reuses) the dry run for the current input: {request, result} or {request, error}. */
  function runCheck() {
    const request = publishRequest();
    const key = JSON.stringify(request);
    if (latest?.key === key) {
      // Same input as the last check: its answer stands (shown again if marked stale meanwhile).
      const { seq } = latest;
      latest.promise.then((outcome) => {
        if (seq !== sequence || !checkArea.classList.contains('busy')) return;
        checkArea.classList.remove('busy');
        if (!outcome.error?.unauthenticated) showOutcome(outcome);
      });
      return latest.promise;
    }
    const mine = ++sequence;
    let promise;
    if (!request.attributesType || !request.jsonSchema.trim()) {
      promise = Promise.resolve({ request, incomplete: true });
    } else {
      checkArea.classList.add('busy');
      setStatus('pending', 'Checking…');
      promise = Promise.all([
        api.validate(request).then((result) => ({ request, result }), (error) => ({ request, error })),
        identity(request, versionsOf),
        newestForm(),
      ]).then(([outcome, found, before]) => ({ ...outcome, ...found, before }));
    }
    latest = { key, promise, seq: mine };
    promise.then((outcome) => {
      if (mine !== sequence) return; // a newer check superseded this one
      checkArea.classList.remove('busy');
      if (outcome.error?.unauthenticated) options.onUnauthenticated(outcome.error);
      else showOutcome(outcome);
    });
    return promise;
  }

  const scheduleCheck = debounce(runCheck, DRY_RUN_DELAY_MS);

  /** The shown verdict no longer matches the text: say so until the new answer arrives. */
  function markStale() {
    if (latest?.key === JSON.stringify(publishRequest())) return;
    const status = checkArea.querySelector('#check-status');
    if (status) {
      status.className = 'check-status pending';
      status.textContent = 'Checking…';
      statusNear.className = 'check-near pending';
      statusNear.textContent = 'Dry run: Checking…';
    } else {
      setStatus('pending', 'Checking…');
    }
    checkArea.classList.add('busy');
  }

  function setStatus(kind, text) {
    checkArea.replaceChildren(h('p', { class: `check-status ${kind}`, id: 'check-status' }, text));
    statusNear.className = `check-near ${kind}`;
    statusNear.textContent = `Dry run: ${text}`;
  }

  function showOutcome(outcome) {
    if (outcome.incomplete) {
      setStatus('pending', 'Enter an attributes type and a schema to check them.');
    } else if (outcome.result) {
      const { result } = outcome;
      setStatus(...headline(outcome));
      append(checkArea, [
        identityWarnings(outcome),
        compatibilityReport(result.compatibility, outcome.request.attributesType),
        warningList(result.warnings, 'check-warnings'),
        draftChanges(outcome),
        h('h4', {}, 'Form preview'),
        result.form ? renderForm(result.form, { label: 'Form preview' }) : h('p', { class: 'muted' }, 'No form in the answer.'),
      ]);
    } else if (refusedReport(outcome.error)) {
      setStatus('bad', '✗ The compatibility policy of this type refuses this schema.');
      append(checkArea, [
        compatibilityReport(refusedReport(outcome.error), outcome.request.attributesType),
        h('p', { class: 'muted' }, 'Publishing is refused while the policy enforces reject; an admin can change it on the version page (Policy).'),
      ]);
    } else if (isRuleViolation(outcome.error)) {
      setStatus('bad', '✗ This schema cannot be published yet.');
      checkArea.append(problemList(outcome.error));
    } else {
      setStatus('pending', 'The dry run is unavailable; the registry still checks the schema when you publish.');
      checkArea.append(errorBox(outcome.error));
    }
  }

  function problemList(error) {
    const { path, text } = error.pathAndText;
    const item = h('li', { class: 'problem' }, path ? [h('code', { class: 'path' }, path), ' '] : null, text);
    const byte = /\(byte (\d+)\)/.exec(text);
    if (byte) {
      item.append(' ', h('button', {
        type: 'button', class: 'link', onclick: () => {
          const at = characterIndex(schemaInput.value, Number(byte[1]));
          schemaInput.focus();
          schemaInput.setSelectionRange(at, Math.min(at + 1, schemaInput.value.length));
        },
      }, 'Show in the editor'));
    }
    return h('ul', { class: 'problems', id: 'check-problems' }, item);
  }

  /** The newest version's form, asked once: what the draft's changes are measured against. */
  let newestFormPromise = null;
  function newestForm() {
    if (!newest || typeInput.value.trim() !== newest.attributes_type) return Promise.resolve(null);
    newestFormPromise ??= api.form(application, newest.attributes_type, newest.version).catch(() => { newestFormPromise = null; return null; });
    return newestFormPromise;
  }

  function draftChanges(outcome) {
    if (!outcome.before || !outcome.result.form) return null;
    const changes = formChanges(outcome.before, outcome.result.form, outcome.result.compatibility);
    return h('section', { class: 'draft-changes', id: 'draft-changes', 'aria-labelledby': 'draft-changes-title' },
      h('h4', { id: 'draft-changes-title' }, `What changes against version ${newest.version}`),
      changesTable(changes, `version ${newest.version}`, 'this draft', { id: 'draft-diff' }));
  }

  // --- the draft ------------------------------------------------------------------------

  const startText = schemaText;
  const isEdited = () => schemaInput.value !== startText || versionInput.value !== '' || typeInput.value !== attributesType;

  function keepDraft() {
    if (isEdited()) drafts.save(application, draftType, { typed: typeInput.value, version: versionInput.value, jsonSchema: schemaInput.value });
    else drafts.remove(application, draftType);
  }

  function restoreDraft() {
    if (!draft) return;
    typeInput.value = draft.attributesType ?? attributesType;
    versionInput.value = draft.version ?? '';
    schemaInput.value = draft.jsonSchema;
    draftNote.replaceChildren(h('div', { class: 'notice draft-restored', id: 'draft-restored', role: 'status' },
      h('p', {}, h('strong', {}, 'Your unsaved draft is back'), draft.saved ? ` (last typed ${formatTimestamp(draft.saved)}).` : '.'),
      h('button', { type: 'button', class: 'link', id: 'draft-discard', onclick: discardDraft }, 'Discard the draft and start again')));
  }

  function discardDraft() {
    drafts.remove(application, draftType);
    typeInput.value = attributesType;
    versionInput.value = '';
    schemaInput.value = startText;
    draftNote.replaceChildren();
    onChange();
    schemaInput.focus();
  }

  // --- editor helpers -------------------------------------------------------------------

  function updateSize() {
    const bytes = new TextEncoder().encode(schemaInput.value).length;
    size.textContent = `${bytes} of ${MAX_SCHEMA_BYTES} bytes.`;
    size.classList.toggle('over', bytes > MAX_SCHEMA_BYTES);
  }

  function format() {
    try {
      JSON.parse(schemaInput.value);
    } catch {
      runCheck();
      return;
    }
    schemaInput.value = prettyJSON(schemaInput.value);
    onChange();
  }

  function onChange() {
    keepDraft();
    updateSize();
    publishError.replaceChildren();
    markStale();
    scheduleCheck();
  }

  // --- publishing -----------------------------------------------------------------------

  async function onSubmit(event) {
    event.preventDefault();
    publishError.replaceChildren();
    scheduleCheck.cancel();
    if (!typeInput.value.trim()) {
      publishError.replaceChildren(h('p', { class: 'error-box' }, 'Enter the attributes type.'));
      typeInput.focus();
      return;
    }
    const outcome = await runCheck();
    if (outcome.error?.unauthenticated) return;
    if (outcome.incomplete || isRuleViolation(outcome.error)) {
      publishError.replaceChildren(h('p', { class: 'error-box' }, 'Fix the problems the dry run shows first.'));
      checkArea.focus();
      return;
    }
    const { request } = outcome;
    const incompatible = outcome.result && !outcome.result.compatibility?.compatible;
    const title = `Publish ${request.attributesType} ${request.version ? `version ${request.version}` : '(next free version)'}?`;
    const body = [
      identityWarnings(outcome, 'confirm-'),
      h('p', {}, 'Application ', h('code', {}, application), '. Published versions are immutable.'),
      // Warnings are short; a long compatibility report must not push them out of view.
      outcome.result ? warningList(outcome.result.warnings, 'confirm-warnings') : null,
      outcome.result
        ? compatibilityReport(outcome.result.compatibility, request.attributesType)
        : h('div', { class: 'warning-box' }, h('p', {}, 'Compatibility could not be checked: ', outcome.error.message)),
    ];
    const risky = incompatible || !outcome.result || Boolean(outcome.taken || outcome.duplicate);
    if (!(await confirmPublish(title, body.filter(Boolean), { risky }))) return;
    submit.disabled = true;
    try {
      const result = await api.publish(request);
      drafts.remove(application, draftType);
      rememberPublished(result);
      options.onPublished(result);
    } catch (error) {
      if (error.unauthenticated) options.onUnauthenticated(error);
      else {
        const report = refusedReport(error);
        publishError.replaceChildren(report
          ? h('div', { class: 'error-box' }, h('p', {}, h('strong', {}, 'Not published. '), error.message), compatibilityReport(report, request.attributesType))
          : errorBox(error, 'Not published'));
        publishError.scrollIntoView({ block: 'nearest' });
      }
    } finally {
      submit.disabled = false;
    }
  }

  for (const input of [typeInput, versionInput, schemaInput]) input.addEventListener('input', onChange);
  form.addEventListener('submit', onSubmit);
  restoreDraft();
  updateSize();
  runCheck();
  return { application, draftType, isEdited };
}

/**
 * The dry run's verdict in one line, saying what the findings below it say: a break of
 * earlier versions or a taken number is not a green "passes".
 */
function headline({ result, taken, duplicate, request }) {
  if (taken) return ['bad', `✗ Version ${request.version} already exists: publishing it again is refused.`];
  if (result.compatibility?.compatible === false) {
    return ['warn', '⚠ Publishable, but not compatible with earlier versions: apps built against them would break.'];
  }
  const warnings = (result.warnings?.length ?? 0) + (duplicate ? 1 : 0);
  if (warnings) return ['warn', `⚠ Passes every publishing rule, with ${warnings === 1 ? 'a warning' : `${warnings} warnings`} below.`];
  return ['ok', '✓ Passes every publishing rule.'];
}

/** The compatibility report of a 409 refusal (policy `reject` or `requireCompatible`), if any. */
function refusedReport(error) {
  return error?.status === 409 ? error.details.find((detail) => detail?.['@type'] === 'compatibility_report') ?? null : null;
}

/** A 400 or 409 answer: the schema (or the request) breaks a rule; anything else is an outage. */
function isRuleViolation(error) {
  return Boolean(error) && (error.status === 400 || error.status === 409 || error.status === 403);
}
