// "breaking" badges in a type's version list: each version shown is compared with its
// predecessor (`:diff`, default against), lazily as its button scrolls into view, at most
// MAX_DIFFS per list and two at a time. Answers are kept for the tab's life: a published
// version never changes, and the key names the predecessor, so a delete makes a new key.

import { h } from './dom.js';
import { api } from './api.js';

const MAX_DIFFS = 24;
const PARALLEL = 2;
const verdicts = new Map(); // key → Promise<boolean | null>

let observer = null;

/**
 * Marks the version buttons in `list` (`[data-version]`, newest first, as `versions`) whose
 * version breaks apps built against the one before it.
 */
export function markBreakingVersions(list, application, attributesType, versions) {
  observer?.disconnect();
  const queue = [];
  let running = 0;
  let started = 0;
  const pump = () => {
    while (running < PARALLEL && queue.length) {
      const job = queue.shift();
      running += 1;
      job().finally(() => { running -= 1; pump(); });
    }
  };
  observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      const index = versions.findIndex((schema) => String(schema.version) === entry.target.dataset.version);
      if (index < 0 || index === versions.length - 1 || started >= MAX_DIFFS) continue;
      started += 1;
      const button = entry.target;
      const { version } = versions[index];
      const key = JSON.stringify([application, attributesType, version, versions[index + 1].version]);
      queue.push(() => verdict(key, application, attributesType, version).then((breaking) => {
        if (breaking !== null) button.dataset.breaking = String(breaking); // known, for tests and styles
        if (breaking && button.isConnected && !button.querySelector('.breaking-badge')) {
          button.append(h('span', { class: 'badge breaking-badge', title: `Breaks apps built against version ${versions[index + 1].version}` },
            'breaking'));
        }
      }));
      pump();
    }
  });
  for (const button of list.querySelectorAll('[data-version]')) observer.observe(button);
}

function verdict(key, application, attributesType, version) {
  if (!verdicts.has(key)) {
    verdicts.set(key, api.diff(application, attributesType, version)
      .then((diff) => diff.changes?.some((change) => change.breaking) ?? !diff.compatible)
      .catch(() => { verdicts.delete(key); return null; }));
  }
  return verdicts.get(key);
}
