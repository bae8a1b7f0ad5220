// What a type is for and who owns it, above its versions: description, owner, labels and
// links (GET …/metadata), and with a publish token a form that replaces them (PUT).

import { h, errorBox } from './dom.js';
import { api } from './api.js';
import { spinner } from './loading.js';
import { LIMITS, byteLength, labelBadges, labelsText, linksText, metadataField, parseLabels, parseLinks } from './metadata-text.js';

const isEmpty = (metadata) => !metadata.description && !metadata.owner
  && !Object.keys(metadata.labels ?? {}).length && !(metadata.links ?? []).length;

/** Fills `container` with the metadata of `type`; `isCurrent()` drops an answer for a type no longer shown. */
export function renderTypeAbout(container, { application, type, isCurrent = () => true, onUnauthenticated = () => {} }) {
  container.replaceChildren(spinner('Loading the details…'));

  function show(metadata, message) {
    const links = metadata.links ?? [];
    container.replaceChildren(
      message ? h('p', { class: 'ok', id: 'type-about-message', role: 'status' }, '✓ ', message) : '',
      isEmpty(metadata) ? h('p', { class: 'muted', id: 'type-about-empty' }, 'No description, owner or labels yet.') : '',
      metadata.description ? h('p', { class: 'type-description', id: 'type-description' }, metadata.description) : '',
      metadata.owner ? h('p', { class: 'small-print', id: 'type-owner' }, 'Owner: ', h('strong', {}, metadata.owner)) : '',
      labelBadges(metadata.labels, 'type-labels') ?? '',
      links.length ? h('ul', { class: 'link-list', id: 'type-links' }, links.map((link) =>
        h('li', {}, h('a', { href: link.url, rel: 'noopener noreferrer', target: '_blank' }, link.name || link.url)))) : '',
      h('button', { type: 'button', class: 'link needs-publish', id: 'type-about-edit', onclick: () => edit(metadata) }, 'Edit details…'));
  }

  function edit(metadata) {
    const description = metadataField('type-description-input', 'Description', metadata.description,
      `What the type is for, for the people who find it (at most ${LIMITS.description} bytes).`, { multiline: true });
    const owner = metadataField('type-owner-input', 'Owner', metadata.owner, 'A team or an address, e.g. team-checkout@example.com.');
    const labels = metadataField('type-labels-input', 'Labels', labelsText(metadata.labels),
      `One key=value a line, e.g. team=checkout (at most ${LIMITS.labels}).`, { multiline: true });
    const links = metadataField('type-links-input', 'Links', linksText(metadata.links),
      `One a line: a name, then an https:// address, e.g. Repository https://github.com/example/app (at most ${LIMITS.links}).`, { multiline: true });
    const problem = h('div', { role: 'alert' });
    const fail = (text, control) => {
      problem.replaceChildren(h('p', { class: 'error-box' }, text));
      control.focus();
    };
    const form = h('form', { class: 'metadata-form', id: 'type-about-form', novalidate: true },
      h('h3', {}, 'Details of the type'),
      description.field, owner.field, labels.field, links.field, problem,
      h('div', { class: 'actions' },
        h('button', { type: 'submit', class: 'primary', id: 'type-about-save' }, 'Save the details'),
        h('button', { type: 'button', class: 'secondary', id: 'type-about-cancel', onclick: () => { show(metadata); container.querySelector('#type-about-edit')?.focus(); } }, 'Cancel')));
    /** The metadata to send, or `{problem, control}` for the first field the registry would refuse. */
    function wanted() {
      const parsedLabels = parseLabels(labels.control.value);
      const parsedLinks = parseLinks(links.control.value);
      const text = description.control.value.trim();
      const who = owner.control.value.trim();
      if (byteLength(text) > LIMITS.description) return { problem: `The description is longer than ${LIMITS.description} bytes.`, control: description.control };
      if (byteLength(who) > LIMITS.owner) return { problem: `The owner is longer than ${LIMITS.owner} bytes.`, control: owner.control };
      if (parsedLabels.problem) return { problem: parsedLabels.problem, control: labels.control };
      if (parsedLinks.problem) return { problem: parsedLinks.problem, control: links.control };
      const result = { labels: parsedLabels.labels, links: parsedLinks.links };
      if (text) result.description = text;
      if (who) result.owner = who;
      return { metadata: result };
    }
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const outcome = wanted();
      if (outcome.problem) {
        fail(outcome.problem, outcome.control);
        return;
      }
      try {
        await api.setTypeMetadata(application, type, outcome.metadata);
        show(outcome.metadata, 'Saved the details.');
        container.querySelector('#type-about-edit')?.focus();
      } catch (error) {
        if (error.unauthenticated) onUnauthenticated(error);
        else problem.replaceChildren(errorBox(error, 'Not saved'));
      }
    });
    container.replaceChildren(form);
    description.control.focus();
  }

  api.typeMetadata(application, type).then((metadata) => {
    if (isCurrent()) show(metadata ?? {});
  }, (error) => {
    if (!isCurrent()) return;
    if (error.unauthenticated) onUnauthenticated(error);
    else container.replaceChildren(errorBox(error, 'The details could not be loaded'));
  });
}
