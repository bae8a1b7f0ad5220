#!/usr/bin/env python3
"""Drives the real control panel (`/panel/`) in headless Chromium against a real registry.

Run it through `Tests/Browser/run.sh`, which starts a throwaway stack and sets:
  PANEL_URL    the registry's base URL (e.g. http://127.0.0.1:41234)
  PANEL_TOKEN  an API token of a fresh account
  PANEL_APP    an application code of that account

Each step acts like a person in the browser (1280 px wide, then 360 px for the layout), checks
what the page shows, then checks through the API (urllib, same server) that the registry
reflects it. Screenshots of every step go to Tests/artifacts/panel/ (git-ignored). The last
line is `N passed, M failed`; the exit status is non-zero when a step failed.
"""

import sys
import time
import traceback

from harness import *  # noqa: F403 - the shared vocabulary of every step
import steps_a11y
import steps_care
import steps_lifecycle
import steps_shell
import steps_version
import steps_webhooks

TYPE = None  # chosen once the API answers


# --- the steps ----------------------------------------------------------------------------
# Steps for the version page, the panel's shell, care for what people type, a version's life
# (states, pins, metadata, search), webhooks and accessibility live in steps_version.py,
# steps_shell.py, steps_care.py, steps_lifecycle.py, steps_webhooks.py and steps_a11y.py; each
# exports STEPS, run after the core steps below (the webhooks' subscriptions stay for the
# accessibility pass and are removed after it).

def step_page_is_served_safely(p):
    with urllib.request.urlopen(BASE + "/panel/", timeout=10) as response:
        headers = {k.lower(): v for k, v in response.headers.items()}
        body = response.read().decode()
    assert headers.get("content-security-policy") == CSP, headers.get("content-security-policy")
    assert headers.get("x-content-type-options") == "nosniff"
    assert headers.get("cache-control") == "no-cache"
    assert "<script>" not in body and " style=" not in body, "inline script or style in index.html"
    for asset in ("app.js", "api.js", "form-render.js", "panel.css"):
        with urllib.request.urlopen(BASE + "/panel/" + asset, timeout=10) as response:
            assert response.status == 200, asset
    try:
        urllib.request.urlopen(BASE + "/panel/no-such-file.js", timeout=10)
        raise AssertionError("an unknown panel file was served")
    except urllib.error.HTTPError as error:
        assert error.code == 404, error.code


def step_sign_in_page(p):
    p.driver.get(BASE + "/panel/")
    p.visible("#sign-in-view")
    token = p.visible("#token-input")
    assert p.driver.switch_to.active_element == token, "the token field should have focus"
    assert not p.unlabelled_controls(), p.unlabelled_controls()
    p.shot("sign-in")


def step_wrong_token_is_refused(p):
    p.type_into("#token-input", "not-a-real-token")
    p.find("#token-input").send_keys(Keys.ENTER)  # keyboard only
    p.text_in("#errors", "not accepted")
    p.visible("#sign-in-view")
    assert p.js("return sessionStorage.getItem('schema-registry.token')") is None
    p.shot("wrong-token")


def step_sign_in(p):
    p.type_into("#token-input", TOKEN)
    p.find("#token-input").send_keys(Keys.ENTER)
    p.visible("#workspace", "the workspace after signing in")
    p.gone("#sign-in-view")
    assert p.js("return sessionStorage.getItem('schema-registry.token')") == TOKEN, "token not in sessionStorage"
    assert p.js("return localStorage.length") == 0, "nothing may go to localStorage"
    p.shot("signed-in")


def step_pick_application(p):
    select = Select(p.visible("#application-select"))
    codes = [option.get_attribute("value") for option in select.options]
    status, body, _ = api("GET", "/api/applications")
    assert status == 200, body
    assert codes == [app["code"] for app in body["applications"]], (codes, body)
    select.select_by_value(APP)
    p.wait(lambda d: p.js("return sessionStorage.getItem('schema-registry.application')") == APP, "the application choice")
    p.wait(lambda d: p.find("#types-list").is_displayed() or p.find("#types-empty").is_displayed(), "the types list")
    status, body, _ = api("GET", "/api/live_activity_schemas", query={"application": APP})
    shown = [b.get_attribute("data-type") for b in p.find_all("#types-list .type-button")]
    assert shown == sorted({s["attributes_type"] for s in body["schemas"]}, key=lambda t: t.encode()), shown
    p.shot("application-picked")


def step_publish_editor_shows_problems(p):
    global TYPE
    TYPE = unused_type_name("FlightAttributes")
    p.click("#new-schema")
    p.visible("#publish-view")
    p.type_into("#publish-type", TYPE)
    p.paste_into("#publish-schema", '{"type": "array", "properties": {}}')
    p.text_in("#publish-check", "cannot be published", "the dry run to reject a non-object schema")
    path = p.find("#check-problems .path").text
    assert path == "jsonSchema.type", path
    p.shot("publish-problem")
    p.paste_into("#publish-schema", '{"type": "object", "properties": {"gate": {"type": "string"}}')  # unterminated
    p.text_in("#publish-check", "not valid JSON")
    p.click("#check-problems button.link")  # "Show in the editor" moves the caret to the error
    assert p.driver.switch_to.active_element == p.find("#publish-schema")
    assert not p.unlabelled_controls(), p.unlabelled_controls()


def step_publish_first_version(p):
    p.type_into("#publish-schema", SCHEMA_V1)  # typed, like a person pasting with the keyboard
    p.text_in("#check-status", "Passes every publishing rule", "the dry run to accept the schema")
    p.visible('#publish-check [name="content-state.gate"]', "the form preview")
    p.text_in("#publish-check", "Nothing to compare")
    assert "null" not in p.find("#publish-check").text.split("\n"), "a stray null in the dry run"
    p.shot("publish-preview")
    p.click("#publish-submit")
    p.dialog_open("#publish-dialog")
    p.text_in("#publish-dialog", "Nothing to compare")
    assert p.find("#publish-confirm").text == "Publish"
    p.shot("publish-confirm", full_page=False)
    p.click("#publish-confirm")
    p.dialog_closed("#publish-dialog")
    p.text_in("#messages", f"Published {TYPE} version 1")
    status, body, _ = api("GET", schema_path(TYPE, 1), query={"application": APP})
    assert status == 200, body
    assert body["schema"]["json_schema"] == SCHEMA_V1, "the published text differs from what was typed"


def step_version_view_renders_the_form(p):
    p.text_in("#version-title", f"{TYPE} version 1")
    p.visible('#version-view [name="content-state.gate"]', "the version's form")
    status, body, _ = api("GET", schema_path(TYPE, 1) + "/form", query={"application": APP})
    assert status == 200, body
    form = body["form"]

    def expected_names(fields):
        for field in fields:
            if field["widget"] == "group":
                yield from expected_names(field["fields"])
            elif field["widget"] != "list":
                yield field["path"]

    shown = set(p.js("return [...document.querySelectorAll('#version-view .generated-form [name]')].map(e => e.name)"))
    for name in expected_names(form["content"]["fields"] + form["attributes"]["fields"]):
        assert name in shown, f"no input named {name}; shown: {sorted(shown)}"
    kinds = {
        "content-state.gate": "input[type=text]", "content-state.status": "select",
        "content-state.estimatedTime": "input[type=datetime-local]", "content-state.departure": "input[type=datetime-local]",
        "content-state.delayMinutes": "input[type=text][inputmode=numeric]", "content-state.onTime": "input[type=checkbox]",
        "content-state.notes": "textarea", "content-state.website": "input[type=url]",
        "content-state.accent": "input[type=color]", "content-state.crew.captain": "input[type=text]",
        "content-state.extra": "textarea", "attributes.flightNumber": "input[type=text]",
    }
    for name, selector in kinds.items():
        assert p.find_all(f'#version-view {selector}[name="{name}"]'), f"{name} should be a {selector}"
    options = [o.text for o in Select(p.find('#version-view [name="content-state.status"]')).options]
    assert options[1:] == ["Scheduled", "Boarding", "Departed"], options
    flight = p.find('#version-view [name="attributes.flightNumber"]')
    assert flight.get_attribute("required") is not None, "flightNumber must be marked required"
    label = p.find(f'#version-view label[for="{flight.get_attribute("id")}"]')
    assert "*" in label.text, f"required mark missing in {label.text!r}"
    airline = p.find('#version-view [name="attributes.airline"]')
    assert airline.get_attribute("required") is None
    assert "2001-01-01" in p.find('#version-view [data-path="content-state.departure"] ~ .field-hint').text
    p.find('#version-view fieldset[data-path="content-state.crew"]')
    # The list: add two items (named by index), remove one, the add button stops at maxItems.
    p.click('#version-view fieldset[data-path="content-state.stops"] > button')
    p.click('#version-view fieldset[data-path="content-state.stops"] > button')
    names = p.js("return [...document.querySelectorAll('#version-view [data-path=\"content-state.stops[]\"]')].map(e => e.name)")
    assert names == ["content-state.stops[0]", "content-state.stops[1]"], names
    assert p.driver.switch_to.active_element.get_attribute("name") == "content-state.stops[1]", "focus goes to the new item"
    p.click('#version-view fieldset[data-path="content-state.stops"] .remove-item')
    names = p.js("return [...document.querySelectorAll('#version-view [data-path=\"content-state.stops[]\"]')].map(e => e.name)")
    assert names == ["content-state.stops[0]"], names
    assert not p.unlabelled_controls(), p.unlabelled_controls()
    p.shot("version-form")


def step_version_json_and_published_text(p):
    form_tab = p.find('#version-view [role="tab"][data-tab="form"]')
    form_tab.send_keys(Keys.ARROW_RIGHT)  # keyboard: arrow keys move between tabs
    p.wait(lambda d: p.find('#version-view [role="tab"][data-tab="json"]').get_attribute("aria-selected") == "true",
           "the JSON tab via the arrow key")
    pretty = p.visible("#version-view .json-view").text
    assert json.loads(pretty) == json.loads(SCHEMA_V1) and "\n" in pretty, "JSON tab is not the pretty schema"
    p.shot("version-json")
    p.click('#version-view [role="tab"][data-tab="text"]')
    raw = p.visible("#version-view .raw-view").get_attribute("textContent")
    assert raw == SCHEMA_V1, "the published text tab differs from the published text"
    p.click('#version-view [role="tab"][data-tab="form"]')


def step_existing_version_is_refused_with_its_message(p):
    p.click("#new-version")
    p.visible("#publish-view")
    p.type_into("#publish-version", "1")
    p.text_in("#check-status", "Version 1 already exists")  # :validate skips the version conflict; the panel does not
    p.click("#publish-submit")
    p.dialog_open("#publish-dialog")
    p.click("#publish-confirm")
    p.dialog_closed("#publish-dialog")
    p.text_in("#publish-error", "Already exists (HTTP 409, code 6)", "the 409 error body as a message")
    assert "version 1 already exists" in p.find("#publish-error").text, p.find("#publish-error").text
    assert api_versions(TYPE) == [1]
    p.shot("conflict-error")
    p.click("#publish-form .actions button.secondary")  # Cancel
    assert p.discard_if_asked(), "leaving the edited editor did not ask"
    p.visible("#version-view")


def step_incompatible_version_warns_before_publishing(p):
    p.click("#new-version")
    p.visible("#publish-view")
    assert p.find("#publish-type").get_attribute("value") == TYPE
    prefilled = p.find("#publish-schema").get_attribute("value")
    assert json.loads(prefilled) == json.loads(SCHEMA_V1), "the editor should start from the newest version"
    p.type_into("#publish-version", str(EXPLICIT_VERSION))
    p.paste_into("#publish-schema", SCHEMA_V2)
    warning = p.visible("#publish-check .compat-warning", "the compatibility warning in the dry run")
    assert "content-state.gate" in warning.text and "removed" in warning.text, warning.text
    assert "content-state.delayMinutes" in warning.text, warning.text
    status, body, _ = api("POST", "/api/live_activity_schemas:validate",
                          {"application": APP, "attributesType": TYPE, "jsonSchema": SCHEMA_V2, "version": EXPLICIT_VERSION})
    assert status == 200 and not body["compatibility"]["compatible"], body
    for problem in body["compatibility"]["problems"]:
        assert problem["path"] in warning.text, f"{problem['path']} missing from the warning"
    p.shot("incompatible-warning")
    p.click("#publish-submit")
    p.dialog_open("#publish-dialog")
    dialog = p.find("#publish-dialog")
    assert "Not compatible" in dialog.text and "content-state.gate" in dialog.text, dialog.text
    assert p.find("#publish-confirm").text == "Publish anyway"
    assert api_versions(TYPE) == [1], "nothing may be published before confirming"
    p.shot("incompatible-confirm", full_page=False)
    p.click("#publish-confirm")
    p.dialog_closed("#publish-dialog")
    p.text_in("#messages", f"Published {TYPE} version {EXPLICIT_VERSION}")
    p.text_in("#messages", "compatibility findings against earlier versions")
    assert api_versions(TYPE) == [EXPLICIT_VERSION, 1], api_versions(TYPE)


def step_versions_newest_first(p):
    p.text_in("#version-title", f"version {EXPLICIT_VERSION}")
    buttons = p.find_all("#versions-list .version-button")
    assert [b.get_attribute("data-version") for b in buttons] == [str(EXPLICIT_VERSION), "1"]
    for button in buttons:
        assert button.find_element(By.CSS_SELECTOR, "time").get_attribute("datetime").endswith("Z")
    p.shot("versions-newest-first")


def step_delete_with_confirmation(p):
    p.click('#versions-list .version-button[data-version="1"]')
    p.text_in("#version-title", f"{TYPE} version 1")
    delete = p.visible("#delete-version")
    delete.send_keys(Keys.ENTER)  # keyboard only
    p.dialog_open("#delete-dialog")
    text = p.find("#delete-dialog").text
    for words in (TYPE, "version 1", "permanently", "cannot be undone"):
        assert words in text, f"{words!r} missing from the dialog: {text!r}"
    p.shot("delete-dialog", full_page=False)
    p.driver.switch_to.active_element.send_keys(Keys.ESCAPE)  # Escape cancels
    p.dialog_closed("#delete-dialog")
    assert api_versions(TYPE) == [EXPLICIT_VERSION, 1], "cancelling must not delete"
    p.click("#delete-version")
    p.dialog_open("#delete-dialog")
    p.click("#delete-confirm")
    p.dialog_closed("#delete-dialog")
    p.text_in("#messages", f"Deleted {TYPE} version 1 permanently")
    status, _, _ = api("GET", schema_path(TYPE, 1), query={"application": APP})
    assert status == 404, f"version 1 still answers {status}"
    assert api_versions(TYPE) == [EXPLICIT_VERSION]
    p.wait(lambda d: [b.get_attribute("data-version") for b in p.find_all("#versions-list .version-button")]
           == [str(EXPLICIT_VERSION)], "the list without version 1")
    p.shot("after-delete")



# Names that mean something in a URL. All-dot names are checked as the segment the panel
# writes (`%2F%2E%2E`: a browser's URL parser folds an all-dot segment however it is encoded,
# and the registry drops one leading `%2F`); steps_shell opens and deletes them in the panel.
URL_CHARACTER_TYPES = ["100%", "what?", "#1", "with space", "a.b", "\U0001F680 Rocket", "%2E"]


def step_types_with_url_characters_open_and_delete(p):
    segments = p.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "import('./api.js').then((m) => done(arguments[0].map(m.pathSegment))).catch((e) => done(String(e)));",
        [".", ".."])
    assert segments == ["%2F%2E", "%2F%2E%2E"], f"all-dot names as segments: {segments}"
    for name in URL_CHARACTER_TYPES:
        status, body, _ = api("POST", "/api/live_activity_schemas",
                              body={"application": APP, "attributesType": name, "jsonSchema": SCHEMA_V1})
        assert status == 200, f"publish {name!r}: HTTP {status} {body}"
        # The panel's own API module, in the page, as the version view and the delete button use it.
        result = p.driver.execute_async_script(
            "const [application, name, done] = arguments;"
            "import('./api.js').then(async ({ api }) => {"
            "  const schema = await api.schema(application, name, 1);"
            "  const form = await api.form(application, name, 1);"
            "  await api.remove(application, name, 1);"
            "  done({ type: schema.attributes_type, form: form !== undefined });"
            "}).catch((e) => done({ error: String(e && e.message || e) }));",
            APP, name)
        assert result == {"type": name, "form": True}, f"{name!r}: {result}"
        assert api_versions(name) == [], f"{name!r} was not deleted"


def step_narrow_layout(p):
    p.set_width(360, 780, mobile=True)
    try:
        p.driver.refresh()  # the token survives a reload (sessionStorage)
        p.visible("#workspace")
        p.visible('#version-view [name="content-state.status"]', "the form at 360 px")
        assert p.horizontal_overflow() <= 0, f"{p.horizontal_overflow()} px of horizontal scrolling at 360 px"
        types = p.find("#types-pane").rect
        content = p.find(".content-pane").rect
        assert types["y"] + types["height"] <= content["y"] + 1, "types and versions should stack at 360 px"
        assert content["width"] <= 360, content
        size = p.js("return parseFloat(getComputedStyle(document.body).fontSize)")
        assert size >= 14, f"body text is {size}px"
        p.shot("narrow-version")
        p.click("#new-version")
        p.visible("#publish-schema")
        p.text_in("#check-status", "Passes")
        assert p.horizontal_overflow() <= 0, f"{p.horizontal_overflow()} px of horizontal scrolling in the editor"
        p.shot("narrow-publish")
        p.click("#publish-form .actions button.secondary")  # Cancel
        p.find("#version-view [role=tab]").click()
        p.click("#delete-version")
        p.dialog_open("#delete-dialog")
        rect = p.find("#delete-dialog").rect
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= 360, rect
        p.shot("narrow-delete-dialog", full_page=False)
        p.click('#delete-dialog button[value="cancel"]')
        p.dialog_closed("#delete-dialog")
    finally:
        p.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def step_sign_out(p):
    p.click("#sign-out")
    p.visible("#sign-in-view")
    assert p.js("return sessionStorage.getItem('schema-registry.token')") is None, "sign-out must clear the token"
    p.driver.refresh()
    p.visible("#sign-in-view", "the sign-in form after reloading")
    p.shot("signed-out")


def step_no_console_errors(p):
    p.collect_console()
    # Failed API calls (the dry run's 400s) are logged by the browser as resources; they are expected.
    problems = [entry["message"] for entry in p.console
                if entry.get("level") == "SEVERE" and "Failed to load resource" not in entry["message"]]
    assert not problems, "\n".join(problems)


STEPS = [
    step_page_is_served_safely,
    step_sign_in_page,
    step_wrong_token_is_refused,
    step_sign_in,
    step_pick_application,
    step_publish_editor_shows_problems,
    step_publish_first_version,
    step_version_view_renders_the_form,
    step_version_json_and_published_text,
    step_existing_version_is_refused_with_its_message,
    step_incompatible_version_warns_before_publishing,
    step_versions_newest_first,
    step_delete_with_confirmation,
    step_narrow_layout,
    step_types_with_url_characters_open_and_delete,
    *steps_version.STEPS,
    *steps_shell.STEPS,
    *steps_care.STEPS,
    *steps_lifecycle.STEPS,
    *steps_webhooks.STEPS,
    *steps_a11y.STEPS,
    steps_webhooks.step_webhooks_removed,
    step_sign_out,
    step_no_console_errors,
]


# The steps every run needs (signed in, the application picked); PANEL_STEPS=word,word runs
# only these and the steps whose names contain a word, for working on a few steps.
SETUP_STEPS = [step_page_is_served_safely, step_sign_in_page, step_sign_in, step_pick_application]


def chosen_steps():
    words = [w for w in os.environ.get("PANEL_STEPS", "").split(",") if w]
    if not words:
        return STEPS
    return SETUP_STEPS + [s for s in STEPS if s not in SETUP_STEPS and any(w in s.__name__ for w in words)]


def main():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in ARTIFACTS.glob("*.png"):
        old.unlink()
    driver = make_driver()
    panel = Panel(driver)
    passed = failed = 0
    try:
        for step in chosen_steps():
            name = step.__name__.removeprefix("step_")
            started = time.monotonic()
            try:
                step(panel)
            except Exception as error:  # noqa: BLE001 - every failure is reported, then the next step runs
                failed += 1
                print(f"FAIL {name}: {error}", flush=True)
                traceback.print_exc(limit=3, file=sys.stdout)
                try:
                    print(f"     screenshot: {panel.shot(f'FAILED-{name}', full_page=False)}")
                except Exception:  # noqa: BLE001
                    pass
            else:
                passed += 1
                print(f"PASS {name} ({time.monotonic() - started:.1f}s)", flush=True)
            panel.collect_console()
    finally:
        driver.quit()
    print(f"screenshots: {ARTIFACTS}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
