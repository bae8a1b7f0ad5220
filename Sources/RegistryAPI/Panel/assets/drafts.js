// Unsaved drafts: of the publish editor one per application and type (the empty type for a
// first schema), of the webhook form one per application and subscription (`new` for one not
// created yet), kept in the tab's sessionStorage so a reload, a sign-out by a revoked token or a
// click elsewhere does not lose what was typed. Saving removes its draft; the tab's end ends them all.

const PREFIX = 'schema-registry.draft.';

// Code and type in one key: JSON keeps any character of either apart.
const keyOf = (application, attributesType) => PREFIX + JSON.stringify([application, attributesType]);

export const drafts = {
  /** `{attributesType, version, jsonSchema, saved}` or null. */
  get(application, attributesType) {
    try {
      const draft = JSON.parse(sessionStorage.getItem(keyOf(application, attributesType)) ?? 'null');
      return draft && typeof draft.jsonSchema === 'string' ? draft : null;
    } catch {
      return null;
    }
  },
  save(application, attributesType, { typed, version, jsonSchema }) {
    const draft = { attributesType: typed, version, jsonSchema, saved: new Date().toISOString() };
    try {
      sessionStorage.setItem(keyOf(application, attributesType), JSON.stringify(draft));
    } catch {
      // Storage full (a 64 KB schema fits many times): the editor still holds the text.
    }
  },
  remove(application, attributesType) {
    sessionStorage.removeItem(keyOf(application, attributesType));
  },
};

const webhookKeyOf = (application, webhook) => `${PREFIX}webhook.${JSON.stringify([application, String(webhook)])}`;

export const webhookDrafts = {
  /** `{url, events, type_prefix, description, enabled, saved}` or null. */
  get(application, webhook) {
    try {
      const draft = JSON.parse(sessionStorage.getItem(webhookKeyOf(application, webhook)) ?? 'null');
      return draft && typeof draft.url === 'string' && Array.isArray(draft.events) ? draft : null;
    } catch {
      return null;
    }
  },
  save(application, webhook, fields) {
    try {
      sessionStorage.setItem(webhookKeyOf(application, webhook), JSON.stringify({ ...fields, saved: new Date().toISOString() }));
    } catch {
      // Storage full: the form still holds what was typed.
    }
  },
  remove(application, webhook) {
    sessionStorage.removeItem(webhookKeyOf(application, webhook));
  },
};
