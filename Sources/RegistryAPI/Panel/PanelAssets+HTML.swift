extension PanelAssets {
    /// The page shell. Every view is a section toggled with `hidden`; `app.js` fills them in.
    /// No inline script or style: the Content-Security-Policy forbids both.
    static let indexHTML = ##"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Schema Registry · Control panel</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="panel.css">
<script type="module" src="app.js"></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="topbar">
  <h1 class="brand">Live Activity <span>Schema Registry</span></h1>
  <div class="session" id="session-bar" hidden>
    <label for="application-select">Application</label>
    <select id="application-select"></select>
    <button type="button" id="sign-out" class="secondary">Sign out</button>
  </div>
</header>

<div id="messages" class="messages" role="status" aria-live="polite"></div>
<div id="errors" class="errors" role="alert" aria-live="assertive"></div>

<main id="main" tabindex="-1">
  <section id="sign-in-view" class="card narrow" aria-labelledby="sign-in-title" hidden>
    <h2 id="sign-in-title">Sign in</h2>
    <p>Paste the API token of your account. It stays in this browser tab only
      (<code>sessionStorage</code>) and is sent as <code>Authorization: Api …</code>.</p>
    <form id="sign-in-form" autocomplete="off">
      <div class="field">
        <label for="token-input">API token <span class="req" aria-hidden="true">*</span></label>
        <input id="token-input" name="token" type="password" required spellcheck="false" autocapitalize="off">
      </div>
      <button type="submit" class="primary">Sign in</button>
    </form>
  </section>

  <div id="workspace" class="workspace" hidden>
    <nav id="types-pane" class="types-pane" aria-labelledby="types-title">
      <div class="pane-head">
        <h2 id="types-title">Types</h2>
        <button type="button" id="new-schema" class="primary small">Publish…</button>
      </div>
      <p id="types-empty" class="muted" hidden>No schemas published yet.</p>
      <ul id="types-list" class="types-list"></ul>
    </nav>

    <div class="content-pane">
      <section id="versions-view" aria-labelledby="versions-title" hidden>
        <div class="pane-head">
          <h2 id="versions-title">Versions</h2>
          <button type="button" id="new-version" class="secondary small">Publish a new version…</button>
        </div>
        <ul id="versions-list" class="versions-list"></ul>
      </section>

      <section id="version-view" class="card" aria-labelledby="version-title" hidden></section>

      <section id="publish-view" class="card" aria-labelledby="publish-title" hidden></section>

      <section id="welcome-view" class="card" hidden>
        <h2>Welcome</h2>
        <p>Pick a type on the left to see its versions, or publish a first schema.</p>
      </section>
    </div>
  </div>
</main>

<dialog id="delete-dialog" aria-labelledby="delete-title" aria-describedby="delete-text">
  <form method="dialog">
    <h2 id="delete-title">Delete version?</h2>
    <p id="delete-text"></p>
    <div class="actions">
      <button type="submit" value="cancel" class="secondary" autofocus>Cancel</button>
      <button type="submit" value="delete" class="danger" id="delete-confirm">Delete permanently</button>
    </div>
  </form>
</dialog>

<dialog id="publish-dialog" aria-labelledby="publish-confirm-title">
  <form method="dialog">
    <h2 id="publish-confirm-title">Publish?</h2>
    <div id="publish-confirm-body"></div>
    <div class="actions">
      <button type="submit" value="cancel" class="secondary" autofocus>Cancel</button>
      <button type="submit" value="publish" class="primary" id="publish-confirm">Publish</button>
    </div>
  </form>
</dialog>
</body>
</html>

"""##
}
