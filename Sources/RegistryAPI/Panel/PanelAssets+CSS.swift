extension PanelAssets {
    /// `panel.css`: one stylesheet, system fonts, light and dark colours; two columns on wide
    /// screens, one below 760 px (readable at 360 px).
    static let panelCSS = ##"""
:root {
  --bg: #f5f6f8;
  --surface: #ffffff;
  --text: #1c1f24;
  --muted: #5b6270;
  --border: #d4d8df;
  --accent: #1f5fbf;
  --accent-text: #ffffff;
  --accent-soft: #e6eefb;
  --danger: #b3261e;
  --danger-soft: #fdecea;
  --warn: #8a5a00;
  --warn-soft: #fff4d6;
  --ok: #1b6e35;
  --ok-soft: #e5f5ea;
  --focus: #f0a500;
  --code-bg: #f0f2f5;
  --radius: 6px;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  color-scheme: light dark;
}

@media (prefers-color-scheme: dark) {
  :root {
    --bg: #15171b;
    --surface: #1e2127;
    --text: #e7e9ee;
    --muted: #a3aab8;
    --border: #3a3f49;
    --accent: #7fb0ff;
    --accent-text: #0d1b33;
    --accent-soft: #223352;
    --danger: #ff8a80;
    --danger-soft: #3d1f1d;
    --warn: #ffd27a;
    --warn-soft: #3a2f12;
    --ok: #7ddc97;
    --ok-soft: #193324;
    --code-bg: #262a31;
  }
}

*, *::before, *::after { box-sizing: border-box; }

html { -webkit-text-size-adjust: 100%; }

body {
  margin: 0;
  background: var(--bg);
  color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif;
}

[hidden] { display: none !important; }

h1, h2, h3, h4 { line-height: 1.25; margin: 0 0 .5rem; }
h2 { font-size: 1.25rem; }
h3 { font-size: 1.05rem; }
h4 { font-size: 1rem; margin-top: 1rem; }
p { margin: 0 0 .75rem; }
code, pre, .code { font-family: var(--mono); font-size: .875rem; }
code { background: var(--code-bg); padding: .05rem .3rem; border-radius: 4px; overflow-wrap: anywhere; }

:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
h2:focus, h3:focus, main:focus { outline: none; }
h2:focus-visible { outline: 3px solid var(--focus); }

.visually-hidden {
  position: absolute !important; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}

.skip-link { position: absolute; left: -999px; top: .5rem; background: var(--surface); padding: .5rem 1rem; z-index: 10; }
.skip-link:focus { left: .5rem; }

.muted { color: var(--muted); }
.small-print { font-size: .85rem; }
.req { color: var(--danger); font-weight: 700; }

/* --- top bar --------------------------------------------------------------------------- */

.topbar {
  display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem 1rem;
  padding: .75rem 1.25rem; background: var(--surface); border-bottom: 1px solid var(--border);
}
.brand { font-size: 1.1rem; margin: 0; }
.brand span { color: var(--muted); font-weight: 500; }
.session { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; }
.session label { font-weight: 600; }
.session select { min-width: 0; max-width: 100%; }

/* --- controls -------------------------------------------------------------------------- */

button, input, select, textarea { font: inherit; color: inherit; }

input, select, textarea {
  background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius);
  padding: .45rem .6rem; max-width: 100%;
}
input:focus-visible, select:focus-visible, textarea:focus-visible { outline-offset: 0; border-color: var(--accent); }
textarea { width: 100%; resize: vertical; }
textarea.code, .editor { font-family: var(--mono); font-size: .875rem; line-height: 1.45; tab-size: 2; }
input[type="checkbox"] { width: 1.25rem; height: 1.25rem; accent-color: var(--accent); }
input[type="color"] { padding: .15rem; width: 4rem; height: 2.4rem; }

button {
  cursor: pointer; border-radius: var(--radius); padding: .45rem .9rem; border: 1px solid transparent;
  font-weight: 600;
}
button:disabled { opacity: .55; cursor: not-allowed; }
button.primary { background: var(--accent); color: var(--accent-text); }
button.secondary { background: var(--surface); border-color: var(--border); }
button.danger { background: var(--danger); color: #fff; }
button.small { padding: .25rem .6rem; font-size: .9rem; }
button.link { background: none; border: 0; padding: 0 .1rem; color: var(--accent); text-decoration: underline; font-weight: 500; }

.field { display: flex; flex-direction: column; gap: .25rem; margin-bottom: .9rem; min-width: 0; }
.field > label, .label-row > label { font-weight: 600; }
.field > input, .field > select { width: 100%; }
.field > input[type="color"] { width: 4rem; }
.label-row { display: flex; justify-content: space-between; align-items: baseline; gap: .5rem; flex-wrap: wrap; }
.field-hint { font-size: .85rem; color: var(--muted); margin: 0; overflow-wrap: anywhere; }
.field-hint .type { font-size: .8rem; }
fieldset > .field-hint { margin-bottom: .6rem; }
.field-hint .encoding { color: var(--warn); font-weight: 600; }
.toggle-row { display: flex; align-items: center; gap: .5rem; }
.toggle-row label { font-weight: 600; }

.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin-top: .5rem; }

/* --- messages -------------------------------------------------------------------------- */

.messages, .errors { max-width: 80rem; margin: 0 auto; padding: 0 1.25rem; }
.messages:not(:empty), .errors:not(:empty) { padding-top: .75rem; }
.message { display: flex; gap: 1rem; align-items: flex-start; justify-content: space-between; }
.message > :first-child { flex: 1; min-width: 0; }
.notice { background: var(--ok-soft); border: 1px solid var(--ok); border-radius: var(--radius); padding: .6rem .8rem; }
.notice p, .error-box p:last-child, .warning-box p:last-child { margin-bottom: 0; }
.error-box { background: var(--danger-soft); border: 1px solid var(--danger); border-radius: var(--radius); padding: .6rem .8rem; overflow-wrap: anywhere; }
.warning-box { background: var(--warn-soft); border: 1px solid var(--warn); border-radius: var(--radius); padding: .6rem .8rem; margin: .5rem 0; overflow-wrap: anywhere; }
.warning-box ul, .problems, .compat-problems { margin: .4rem 0 0; padding-left: 1.2rem; }
.warning-box li, .problems li { margin-bottom: .3rem; }
.ok { color: var(--ok); font-weight: 600; }
.findings summary { cursor: pointer; color: var(--warn); font-weight: 600; }
.badge {
  display: inline-block; font-size: .75rem; font-weight: 600; padding: 0 .4rem; border-radius: 999px;
  background: var(--accent-soft); color: var(--accent); white-space: nowrap;
}
.problem-kind { background: var(--warn-soft); color: var(--warn); border: 1px solid var(--warn); }

/* --- layout ---------------------------------------------------------------------------- */

main { max-width: 80rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }

.card { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 1rem 1.25rem; }
.card.narrow { max-width: 32rem; margin: 2rem auto; }

.workspace { display: grid; grid-template-columns: minmax(13rem, 18rem) minmax(0, 1fr); gap: 1.25rem; align-items: start; }
.content-pane { display: flex; flex-direction: column; gap: 1rem; min-width: 0; }
.pane-head { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: .5rem; margin-bottom: .5rem; }
.pane-head h2 { margin: 0; }

.types-pane { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 1rem; }
.types-list, .versions-list { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: .35rem; }
.type-button, .version-button {
  width: 100%; text-align: left; background: var(--surface); border: 1px solid var(--border);
  display: flex; flex-wrap: wrap; gap: .1rem .6rem; align-items: baseline; font-weight: 400;
}
.type-button { flex-direction: column; align-items: flex-start; }
.type-name, .version-number { font-weight: 700; overflow-wrap: anywhere; }
.type-button .muted, .version-button .muted { font-size: .85rem; }
.type-button[aria-current="true"], .version-button[aria-current="true"] {
  background: var(--accent-soft); border-color: var(--accent); box-shadow: inset 4px 0 0 var(--accent);
}

.view-head { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: .5rem; margin-bottom: .25rem; }
.view-head h2 { margin: 0; overflow-wrap: anywhere; }
.version-tag { color: var(--muted); font-weight: 500; }

/* --- tabs and code --------------------------------------------------------------------- */

.tabs { display: flex; flex-wrap: wrap; gap: .25rem; border-bottom: 1px solid var(--border); margin: .75rem 0 1rem; }
.tabs [role="tab"] {
  background: none; border: 1px solid transparent; border-bottom: 0; border-radius: var(--radius) var(--radius) 0 0;
  margin-bottom: -1px; padding: .4rem .9rem; color: var(--muted);
}
.tabs [role="tab"][aria-selected="true"] { background: var(--surface); border-color: var(--border); color: var(--text); box-shadow: inset 0 3px 0 var(--accent); }
.tab-panel:focus-visible { outline-offset: 4px; }

pre.code {
  background: var(--code-bg); border-radius: var(--radius); padding: .75rem 1rem; margin: 0;
  overflow: auto; max-height: 32rem; white-space: pre; line-height: 1.45;
}
.j-key { color: #8f2a8f; }
.j-string { color: #1c6b2e; }
.j-number { color: #a04a00; }
.j-literal { color: #1f5fbf; font-weight: 600; }
@media (prefers-color-scheme: dark) {
  .j-key { color: #e3a3e3; }
  .j-string { color: #9ad6a6; }
  .j-number { color: #ffb86b; }
  .j-literal { color: #8fb8ff; }
}

/* --- generated form -------------------------------------------------------------------- */

.generated-form { max-width: 44rem; }
fieldset { border: 1px solid var(--border); border-radius: var(--radius); padding: .75rem 1rem .25rem; margin: 0 0 1rem; min-width: 0; }
legend { font-weight: 700; padding: 0 .35rem; }
.form-section > legend { font-size: 1.05rem; }
fieldset.group { background: color-mix(in srgb, var(--bg) 55%, var(--surface)); }
.note { font-style: italic; color: var(--muted); }
.list-items { list-style: none; margin: 0 0 .5rem; padding: 0; }
.list-item, .free-row { border-left: 3px solid var(--border); padding: .25rem 0 .25rem .75rem; margin-bottom: .5rem; }
.free-row { display: grid; grid-template-columns: 1fr 1fr; gap: 0 .75rem; align-items: end; }
.free-row .remove-item { grid-column: 1 / -1; justify-self: start; margin-bottom: .5rem; }
.remove-item { font-size: .9rem; }
.list > button.small { margin-bottom: .75rem; }

/* --- publish --------------------------------------------------------------------------- */

.publish-layout { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1.25rem; align-items: start; }
.publish-form .field > input[type="number"] { max-width: 14rem; }
.editor { min-height: 22rem; }
#publish-schema-size.over { color: var(--danger); font-weight: 700; }
#publish-error:not(:empty) { margin-bottom: .75rem; }
.check-pane { border-left: 1px solid var(--border); padding-left: 1.25rem; min-width: 0; }
.check { min-height: 4rem; }
.check.busy { opacity: .7; }
.check-status { font-weight: 700; }
.check-status.ok { color: var(--ok); }
.check-status.bad { color: var(--danger); }
.check-status.pending { color: var(--muted); }
.path { font-weight: 600; }

/* --- dialogs --------------------------------------------------------------------------- */

dialog {
  border: 1px solid var(--border); border-radius: var(--radius); padding: 1.25rem;
  width: min(34rem, calc(100vw - 2rem)); max-height: calc(100vh - 2rem); overflow: auto;
  background: var(--surface); color: var(--text);
}
dialog::backdrop { background: rgb(0 0 0 / .45); }
dialog .actions { justify-content: flex-end; }

/* --- narrow screens -------------------------------------------------------------------- */

@media (max-width: 1000px) {
  .publish-layout { grid-template-columns: minmax(0, 1fr); }
  .check-pane { border-left: 0; padding-left: 0; border-top: 1px solid var(--border); padding-top: 1rem; }
}

@media (max-width: 760px) {
  .workspace { grid-template-columns: minmax(0, 1fr); }
  main { padding: .75rem .75rem 2rem; }
  .topbar { padding: .6rem .75rem; }
  .messages, .errors { padding-left: .75rem; padding-right: .75rem; }
  .card { padding: .85rem; }
  .session { width: 100%; }
  .session label { flex-basis: 100%; }
  .session select { flex: 1; }
  .tabs [role="tab"] { padding: .4rem .65rem; }
  .free-row { grid-template-columns: minmax(0, 1fr); }
  pre.code { max-height: 24rem; padding: .6rem; }
}
"""##
}
