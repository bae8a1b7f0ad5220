// The registry's HTTP API. Every call carries `Authorization: Api <token>` from sessionStorage.

const TOKEN_KEY = 'schema-registry.token';
const APPLICATION_KEY = 'schema-registry.application';

/** The signed-in state of this browser tab only (sessionStorage, never localStorage). */
export const session = {
  get token() { return sessionStorage.getItem(TOKEN_KEY); },
  set token(value) { sessionStorage.setItem(TOKEN_KEY, value); },
  get application() { return sessionStorage.getItem(APPLICATION_KEY); },
  set application(code) { sessionStorage.setItem(APPLICATION_KEY, code); },
  clear() {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(APPLICATION_KEY);
  },
};

const GRPC_NAMES = {
  3: 'invalid argument', 5: 'not found', 6: 'already exists', 7: 'permission denied',
  8: 'resource exhausted', 9: 'failed precondition', 12: 'unimplemented', 13: 'internal',
  14: 'unavailable', 16: 'unauthenticated',
};

/** A failed call: the HTTP status and the error body `{code, message, details}`. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message || `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = body?.code;
    this.details = Array.isArray(body?.details) ? body.details : [];
  }

  get unauthenticated() { return this.status === 401; }

  /** A 401 for the token the tab holds now (not one signed out already or replaced since). */
  get forCurrentToken() { return this.token === session.token; }

  /** "Not found (HTTP 404, code 5)" — the kind of failure, for the message's heading. */
  get kind() {
    if (this.status === 0) return 'Network error';
    const name = GRPC_NAMES[this.code];
    const label = name ? name[0].toUpperCase() + name.slice(1) : 'Error';
    return this.code === undefined ? `${label} (HTTP ${this.status})` : `${label} (HTTP ${this.status}, code ${this.code})`;
  }

  /** Splits "jsonSchema.attributes.required[1]: is listed twice" into path and text. */
  get pathAndText() {
    const match = /^([A-Za-z_$][\w$.-]*(?:\[\d+\])*(?:\.[\w$-]+(?:\[\d+\])*)*): (.+)$/s.exec(this.message);
    return match ? { path: match[1], text: match[2] } : { path: null, text: this.message };
  }
}

let onUnauthenticated = () => {};

/**
 * Calls `handler(error)` for every 401 of the token the tab holds, whichever view asked: a
 * revoked or expired token signs the user out from any call, not only from the calls that
 * check for it.
 */
export function whenUnauthenticated(handler) {
  onUnauthenticated = handler;
}

async function request(method, path, { query, body, withText = false } = {}) {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(name, value);
  }
  const headers = { Accept: 'application/json' };
  const token = session.token;
  if (token) headers.Authorization = `Api ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(url, {
      method, headers, cache: 'no-store', credentials: 'omit',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, { message: `cannot reach the registry (${error.message})` });
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    const error = new ApiError(response.status, data && typeof data === 'object' ? data : { message: text.trim() || response.statusText });
    error.token = token;
    if (error.unauthenticated && error.forCurrentToken) onUnauthenticated(error);
    throw error;
  }
  return withText ? { data: data ?? {}, text } : data ?? {};
}

/**
 * One path segment: every character but letters, digits, `-` and `_` percent-encoded, so a
 * type named `%`, `a?b`, `#1`, `with space` or an emoji stays one segment meaning exactly that
 * name. A browser's URL parser folds an all-dot segment even when percent-encoded (WHATWG URL,
 * path state), so `.` and `..` are sent as `%2F.` and `%2F..`: the registry drops one leading
 * `%2F` from a type segment, since a name never contains `/`.
 */
export const pathSegment = (text) => {
  const encoded = encodeURIComponent(String(text)).replace(/[!'()*.~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return /^(%2E)+$/.test(encoded) ? `%2F${encoded}` : encoded;
};

const policyPath = (attributesType) =>
  `/api/live_activity_types/${pathSegment(attributesType)}/compatibility_policy`;

const versionPath = (attributesType, version) =>
  `/api/live_activity_schemas/${pathSegment(attributesType)}/${pathSegment(version)}`;

const typePath = (attributesType) => `/api/live_activity_types/${pathSegment(attributesType)}`;

const webhooksPath = (application) => `/api/applications/${pathSegment(application)}/webhooks`;
const webhookPath = (application, id) => `${webhooksPath(application)}/${pathSegment(id)}`;

export const api = {
  // --- the version page: values, pushes, diffs, policy, identity, scope ---
  /** `:check`: {valid, problems: [{path, message, severity}]}. */
  check(application, attributesType, version, { event, contentState, attributes }) {
    const body = { application, event, content_state: contentState };
    if (attributes !== undefined) body.attributes = attributes;
    return request('POST', `${versionPath(attributesType, version)}:check`, { body });
  },
  /** `live_activities:preview`: {valid, problems, request}; `text` is the answer as sent, byte for byte. */
  preview(previewRequest) {
    return request('POST', '/api/live_activities:preview', { body: previewRequest, withText: true });
  },
  /** `:diff` against version `against` (default: the previous live version). */
  diff(application, attributesType, version, against) {
    return request('GET', `${versionPath(attributesType, version)}:diff`, { query: { application, against } });
  },
  /** The compatibility policy in force for a type: {mode, enforce, oldest_supported_version, source, …}. */
  async policy(application, attributesType) {
    return (await request('GET', policyPath(attributesType), { query: { application } })).policy;
  },
  /** Sets the type's own policy (admin): `{mode, enforce, oldestSupportedVersion}`. */
  async setPolicy(application, attributesType, policyRequest) {
    return (await request('PUT', policyPath(attributesType), { query: { application }, body: policyRequest })).policy;
  },
  /** Removes the type's own policy (admin); the answer is the policy in force after it. */
  async removePolicy(application, attributesType) {
    return (await request('DELETE', policyPath(attributesType), { query: { application } })).policy;
  },
  /** [{code, name, created}] of the token's account. */
  async applications() {
    return (await request('GET', '/api/applications')).applications ?? [];
  },
  /** Every version of every type: types in byte order, newest version first. */
  async schemas(application) {
    return (await request('GET', '/api/live_activity_schemas', { query: { application } })).schemas ?? [];
  },
  async schema(application, attributesType, version) {
    return (await request('GET', versionPath(attributesType, version), { query: { application } })).schema;
  },
  async form(application, attributesType, version) {
    return (await request('GET', `${versionPath(attributesType, version)}/form`, { query: { application } })).form;
  },
  /** Dry run: {form, compatibility, warnings?}, or the 400 that publishing would give. */
  validate(publishRequest) {
    return request('POST', '/api/live_activity_schemas:validate', { body: publishRequest });
  },
  /** {schema, compatibility, warnings?} */
  publish(publishRequest) {
    return request('POST', '/api/live_activity_schemas', { body: publishRequest });
  },
  remove(application, attributesType, version) {
    return request('DELETE', versionPath(attributesType, version), { query: { application } });
  },
  /** Every live version of one type, newest first; `includeDisabled` (admin) adds the disabled ones. */
  async typeVersions(application, attributesType, { includeDisabled = false } = {}) {
    const query = { application, attributesType, include: includeDisabled ? 'disabled' : undefined };
    return (await request('GET', '/api/live_activity_schemas', { query })).schemas ?? [];
  },
  /**
   * One type's summary of the type index ({attributes_type, latest_pin?, states?, …}), or null.
   * The index is in byte order, so a name comes before every longer name it is a prefix of.
   */
  async typeSummary(application, attributesType) {
    const page = await request('GET', '/api/live_activity_types', { query: { application, prefix: attributesType, pageSize: 1 } });
    const first = page.types?.[0];
    return first && first.attributes_type === attributesType ? first : null;
  },
  // --- a version's life: states, the latest pin, metadata, usage, search ---
  /** `:deprecate` (publish): {schema, usage?}. `sunset` is RFC 3339 or omitted. */
  deprecate(application, attributesType, version, { message, sunset }) {
    const body = sunset ? { message, sunset } : { message };
    return request('POST', `${versionPath(attributesType, version)}:deprecate`, { query: { application }, body });
  },
  /** `:disable` (admin): readers get 404 until it is restored. {schema, usage?}. */
  disable(application, attributesType, version, { reason }) {
    return request('POST', `${versionPath(attributesType, version)}:disable`, { query: { application }, body: { reason } });
  },
  /** `:restore` (publish): back to active from deprecated or disabled. {schema, usage?}. */
  restore(application, attributesType, version) {
    return request('POST', `${versionPath(attributesType, version)}:restore`, { query: { application }, body: {} });
  },
  /** Pins the type's `latest` to `version` (publish). */
  pinLatest(application, attributesType, version) {
    return request('PUT', `${typePath(attributesType)}/latest_pin`, { query: { application }, body: { version } });
  },
  /** Unpins: `latest` is the newest active version again (publish). */
  unpinLatest(application, attributesType) {
    return request('DELETE', `${typePath(attributesType)}/latest_pin`, { query: { application } });
  },
  /** A type's {description?, owner?, labels?, links?}. */
  async typeMetadata(application, attributesType) {
    const answer = await request('GET', `${typePath(attributesType)}/metadata`, { query: { application } });
    return answer.metadata ?? answer;
  },
  /** Replaces a type's whole metadata (publish). */
  async setTypeMetadata(application, attributesType, metadata) {
    const answer = await request('PUT', `${typePath(attributesType)}/metadata`, { query: { application }, body: metadata });
    return answer.metadata ?? answer;
  },
  /** Replaces a version's {labels, release_notes} (publish). */
  setVersionMetadata(application, attributesType, version, metadata) {
    return request('PUT', `${versionPath(attributesType, version)}/metadata`, { query: { application }, body: metadata });
  },
  /** Who read a version: {total_reads, last_read?, readers: [{token_id, token_name, reads, last_read}], days}. */
  async versionUsage(application, attributesType, version, days = 30) {
    return (await request('GET', `${versionPath(attributesType, version)}/usage`, { query: { application, days } })).usage;
  },
  /** Who read a type's versions: as versionUsage, each reader with its `versions`. */
  async typeUsage(application, attributesType, days = 30) {
    return (await request('GET', `${typePath(attributesType)}/usage`, { query: { application, days } })).usage;
  },
  /** One page of search results: {results: [{attributes_type, matches: [{in, text, version?, path?}]}], next_page_token?}. */
  search(application, { q, pageSize, pageToken } = {}) {
    return request('GET', '/api/search', { query: { application, q, page_size: pageSize, page_token: pageToken } });
  },
  /** One page of the type index: {types: [{attributes_type, live_versions, newest_version, …}], next_page_token?}. */
  types(application, { prefix = '', pageSize, pageToken } = {}) {
    return request('GET', '/api/live_activity_types', { query: { application, prefix: prefix || undefined, pageSize, pageToken } });
  },
  /** The calling token: {id, scope: read|publish|admin, applications: [codes] or null, …}. */
  async token() {
    return (await request('GET', '/api/token')).token;
  },
  /** One page of audit events, newest first: {audit_events, next_page_token?}. Needs scope admin. */
  auditEvents(application, { attributesType, pageSize, pageToken } = {}) {
    return request('GET', '/api/audit_events', { query: { application, attributesType, pageSize, pageToken } });
  },
  // --- webhooks: an application's subscriptions and their delivery logs (admin) ---
  /** [{id, url, events, type_prefix, description, enabled, disabled_reason, failures, next_attempt_at, …}], oldest first. */
  async webhooks(application) {
    return (await request('GET', webhooksPath(application))).webhooks ?? [];
  },
  async webhook(application, id) {
    return (await request('GET', webhookPath(application, id))).webhook;
  },
  /** {webhook, secret}: the secret is in this answer only. */
  createWebhook(application, settings) {
    return request('POST', webhooksPath(application), { body: settings });
  },
  /** Replaces the fields given (`url`, `events`, `type_prefix`, `description`, `enabled`). */
  async updateWebhook(application, id, changes) {
    return (await request('PATCH', webhookPath(application, id), { body: changes })).webhook;
  },
  deleteWebhook(application, id) {
    return request('DELETE', webhookPath(application, id));
  },
  /** {webhook, secret}: a new secret; the old one signs beside it for `graceSeconds`. */
  rotateWebhookSecret(application, id, graceSeconds) {
    return request('POST', `${webhookPath(application, id)}:rotate_secret`, { body: { grace_seconds: graceSeconds } });
  },
  /** Queues a test event: {webhook_id}. */
  testWebhook(application, id) {
    return request('POST', `${webhookPath(application, id)}:test`);
  },
  /** Sends one event again (`event`: its cursor) or every event after a cursor (`since`). */
  redeliverWebhook(application, id, { event, since }) {
    return request('POST', `${webhookPath(application, id)}:redeliver`, { body: event !== undefined ? { event } : { since } });
  },
  /** One page of the delivery log, newest first: {deliveries: [{id, at, webhook_id, type, status, succeeded, latency_ms, error, response}], next_page_token?}. */
  webhookDeliveries(application, id, { pageSize, pageToken } = {}) {
    return request('GET', `${webhookPath(application, id)}/deliveries`, { query: { pageSize, pageToken } });
  },
};
