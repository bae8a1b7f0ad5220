// "Policy": the compatibility policy in force for a type, and with an admin token a form to
// set the type's own policy (mode, enforcement, oldest supported version) or remove it.
// `scope` is the token's (GET /api/token, asked once at sign-in); the registry still refuses
// a change from any other scope.

import { $, h, append, errorBox, timeElement } from './dom.js';
import { api } from './api.js';
import { confirmAction } from './dialogs.js';

const MODES = {
  none: 'none — no comparison',
  backward: 'backward — against the newest live version',
  backward_transitive: 'backward transitive — against every live version from the oldest supported one',
};
const ENFORCEMENTS = { warn: 'warn — publish and report', reject: 'reject — refuse an incompatible version' };
const SOURCES = {
  type: 'set for this type', application: "the application's policy", default: 'the built-in default',
};

export function renderPolicyView({ application, attributesType, scope, onUnauthenticated }) {
  const container = h('div', { class: 'policy-view', id: 'policy-view', 'aria-live': 'polite' },
    h('p', { class: 'check-status pending' }, 'Loading the policy…'));

  async function load() {
    try {
      show(await api.policy(application, attributesType), scope === 'admin');
    } catch (error) {
      if (error.unauthenticated) onUnauthenticated(error);
      container.replaceChildren(errorBox(error, 'The policy could not be loaded'));
    }
  }

  function show(policy, admin, message) {
    container.replaceChildren();
    append(container, [
      message ? h('p', { class: 'ok', id: 'policy-message', role: 'status' }, '✓ ', message) : null,
      h('dl', { class: 'policy-facts', id: 'policy-facts' },
        h('dt', {}, 'Mode'), h('dd', { dataset: { mode: policy.mode } }, MODES[policy.mode] ?? policy.mode),
        h('dt', {}, 'Enforcement'), h('dd', { dataset: { enforce: policy.enforce } }, ENFORCEMENTS[policy.enforce] ?? policy.enforce),
        h('dt', {}, 'Oldest supported version'), h('dd', { id: 'policy-floor' }, String(policy.oldest_supported_version)),
        h('dt', {}, 'Where it comes from'), h('dd', { id: 'policy-source' }, SOURCES[policy.source] ?? policy.source,
          policy.updated ? [', ', timeElement(policy.updated)] : null)),
      admin
        ? h('button', { type: 'button', class: 'secondary', id: 'policy-edit', onclick: () => edit(policy) }, 'Change the policy…')
        : h('p', { class: 'muted', id: 'policy-read-only' }, 'Changing the policy needs an admin token.'),
    ]);
  }

  function edit(policy) {
    const mode = choice('policy-mode', 'Mode', MODES, policy.mode);
    const enforce = choice('policy-enforce', 'Enforcement', ENFORCEMENTS, policy.enforce);
    const floor = h('input', {
      id: 'policy-floor-input', type: 'number', min: 1, max: 2147483647, step: 1, inputmode: 'numeric', required: true,
      value: String(policy.oldest_supported_version), 'aria-describedby': 'policy-floor-hint',
    });
    const error = h('div', { role: 'alert' });
    const form = h('form', { class: 'policy-form', id: 'policy-form', novalidate: true },
      h('h3', {}, `Policy of ${attributesType}`),
      mode.field, enforce.field,
      h('div', { class: 'field' }, h('label', { for: 'policy-floor-input' }, 'Oldest supported version'), floor,
        h('p', { class: 'field-hint', id: 'policy-floor-hint' }, 'Versions below it are not compared: apps built against them are no longer supported.')),
      error,
      h('div', { class: 'actions' },
        h('button', { type: 'submit', class: 'primary', id: 'policy-save' }, 'Save the policy'),
        policy.source === 'type'
          ? h('button', { type: 'button', class: 'secondary', id: 'policy-remove', onclick: () => save(() => api.removePolicy(application, attributesType), 'Removed the type\'s own policy.') }, 'Remove the type\'s own policy')
          : null,
        h('button', { type: 'button', class: 'secondary', onclick: () => show(policy, true) }, 'Cancel')));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const version = Number(floor.value);
      if (!Number.isInteger(version) || version < 1) {
        error.replaceChildren(h('p', { class: 'error-box' }, 'The oldest supported version is a whole number from 1.'));
        floor.focus();
        return;
      }
      const wanted = { mode: mode.control.value, enforce: enforce.control.value, oldestSupportedVersion: version };
      confirmAction(`Change the policy of ${attributesType}?`, [
        h('p', {}, 'From the next publish of ', h('strong', {}, attributesType), ' on:'),
        h('ul', {},
          h('li', {}, 'Mode: ', MODES[wanted.mode] ?? wanted.mode),
          h('li', {}, 'Enforcement: ', ENFORCEMENTS[wanted.enforce] ?? wanted.enforce),
          h('li', {}, 'Oldest supported version: ', String(version))),
        wanted.enforce === 'reject' ? h('p', {}, 'Publishing a version that breaks apps built against earlier ones will be refused.') : null,
      ].filter(Boolean), 'Save the policy').then((confirmed) => {
        if (confirmed) save(() => api.setPolicy(application, attributesType, wanted), `Saved: the next publish of ${attributesType} follows this policy.`);
        else $('#policy-save', form)?.focus();
      });
    });

    async function save(action, message) {
      error.replaceChildren();
      try {
        const saved = await action();
        show(saved, true, message);
        container.querySelector('#policy-edit')?.focus();
      } catch (failure) {
        if (failure.unauthenticated) onUnauthenticated(failure);
        error.replaceChildren(errorBox(failure, 'Not saved'));
      }
    }

    container.replaceChildren(form);
    mode.control.focus();
  }

  load();
  return container;
}

function choice(id, label, options, selected) {
  const control = h('select', { id }, Object.entries(options).map(([value, text]) =>
    h('option', { value, selected: value === selected }, text)));
  return { control, field: h('div', { class: 'field' }, h('label', { for: id }, label), control) };
}
