// The panel's entry point: signing in and out; workspace.js renders the place the address
// names once signed in.

import { $, h, show } from './dom.js';
import { api, session } from './api.js';
import { currentRoute, onRouteChange } from './router.js';
import { failure, spinner } from './loading.js';
import { clearMessages, complain, notify, reportFailure } from './messages.js';
import { closeWorkspace, openWorkspace, render, setUpWorkspace } from './workspace.js';

/** Shows an API failure; a rejected token signs the user out instead. */
function showError(error, context) {
  if (error?.unauthenticated) {
    signOut(`The registry did not accept the API token: ${error.message}. Sign in again.`);
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
  closeWorkspace();
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
  if (token?.scope) document.body.dataset.scope = token.scope;
  else delete document.body.dataset.scope;
  const reachable = token?.applications ? applications.filter((app) => token.applications.includes(app.code)) : applications;
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
  $('#sign-out').addEventListener('click', () => signOut());
  if (session.token) guarded('Could not load the panel', enterWorkspace)();
  else showSignIn();
}

start();
