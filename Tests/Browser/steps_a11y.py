"""Browser steps: accessibility. Each takes the `Panel` and runs while signed in, after
panel_test's core steps.

axe-core (bundled by axe-selenium-python, installed by run.sh) checks every view in `VIEWS` at
every width in `WIDTHS` and in every colour scheme in `SCHEMES`; any violation of impact
`serious` or `critical` fails the step. A second check (at the first width: colours do not
change with the width) tabs through each view and measures the focus ring against what is
behind it, which axe does not: WCAG 2.2 AA wants 3:1 for a focus indicator. Every combination
leaves a screenshot named NN-a11y-VIEW-WIDTH-SCHEME.png.

To cover a new view, add one `View` line: a name and a function that opens the view from
scratch (any page state) and returns once it is drawn.
"""

import time
from dataclasses import dataclass
from typing import Callable

from harness import *  # noqa: F403
from a11y_checks import FOCUS_PROBE, axe_violations, focus_ring_problem, focus_ring_problems, set_scheme
from steps_shell import UNAVAILABLE, go, hash_segment, issue_token, search, type_hash
import steps_webhooks

TOKEN_KEY = "schema-registry.token"
WIDTHS = [(1280, 900, False), (390, 844, True)]  # (width, height, mobile)
SCHEMES = ["light", "dark"]

A11Y_TYPE = None  # published once by step_a11y_fixture


@dataclass
class View:
    name: str
    open: Callable  # open(panel): navigates from any state, returns once the view is drawn
    full_page: bool = True  # False while a modal dialog is open: the screenshot shows the viewport


# --- opening each view from scratch ---------------------------------------------------------

def open_sign_in(p):
    p.driver.get(BASE + "/panel/")
    p.js("sessionStorage.removeItem(arguments[0])", TOKEN_KEY)
    p.driver.get(BASE + "/panel/")
    p.visible("#token-input", "the sign-in form")


def open_sign_in_error(p):
    open_sign_in(p)
    p.type_into("#token-input", "not-a-real-token")
    p.find("#token-input").send_keys(Keys.ENTER)
    p.text_in("#errors", "not accepted")


def open_workspace(p):
    """Signed in with the fixture type's newest version open."""
    p.driver.get(BASE + "/panel/")
    p.js("for (const key of Object.keys(sessionStorage)) if (key.startsWith('schema-registry.draft.')) sessionStorage.removeItem(key);"
         "sessionStorage.setItem(arguments[0], arguments[1])", TOKEN_KEY, TOKEN)
    p.driver.get(BASE + "/panel/")
    p.visible("#workspace", "the workspace")
    if p.find("#application-select").get_attribute("value") != APP:
        Select(p.find("#application-select")).select_by_value(APP)
    button = f'#types-list .type-button[data-type="{A11Y_TYPE}"]'
    p.visible(button, "the fixture type in the list")
    p.click(button)
    p.text_in("#version-title", f"{A11Y_TYPE} version 2")


def open_version_form(p):
    open_workspace(p)
    p.visible('#version-view [name="content-state.gate"]', "the version's form")


def open_version_tab(tab, css):
    def open_tab(p):
        open_workspace(p)
        p.click(f'#version-view [role="tab"][data-tab="{tab}"]')
        p.visible(f"#version-view {css}")
    return open_tab


def open_policy_form(p):
    open_version_tab("policy", "#policy-edit")(p)
    p.click("#policy-edit")
    p.visible("#policy-mode")


def open_publish_editor(p):
    open_workspace(p)
    p.click("#new-version")
    p.visible("#publish-schema")
    p.text_in("#check-status", "Passes every publishing rule", "the dry run's verdict")


def open_publish_dialog(p):
    """The risky confirmation: the dry run found breaking changes, the button says so."""
    open_workspace(p)
    p.click("#new-version")
    p.paste_into("#publish-schema", SCHEMA_V2)
    p.visible("#publish-check .compat-warning", "the compatibility warning")
    p.click("#publish-submit")
    p.dialog_open("#publish-dialog")


def open_publish_draft_changes(p):
    """The editor with an edited draft: the headline, the findings and the draft's changes."""
    open_workspace(p)
    p.click("#new-version")
    p.paste_into("#publish-schema", SCHEMA_V2)
    p.visible("#draft-diff-table", "the draft's changes against the newest version")


def open_leave_dialog(p):
    """Leaving an edited editor: the question, with the draft kept or discarded."""
    open_publish_draft_changes(p)
    p.click(f'#types-list .type-button[data-type="{A11Y_TYPE}"]')
    p.dialog_open("#leave-dialog")


def open_delete_dialog(p):
    open_workspace(p)
    p.click("#delete-version")
    p.dialog_open("#delete-dialog")


def open_type_search(p):
    """The sidebar's list narrowed by its search box to the fixture type."""
    open_workspace(p)
    search(p, A11Y_TYPE)


def open_audit_trail(p):
    open_workspace(p)
    p.click("#audit-link")
    p.visible("#audit-list .audit-event", "the audit events")


def open_check_values(p):
    """Values checked with :check, a problem shown beside its field."""
    open_version_form(p)
    p.type_into('#version-view [name="content-state.delayMinutes"]', "-3")
    p.click("#check-values")
    p.text_in("#check-values-result", "problem")


def open_preview_push(p):
    """A push previewed with live_activities:preview: headers, payload and its size."""
    open_version_form(p)
    p.type_into('#version-view [name="attributes.flightNumber"]', "LH 402")
    p.type_into("#preview-bundle", "com.example.flights")
    p.type_into("#preview-activity-id", "flight-LH402")
    p.click("#preview-push")
    p.text_in("#preview-result", "would be accepted")

def open_unavailable(p):
    """A 503 from the registry: the failure and its Retry button in the pane."""
    open_workspace(p)
    go(p, "#/app/" + hash_segment(APP))
    p.visible("#welcome-view")
    p.js(UNAVAILABLE)  # undone by the next view's reload
    p.click(f'#types-list .type-button[data-type="{A11Y_TYPE}"]')
    p.visible("#status-view button.retry", "Retry after a 503")


READ_TOKEN = None  # issued on first use


def open_read_only_version(p):
    """A version page as a read-only token sees it: no publish, no delete, no policy form."""
    global READ_TOKEN
    READ_TOKEN = READ_TOKEN or issue_token("read")
    p.driver.get(BASE + "/panel/")
    p.js("sessionStorage.setItem(arguments[0], arguments[1])", TOKEN_KEY, READ_TOKEN)
    go(p, type_hash(A11Y_TYPE, "version", 2))
    p.driver.refresh()  # a fragment change alone would not load the page with the new token
    p.text_in("#version-title", f"{A11Y_TYPE} version 2")
    p.wait(lambda d: p.js("return document.body.dataset.scope") == "read", "the read scope")

def open_change_dialog(p):
    """Deprecating a version: who reads it first, then the message and sunset fields."""
    open_workspace(p)
    p.click("#deprecate-version")
    p.dialog_open("#change-dialog")
    p.wait(lambda d: p.find("#usage-panel").get_attribute("data-loaded") == "true", "who reads it")


def open_type_details_form(p):
    open_workspace(p)
    p.click("#type-about-edit")
    p.visible("#type-description-input")


def open_deprecated_version(p):
    """Version 1 deprecated (through the API, once): its badge, its line in the list, its notice."""
    path = schema_path(A11Y_TYPE, 1)
    status, body, _ = api("GET", path, query={"application": APP})
    assert status == 200, body
    if body["schema"].get("state") != "deprecated":
        status, body, _ = api("POST", path + ":deprecate", {"message": "Use version 2.", "sunset": "2027-03-01T00:00:00Z"},
                              query={"application": APP})
        assert status == 200, f"deprecate: HTTP {status} {body}"
    open_workspace(p)
    p.click('#versions-list .version-button[data-version="1"]')
    p.visible("#state-notice", "the deprecation notice")


def open_search_results(p):
    open_workspace(p)
    go(p, "#/app/" + hash_segment(APP) + "/search/" + hash_segment(A11Y_TYPE.lower()[2:12]))
    p.visible("#search-results .search-result", "a search result")


VIEWS = [
    View("sign-in", open_sign_in),
    View("sign-in-error", open_sign_in_error),
    View("type-search", open_type_search),
    View("version-form", open_version_form),
    View("version-check-values", open_check_values),
    View("version-preview-push", open_preview_push),
    View("version-json", open_version_tab("json", ".json-view")),
    View("version-text", open_version_tab("text", ".raw-view")),
    View("version-changes", open_version_tab("changes", "#diff-table")),
    View("version-policy", open_version_tab("policy", "#policy-facts")),
    View("version-policy-form", open_policy_form),
    View("publish-editor", open_publish_editor),
    View("publish-dialog", open_publish_dialog, full_page=False),
    View("publish-draft-changes", open_publish_draft_changes),
    View("leave-dialog", open_leave_dialog, full_page=False),
    View("delete-dialog", open_delete_dialog, full_page=False),
    View("audit-trail", open_audit_trail),
    View("unavailable-retry", open_unavailable),
    View("read-only-version", open_read_only_version),
    View("change-dialog", open_change_dialog, full_page=False),
    View("type-details-form", open_type_details_form),
    View("deprecated-version", open_deprecated_version),
    View("search-results", open_search_results),
    *(View(*view) for view in steps_webhooks.VIEWS),
]


# --- the steps ------------------------------------------------------------------------------

def step_a11y_fixture(p):
    """A type of its own with two versions: the richest form, then a compatible second one."""
    global A11Y_TYPE
    A11Y_TYPE = unused_type_name("AccessibleFlight")
    v2 = json.loads(SCHEMA_V1)
    v2["properties"]["terminal"] = {"type": "string"}
    for version, text in ((1, SCHEMA_V1), (2, json.dumps(v2))):
        status, body, _ = api("POST", "/api/live_activity_schemas", body={
            "application": APP, "attributesType": A11Y_TYPE, "jsonSchema": text, "version": version})
        assert status == 200, f"publish version {version}: HTTP {status} {body}"


def step_a11y_checks_catch_the_known_defects(p):
    """The checks themselves: on a panel page, a button drawn like the old dark-mode Delete
    (white on #ff8a80, 2.28:1) must be an axe color-contrast violation, and the old focus ring
    (#f0a500 on white, 2.08:1) a focus-ring problem, and grey text in a dialog a contrast problem
    although axe leaves it undecided; the panel's own Delete ring passes in both colour schemes."""
    open_workspace(p)
    set_scheme(p, "light")
    try:
        p.js("""
            const old = document.createElement('button');
            old.id = 'a11y-canary'; old.type = 'button'; old.textContent = 'Delete version 2…';
            Object.assign(old.style, { background: '#ff8a80', color: '#ffffff', outline: '3px solid #f0a500' });
            document.querySelector('#version-view').append(old);
            old.focus();
        """)
        found = [line for line in axe_violations(p) if line.startswith("color-contrast ") and "#a11y-canary" in line]
        assert found, "axe did not report white on #ff8a80"
        # The default rule set runs too: an invalid autocomplete value is autocomplete-valid (serious).
        p.js("const i = document.createElement('input'); i.id = 'a11y-canary-input'; i.setAttribute('aria-label', 'canary');"
             "i.setAttribute('autocomplete', 'flight-number'); document.querySelector('#version-view').append(i);")
        found = [line for line in axe_violations(p) if line.startswith("autocomplete-valid ") and "#a11y-canary-input" in line]
        assert found, "axe did not report autocomplete=\"flight-number\" (autocomplete-valid)"
        p.js("document.querySelector('#a11y-canary-input').remove()")
        problem = focus_ring_problem(p.js(FOCUS_PROBE))
        assert problem and "2.08:1" in problem, f"the #f0a500 ring on white was not caught: {problem}"
        for scheme in SCHEMES:
            set_scheme(p, scheme)
            # Shift+Tab then Tab: keyboard focus, so :focus-visible applies as it does for a person.
            p.find("#delete-version").send_keys(Keys.SHIFT, Keys.TAB)
            p.driver.switch_to.active_element.send_keys(Keys.TAB)
            probe = p.js(FOCUS_PROBE)
            assert "delete-version" in probe["element"], probe["element"]
            assert focus_ring_problem(probe) is None, f"{scheme}: {focus_ring_problem(probe)}"
        # Over a modal dialog's backdrop axe cannot decide contrast; the step measures it itself.
        set_scheme(p, "light")
        p.click("#delete-version")
        p.dialog_open("#delete-dialog")
        p.js("document.querySelector('#delete-text').style.color = '#aaaaaa'")  # 2.3:1 on white
        found = [line for line in axe_violations(p) if "undecided" in line and line.endswith(" at #delete-text")]
        assert found, "grey text in the delete dialog was not measured"
    finally:
        p.js("document.querySelector('#a11y-canary')?.remove()")
        p.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def step_a11y_every_view_width_and_scheme(p):
    failures = []
    checked = 0
    seconds = {"open": 0.0, "axe": 0.0, "focus": 0.0, "screenshots": 0.0}

    def timed(part, action, *args):
        started = time.monotonic()
        try:
            return action(*args)
        finally:
            seconds[part] += time.monotonic() - started

    try:
        for width, height, mobile in WIDTHS:
            p.set_width(width, height, mobile=mobile)
            for view in VIEWS:
                set_scheme(p, "light")
                try:
                    timed("open", view.open, p)
                except Exception as error:  # noqa: BLE001 - one view that fails to open must not hide the others
                    failures.append(f"{view.name} @ {width}px: could not open: {error}")
                    continue
                for scheme in SCHEMES:
                    set_scheme(p, scheme)
                    where = f"{view.name} @ {width}px, {scheme}"
                    timed("screenshots", p.shot, f"a11y-{view.name}-{width}-{scheme}", view.full_page)
                    failures += [f"{where}: {line}" for line in timed("axe", axe_violations, p)]
                    if width == WIDTHS[0][0]:  # the rings' colours and backdrops are the same at every width
                        failures += [f"{where}: {line}" for line in timed("focus", focus_ring_problems, p)]
                    checked += 1
    finally:
        p.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        p.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        open_workspace(p)  # leave the panel signed in, as the next steps expect
    expected = len(VIEWS) * len(WIDTHS) * len(SCHEMES)
    print(f"     accessibility: {checked} of {expected} view × width × scheme combinations checked ("
          + ", ".join(f"{part} {total:.0f}s" for part, total in seconds.items()) + ")")
    assert not failures, f"{len(failures)} accessibility problems:\n" + "\n".join(failures)
    assert checked == expected, f"only {checked} of {expected} combinations were checked"


def step_a11y_fixture_removed(p):
    for version in (2, 1):
        status, body, _ = api("DELETE", schema_path(A11Y_TYPE, version), query={"application": APP})
        assert status in (200, 204), f"delete version {version}: HTTP {status} {body}"


STEPS = [
    step_a11y_fixture,
    step_a11y_checks_catch_the_known_defects,
    step_a11y_every_view_width_and_scheme,
    step_a11y_fixture_removed,
]
