// What the signed-in token may do (`GET /api/token`), asked once per token.

import { api, session } from './api.js';

let cached = null; // {token, promise}

/** 'read', 'publish' or 'admin'; null when the registry could not say. */
export function tokenScope() {
  const token = session.token;
  if (cached?.token !== token) {
    cached = { token, promise: api.token().then((info) => info?.scope ?? null, () => null) };
  }
  return cached.promise;
}
