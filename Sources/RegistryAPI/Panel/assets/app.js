// The panel's entry point: signing in and out; workspace.js renders the place the address
// names once signed in.

import { $, h, show } from './dom.js';
import { api, session, whenUnauthenticated } from './api.js';
import { forgetToken, refusalReason, showToken } from './token-status.js';
import { currentRoute, onRouteChange } from './router.js';
import { failure, spinner } from './loading.js';
import { clearMessages, complain, notify, reportFailure } from './messages.js';
import { closeWorkspace, confirmSignOut, openWorkspace, render, setUpWorkspace } from './workspace.js';

/**
 * A 401 for the tab's token, from any call: signs out once, with the reason. Later 401s of
 * the same token (calls still in flight) find it gone and change nothing.
 */
let signedIn = false; // the workspace is open (signing in reports a refused token itself)

function tokenRefused(error) {
  if (!signedIn || !session.token || !error.forCurrentToken) return;
  signOut(refusalReason(error));
}

/** Shows an API failure; a rejected token has signed the user out already (tokenRefused). */
function showError(error, context) {
  if (error?.unauthenticated) {
    tokenRefused(error);
    return;
  }
  reportFailure(error, context);
}

/** Runs an async action, showing any failure as a message. */
const guarded = (context, action) => async (...args) => {
  try {
    await action(...args);
  } catch (error) {
    showError(error, context);
  }
};

// --- signing in and out -------------------------------------------------------------------

/** The sign-in form; `keepToken` leaves a refused token in the field so a typo can be fixed. */
function showSignIn(reason, { keepToken = false } = {}) {
  signedIn = false;
  closeWorkspace();
  forgetToken();
  document.title = 'Sign in · Schema Registry';
  delete document.body.dataset.scope;
  show($('#workspace'), false);
  show($('#session-bar'), false);
  show($('#start-status'), false);
  show($('#sign-in-view'), true);
  if (reason) complain(reason);
  const input = $('#token-input');
  if (!keepToken) input.value = '';
  input.focus();
}

/** Signs out. Drafts stay in the tab (they end with it), so signing in again restores them. */
function signOut(reason) {
  session.clear();
  clearMessages();
  showSignIn(reason);
  if (!reason) {
    window.history.replaceState(null, '', window.location.pathname);
    notify('Signed out. The token was removed from this tab.');
  }
}

async function onSignIn(event) {
  event.preventDefault();
  const token = $('#token-input').value.trim();
  clearMessages();
  if (!token) {
    complain('Enter your API token.');
    $('#token-input').focus();
    return;
  }
  session.token = token;
  await enterWorkspace({ fromSignIn: true });
}

/** Loads the token's applications and scope, then shows the place the address names. */
async function enterWorkspace({ fromSignIn = false } = {}) {
  const status = $('#start-status');
  show($('#sign-in-view'), false);
  show(status, true);
  status.replaceChildren(spinner('Connecting to the registry…'));
  let applications;
  let token;
  try {
    // A registry without GET /api/token, or one failing it, leaves every control visible:
    // the registry still refuses what the token may not do.
    [applications, token] = await Promise.all([
      api.applications(),
      api.token().catch((error) => { if (error.unauthenticated) throw error; return null; }),
    ]);
  } catch (error) {
    if (error.unauthenticated) {
      session.clear();
      showSignIn(`That API token was not accepted: ${error.message}. Correct it or paste another one.`, { keepToken: fromSignIn });
    } else {
      status.replaceChildren(h('h2', {}, 'The registry could not be reached'),
        failure(error, 'Could not load the applications', () => enterWorkspace({ fromSignIn })));
    }
    return;
  }
  show(status, false);
  showToken(token, { onExpired: () => { if (session.token) signOut(refusalReason(null)); } });
  if (token?.scope) document.body.dataset.scope = token.scope;
  else delete document.body.dataset.scope;
  const reachable = token?.applications ? applications.filter((app) => token.applications.includes(app.code)) : applications;
  signedIn = true;
  show($('#session-bar'), true);
  show($('#workspace'), true);
  openWorkspace(reachable);
  if (!reachable.length) {
    complain('This account has no applications yet. Create one with ', h('code', {}, 'schema-registry admin create-application'), '.');
    return;
  }
  await render(currentRoute());
}

// --- start --------------------------------------------------------------------------------

function start() {
  setUpWorkspace({ showError, guarded });
  onRouteChange((route) => guarded('Could not show this page', render)(route));
  $('#sign-in-form').addEventListener('submit', guarded('Could not sign in', onSignIn));
  $('#sign-out').addEventListener('click', async () => { if (await confirmSignOut()) signOut(); });
  whenUnauthenticated(tokenRefused);
  if (session.token) guarded('Could not load the panel', enterWorkspace)();
  else showSignIn();
}

start();
