"""Browser steps: version. Each takes the `Panel` and runs while signed in, after panel_test's core steps.

They publish their own type through the API (three versions: a pattern to break, an added
field, a removed field), then use the version page as a journey author would: check typed
values, preview the push, compare versions, read and change the policy, and publish with the
warnings before the confirmation. Each feature runs at 1280×900 and at 390×844."""

from harness import *  # noqa: F403

TRY_TYPE = None  # chosen by the first step

FLIGHT_PATTERN = "^[A-Z]{2} [0-9]{1,4}$"

TRY_V1 = {
    "type": "object",
    "properties": {
        "gate": {"type": "string", "maxLength": 4},
        "status": {"type": "string", "enum": ["scheduled", "boarding", "departed"]},
        "delayMinutes": {"type": "integer", "minimum": 0},
        "notes": {"type": "string"},
        "belt": {"type": "string"},
        "seat": {"type": "string"},
        "meal": {"type": "string"},
        "lounge": {"type": "string"},
        "wifi": {"type": "boolean"},
    },
    "attributes": {
        "properties": {"flightNumber": {"type": "string", "pattern": FLIGHT_PATTERN}},
        "required": ["flightNumber"],
    },
}
TRY_V2 = {**TRY_V1, "properties": {**TRY_V1["properties"], "terminal": {"type": "string"}}}  # adds a field
TRY_V3 = {**TRY_V2, "properties": {k: v for k, v in TRY_V2["properties"].items() if k != "gate"}}  # removes one
# Removes six more fields and adds a property whose name mixes Latin and Cyrillic (a warning).
TRY_V4 = {**TRY_V3, "properties": {
    **{k: v for k, v in TRY_V3["properties"].items() if k not in ("belt", "seat", "meal", "lounge", "wifi", "delayMinutes")},
    "g\u0430te": {"type": "string"},
}}


def text_of(schema):
    return json.dumps(schema, separators=(",", ":"))


def at_phone_width(p, action):
    """Runs `action` at 390×844 (a phone), then returns to 1280×900."""
    p.set_width(390, 844, mobile=True)
    try:
        action()
        assert p.horizontal_overflow() <= 0, f"{p.horizontal_overflow()} px of horizontal scrolling at 390 px"
    finally:
        p.set_width(1280, 900)


def open_version(p, attributes_type, version, tab="form"):
    if not p.find_all(f'#types-list .type-button[data-type="{attributes_type}"]'):
        p.driver.refresh()
        p.visible("#workspace")
    p.click(f'#types-list .type-button[data-type="{attributes_type}"]')
    p.click(f'#versions-list .version-button[data-version="{version}"]')
    p.text_in("#version-title", f"version {version}")
    p.click(f'#version-view [role="tab"][data-tab="{tab}"]')


def version_field(p, name):
    return p.visible(f'#version-view .generated-form [name="{name}"]', f"the input {name}")


def step_version_page_check_values(p):
    global TRY_TYPE
    TRY_TYPE = unused_type_name("TryFlight")
    for version, schema in enumerate((TRY_V1, TRY_V2, TRY_V3), start=1):
        status, body, _ = api("POST", "/api/live_activity_schemas",
                              {"application": APP, "attributesType": TRY_TYPE, "jsonSchema": text_of(schema), "version": version})
        assert status == 200, f"publish {version}: HTTP {status} {body}"
    p.driver.refresh()
    p.visible("#workspace")
    open_version(p, TRY_TYPE, 1)

    def check_bad_flight_number():
        flight = version_field(p, "attributes.flightNumber")
        p.type_into(f'#version-view [name="attributes.flightNumber"]', "not a flight")
        # Typing alone gives feedback beside the field, once typing pauses.
        p.visible('#version-view .field-problem[data-problem-path="attributes.flightNumber"]',
                  "feedback on the pattern without pressing a button")
        p.text_in("#check-values-result", "1 problem")
        p.type_into(f'#version-view [name="content-state.delayMinutes"]', "-3")
        p.click("#check-values")
        p.text_in("#check-values-result", "2 problems")
        note = p.visible('#version-view .field-problem[data-problem-path="attributes.flightNumber"]',
                         "the pattern problem beside the flight number")
        assert p.js("return arguments[0].closest('.field').contains(arguments[1])", flight, note), "the problem is not beside its field"
        assert flight.get_attribute("aria-invalid") == "true"
        assert note.get_attribute("id") in flight.get_attribute("aria-describedby").split(), "the problem is not announced with the field"
        p.visible('#version-view .field-problem[data-problem-path="content-state.delayMinutes"]', "the minimum problem")
        p.text_in("#check-values-result", "2 problems")
        p.text_in("#check-values-result", "shown beside their fields")
        status, body, _ = api("POST", schema_path(TRY_TYPE, 1) + ":check", {
            "application": APP, "event": "start", "content_state": {"delayMinutes": -3},
            "attributes": {"flightNumber": "not a flight"}})
        assert status == 200 and not body["valid"], body
        shown = set(p.js("return [...document.querySelectorAll('#version-view .field-problem')].map(e => e.dataset.problemPath)"))
        assert shown == {problem["path"] for problem in body["problems"]}, (shown, body)
        # After the first check every edit checks again: fixing both clears the problems.
        p.type_into(f'#version-view [name="attributes.flightNumber"]', "LH 402")
        p.type_into(f'#version-view [name="content-state.delayMinutes"]', "5")
        p.text_in("#check-values-result", "The values are valid")
        assert not p.find_all("#version-view .field-problem"), "problems stay after fixing them"
        assert flight.get_attribute("aria-invalid") is None
        assert not p.unlabelled_controls(), p.unlabelled_controls()

    check_bad_flight_number()
    assert "null" not in p.find("#version-view").text.split("\n"), "a stray null on the version page"
    p.shot("check-values")

    def on_phone():
        open_version(p, TRY_TYPE, 1)
        check_bad_flight_number()
        p.type_into(f'#version-view [name="attributes.flightNumber"]', "nope")
        p.visible('#version-view .field-problem[data-problem-path="attributes.flightNumber"]')
        rect = p.find('#version-view .field-problem[data-problem-path="attributes.flightNumber"]').rect
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= 390, rect
        p.shot("check-values-phone")

    at_phone_width(p, on_phone)


def step_version_page_preview_push(p):
    open_version(p, TRY_TYPE, 1)

    def preview_valid_push():
        p.type_into('#version-view [name="attributes.flightNumber"]', "LH 402")
        p.type_into('#version-view [name="content-state.gate"]', "B12")
        Select(version_field(p, "content-state.status")).select_by_visible_text("Boarding")
        p.type_into("#preview-bundle", "com.example.flights")
        p.type_into("#preview-activity-id", "flight-LH402")
        # The alert's defaults come from the type's name, not one flight text for every type.
        title, content = p.find("#preview-title").get_attribute("value"), p.find("#preview-content").get_attribute("value")
        assert (title, content) == ("Try Flight update", "Try Flight: new details"), (title, content)
        p.click("#preview-push")
        p.text_in("#preview-result", "would be accepted")
        payload = p.visible("#preview-payload").get_attribute("textContent")
        status, body, _ = api("POST", "/api/live_activities:preview", {
            "application": APP, "bundle_id": "com.example.flights", "schema_version": 1, "title": title,
            "content": content, "live_activity_id": "flight-LH402", "apns_priority": 10,
            "live_activity": {"event": "start", "attributes-type": TRY_TYPE,
                              "content-state": {"gate": "B12", "status": "boarding"},
                              "attributes": {"flightNumber": "LH 402"}}})
        assert status == 200 and body["valid"], body
        expected = body["request"]
        assert len(payload.encode()) == expected["payload_bytes"], (payload, expected["payload_bytes"])
        assert "\n" not in payload and json.loads(payload)["aps"] == {
            **expected["payload"]["aps"], "timestamp": json.loads(payload)["aps"]["timestamp"]}, payload
        headers = p.find("#preview-headers").text
        for name, value in expected["headers"].items():
            assert name in headers and value in headers, f"{name}: {value} missing from {headers!r}"
        p.text_in("#preview-size", f"{expected['payload_bytes']} of 4,096 bytes")
        p.click("#push-preview-part .copy-button")
        p.wait(lambda d: p.find("#push-preview-part .copy-status").text in ("Copied.", "Selected: press Ctrl+C to copy."),
               "the copy button's answer")

    preview_valid_push()
    p.shot("preview-push")
    # The payload is cut from the answer as sent: integer-like keys keep their place and numbers
    # their spelling, which JSON.parse + JSON.stringify would change.
    raw = p.driver.execute_async_script(
        "const [text, done] = arguments;"
        "import('./raw-json.js').then((m) => done([m.rawMember(text, ['request', 'payload']), m.rawMember(text, ['nope'])]))"
        ".catch((e) => done(String(e)));",
        '{"valid":true,"problems":[{"path":"a\\"}","message":"[{"}],"request":{"headers":{},'
        '"payload" : {"aps":{"b":1.50,"1":"\\u00e9"}},"payload_bytes":30}}')
    assert raw == ['{"aps":{"b":1.50,"1":"\\u00e9"}}', None], raw
    # Over the budget: a 5,000-character note makes a payload APNs would refuse.
    p.paste_into('#version-view [name="content-state.notes"]', "n" * 5000)
    p.click("#preview-push")
    p.visible("#preview-size.over", "the size over the budget")
    p.text_in("#preview-size", "over APNs' limit")
    p.text_in("#preview-result", "would be refused")
    p.paste_into('#version-view [name="content-state.notes"]', "")

    def on_phone():
        open_version(p, TRY_TYPE, 1)
        preview_valid_push()
        rect = p.find("#preview-payload").rect
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= 390, rect
        p.shot("preview-push-phone")

    at_phone_width(p, on_phone)


def step_version_page_diff_and_breaking_badges(p):
    open_version(p, TRY_TYPE, 3, tab="changes")
    p.visible('#versions-list .version-button[data-version="3"] .breaking-badge', "the breaking badge on version 3")
    # Version 2 only adds a field: compared, and not breaking.
    p.visible('#versions-list .version-button[data-version="2"][data-breaking="false"]', "version 2's verdict")
    assert not p.find_all('#versions-list .version-button[data-version="2"] .breaking-badge'), "version 2 is not breaking"
    assert not p.find_all('#versions-list .version-button[data-version="1"] .breaking-badge'), "version 1 has no predecessor"
    against = Select(p.visible("#diff-against"))
    assert against.first_selected_option.get_attribute("value") == "2", "the previous version is the default"
    assert [o.get_attribute("value") for o in against.options] == ["2", "1"]
    row = p.visible('#diff-table tr[data-path="content-state.gate"]', "the removed field")
    assert row.get_attribute("data-change") == "removed" and "breaking" in row.text, row.text
    p.text_in("#diff-summary", "1 change from version 2 to version 3, 1 breaking")
    against.select_by_value("1")
    p.text_in("#diff-summary", "from version 1 to version 3")
    status, body, _ = api("GET", schema_path(TRY_TYPE, 3) + ":diff", query={"application": APP, "against": 1})
    assert status == 200, body
    shown = p.js("return [...document.querySelectorAll('#diff-table tbody tr')].map(r => [r.dataset.path, r.dataset.change])")
    assert shown == [[c["path"], c["change"]] for c in body["changes"]], (shown, body["changes"])
    p.shot("diff")
    open_version(p, TRY_TYPE, 1, tab="changes")
    p.text_in("#diff-none", "oldest live version")

    def on_phone():
        open_version(p, TRY_TYPE, 3, tab="changes")
        p.visible('#diff-table tr[data-path="content-state.gate"]')
        p.visible('#versions-list .version-button[data-version="3"] .breaking-badge')
        p.shot("diff-phone")

    at_phone_width(p, on_phone)


def step_version_page_policy(p):
    status, body, _ = api("GET", "/api/token")
    assert status == 200 and body["token"]["scope"] == "admin", body
    policy_path = f"/api/live_activity_types/{TRY_TYPE}/compatibility_policy"
    open_version(p, TRY_TYPE, 3, tab="policy")
    p.text_in("#policy-source", "built-in default")
    p.text_in("#policy-floor", "1")

    def change_policy(floor):
        p.click("#policy-edit")
        Select(p.visible("#policy-mode")).select_by_value("backward")
        Select(p.find("#policy-enforce")).select_by_value("reject")
        p.type_into("#policy-floor-input", str(floor))
        assert not p.unlabelled_controls(), p.unlabelled_controls()
        p.click("#policy-save")
        p.dialog_open("#confirm-dialog")  # saving asks first, naming what changes
        assert "reject" in p.find("#confirm-dialog").text, p.find("#confirm-dialog").text
        p.click("#confirm-ok")
        p.dialog_closed("#confirm-dialog")
        p.text_in("#policy-message", "Saved")
        p.text_in("#policy-source", "set for this type")
        p.text_in("#policy-floor", str(floor))
        status, body, _ = api("GET", policy_path, query={"application": APP})
        assert status == 200, body
        policy = body["policy"]
        assert (policy["mode"], policy["enforce"], policy["oldest_supported_version"], policy["source"]) == \
            ("backward", "reject", floor, "type"), policy

    def remove_policy():
        p.click("#policy-edit")
        p.click("#policy-remove")
        p.text_in("#policy-source", "built-in default")
        status, body, _ = api("GET", policy_path, query={"application": APP})
        assert status == 200 and body["policy"]["source"] == "default", body

    change_policy(2)
    p.shot("policy")
    remove_policy()

    def on_phone():
        open_version(p, TRY_TYPE, 3, tab="policy")
        change_policy(3)
        p.shot("policy-phone")
        remove_policy()

    at_phone_width(p, on_phone)

    # A token without admin scope sees the policy but no way to change it. The page is loaded
    # with `GET /api/token` answering scope read, as the registry does for a read token.
    script = p.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        const realFetch = window.fetch;
        window.fetch = (url, init) => new URL(url, location.href).pathname === '/api/token'
          ? Promise.resolve(new Response('{"token":{"id":9,"scope":"read","name":"reader"}}',
              {status: 200, headers: {'Content-Type': 'application/json'}}))
          : realFetch(url, init);"""})
    try:
        p.driver.refresh()
        p.visible("#workspace")
        open_version(p, TRY_TYPE, 3, tab="policy")
        p.text_in("#policy-read-only", "needs an admin token")
        assert not p.find_all("#policy-edit"), "a read token must not be offered the policy form"
    finally:
        p.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
        p.driver.refresh()
        p.visible("#workspace")


def confirmation_title_in_view(p):
    """The confirmation's title and buttons are on screen, not scrolled away."""
    p.dialog_open("#publish-dialog")
    title, confirm = p.find("#publish-confirm-title"), p.find("#publish-confirm")
    for element in (title, confirm):
        visible = p.js("""
            const r = arguments[0].getBoundingClientRect();
            const x = r.left + Math.min(r.width / 2, 20), y = r.top + r.height / 2;
            return r.top >= 0 && r.bottom <= innerHeight && arguments[0].contains(document.elementFromPoint(x, y));""", element)
        assert visible, f"{element.get_attribute('id')} is not in view: {element.rect}"


def assert_unique_ids(p):
    duplicates = p.js("const ids = [...document.querySelectorAll('[id]')].map(e => e.id);"
                      "return ids.filter((id, i) => ids.indexOf(id) !== i);")
    assert not duplicates, f"ids used twice: {duplicates}"


def step_publishing_warns_and_keeps_the_report(p):
    open_version(p, TRY_TYPE, 3)
    p.click("#new-version")
    p.visible("#publish-view")
    # The editor starts from the newest text: identical to version 3.
    p.visible("#identical-version", "the identical-text warning")
    p.text_in("#identical-version", "Identical to version 3")
    p.click("#publish-submit")  # the confirmation repeats the warning
    p.dialog_open("#publish-dialog")
    p.text_in("#confirm-identical-version", "Identical to version 3")
    assert p.find("#publish-confirm").text == "Publish anyway"
    assert_unique_ids(p)
    p.click('#publish-dialog button[value="cancel"]')
    p.dialog_closed("#publish-dialog")
    p.type_into("#publish-version", "2")
    p.visible("#version-taken", "the taken-number warning")
    p.text_in("#version-taken", "Version 2 already exists")
    p.type_into("#publish-version", "")
    p.gone("#version-taken")
    # A stale verdict says so at once, before the debounced dry run answers.
    p.paste_into("#publish-schema", text_of(TRY_V4))
    assert p.find("#check-status").text == "Checking…", p.find("#check-status").text
    p.visible("#check-warnings", "the dry run's warnings")
    p.text_in("#check-warnings", "jsonSchema.properties.g\u0430te")
    p.gone("#identical-version")
    p.visible("#publish-check .compat-warning")
    assert p.find_all('#publish-check .compat-new [data-path="content-state.belt"]'), "new problems grouped by path"
    p.shot("publish-warnings")
    p.click("#publish-submit")
    confirmation_title_in_view(p)
    p.text_in("#confirm-warnings", "jsonSchema.properties.g\u0430te")
    assert p.js("const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight",
                p.find("#confirm-warnings")), "the warnings should be in view when the confirmation opens"
    assert_unique_ids(p)
    p.shot("publish-confirm-in-view", full_page=False)
    p.click("#publish-confirm")
    p.dialog_closed("#publish-dialog")
    p.text_in("#version-title", "version 4")
    report = p.visible("#publish-report", "the report on the version page")
    for path in ("content-state.belt", "content-state.wifi"):
        assert p.find_all(f'#publish-report .compat-new [data-path="{path}"]'), f"{path} missing from the new problems"
    inherited = p.find("#publish-report .compat-inherited")
    assert p.js("return arguments[0].querySelector('[data-path=\"content-state.gate\"]') !== null", inherited), \
        "the problem version 3 already had is listed as inherited"
    assert not p.find_all('#publish-report .compat-new [data-path="content-state.gate"]'), "an inherited problem shown as new"
    p.text_in("#publish-report-warnings", "jsonSchema.properties.g\u0430te")
    for dismiss in p.find_all("#messages .dismiss"):
        dismiss.click()
    assert report.is_displayed(), "the report must stay after the notice is dismissed"
    p.visible('#versions-list .version-button[data-version="4"] .breaking-badge')
    p.shot("publish-report")

    def on_phone():
        p.click("#new-version")
        p.visible("#publish-view")
        p.paste_into("#publish-schema", text_of({**TRY_V4, "properties": {}}))
        p.visible("#publish-check .compat-warning")
        p.click("#publish-submit")
        confirmation_title_in_view(p)
        p.shot("publish-confirm-phone", full_page=False)
        p.click('#publish-dialog button[value="cancel"]')
        p.dialog_closed("#publish-dialog")
        p.click("#publish-form .actions button.secondary")  # Cancel
        assert p.discard_if_asked(), "leaving the edited editor did not ask"
        p.visible("#version-view")

    at_phone_width(p, on_phone)
    assert api_versions(TRY_TYPE) == [4, 3, 2, 1], api_versions(TRY_TYPE)


def step_publishing_under_a_refusing_policy_shows_the_report(p):
    policy_path = f"/api/live_activity_types/{TRY_TYPE}/compatibility_policy"
    status, body, _ = api("PUT", policy_path, {"mode": "backward", "enforce": "reject"}, query={"application": APP})
    assert status == 200, body
    breaking = text_of({**TRY_V4, "properties": {"status": TRY_V4["properties"]["status"]}})

    def refused_in_the_dry_run(shot):
        open_version(p, TRY_TYPE, 4)
        p.click("#new-version")
        p.visible("#publish-view")
        p.paste_into("#publish-schema", breaking)
        p.text_in("#check-status", "policy of this type refuses")
        report = p.visible("#publish-check .compat-warning", "the refusal's report in the dry run")
        assert "content-state.notes" in report.text, report.text
        p.click("#publish-submit")
        p.text_in("#publish-error", "Fix the problems")
        assert not p.js("return document.querySelector('#publish-dialog').open"), "no confirmation for a refused schema"
        p.shot(shot)
        p.click("#publish-form .actions button.secondary")  # Cancel
        assert p.discard_if_asked(), "leaving the edited editor did not ask"

    try:
        refused_in_the_dry_run("publish-refused")

        def on_phone():
            refused_in_the_dry_run("publish-refused-phone")

        at_phone_width(p, on_phone)
    finally:
        status, body, _ = api("DELETE", policy_path, query={"application": APP})
        assert status == 200, body
    assert api_versions(TRY_TYPE) == [4, 3, 2, 1], api_versions(TRY_TYPE)


CONTRAST_SCRIPT = """
const parse = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
const lum = ([r, g, b]) => {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
};
const background = (el) => {
  for (let e = el; e; e = e.parentElement) {
    const c = parse(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
  }
  return [255, 255, 255];
};
return [...document.querySelectorAll(arguments[0])].filter((el) => el.getClientRects().length).map((el) => {
  const a = lum(parse(getComputedStyle(el).color).slice(0, 3)), b = lum(background(el));
  return [el.className, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
});
"""

VERSION_PAGE_TEXT = ("#version-view .field-problem, #versions-list .breaking-badge, #check-values-result .check-status, "
                     "#preview-size, #preview-result .check-status, #diff-table .breaking-badge, #diff-summary")


def step_version_page_contrast_light_and_dark(p):
    for scheme in ("light", "dark"):
        p.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        try:
            open_version(p, TRY_TYPE, 3)
            p.type_into('#version-view [name="attributes.flightNumber"]', "not a flight")
            p.visible('#version-view .field-problem[data-problem-path="attributes.flightNumber"]')
            p.paste_into('#version-view [name="content-state.notes"]', "n" * 5000)
            p.click("#preview-push")
            p.visible("#preview-size.over")
            p.shot(f"version-page-{scheme}")
            ratios = p.js(CONTRAST_SCRIPT, VERSION_PAGE_TEXT)
            p.click('#version-view [role="tab"][data-tab="changes"]')
            p.visible("#diff-table .breaking-badge")
            ratios += p.js(CONTRAST_SCRIPT, VERSION_PAGE_TEXT)
            assert len(ratios) >= 6, ratios
            low = [(name, round(ratio, 2)) for name, ratio in ratios if ratio < 4.5]
            assert not low, f"text below 4.5:1 in {scheme} mode: {low}"
        finally:
            p.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


# `enum Phase { case boarding(gate: String), departed }` as schema-from-swift writes it.
CHOICE_SCHEMA = {
    "type": "object",
    "properties": {
        "phase": {"oneOf": [
            {"type": "object", "properties": {"boarding": {
                "type": "object", "properties": {"gate": {"type": "string"}}, "required": ["gate"]}},
             "required": ["boarding"], "additionalProperties": False},
            {"type": "object", "properties": {"departed": {"type": "object"}},
             "required": ["departed"], "additionalProperties": False},
        ]},
    },
}

# The values the form builds, read the way Check values and the push preview read them.
READ_VALUES = (
    "const done = arguments[arguments.length - 1];"
    "import('./form-values.js').then((m) => done(m.readValues("
    "document.querySelector('#version-view .generated-form'), new Map()).contentState)).catch((e) => done(String(e)));")


def step_version_page_choice_builds_one_case(p):
    choice_type = unused_type_name("Phased")
    status, body, _ = api("POST", "/api/live_activity_schemas",
                          {"application": APP, "attributesType": choice_type, "jsonSchema": text_of(CHOICE_SCHEMA), "version": 1})
    assert status == 200, f"publish: HTTP {status} {body}"
    p.driver.refresh()
    p.visible("#workspace")
    open_version(p, choice_type, 1)

    def pick_a_case():
        group = p.visible('#version-view fieldset.choice[data-path="content-state.phase"]', "the choice's fieldset")
        assert group.find_element(By.CSS_SELECTOR, ":scope > legend").text.startswith("Phase"), "the choice has no legend"
        cases = Select(version_field(p, "content-state.phase"))
        assert [o.text for o in cases.options] == ["— none —", "Boarding", "Departed"], [o.text for o in cases.options]
        assert not p.find_all('#version-view [name="content-state.phase.boarding.gate"]'), "a case's fields before it is chosen"
        assert p.driver.execute_async_script(READ_VALUES) == {}, "an unchosen case is sent"
        cases.select_by_visible_text("Boarding")
        p.type_into('#version-view [name="content-state.phase.boarding.gate"]', "B12")
        assert p.driver.execute_async_script(READ_VALUES) == {"phase": {"boarding": {"gate": "B12"}}}
        p.click("#check-values")
        p.text_in("#check-values-result", "The values are valid")
        cases.select_by_visible_text("Departed")
        p.gone('#version-view [name="content-state.phase.boarding.gate"]', "the other case's fields")
        assert p.driver.execute_async_script(READ_VALUES) == {"phase": {"departed": {}}}
        p.text_in("#version-view fieldset.choice .choice-fields", "Departed has no fields.")
        p.click("#check-values")
        p.text_in("#check-values-result", "The values are valid")
        assert not p.unlabelled_controls(), p.unlabelled_controls()

    pick_a_case()
    p.shot("choice")

    def on_phone():
        open_version(p, choice_type, 1)
        pick_a_case()
        p.shot("choice-phone")

    at_phone_width(p, on_phone)


STEPS = [
    step_version_page_check_values,
    step_version_page_choice_builds_one_case,
    step_version_page_preview_push,
    step_version_page_diff_and_breaking_badges,
    step_version_page_policy,
    step_publishing_warns_and_keeps_the_report,
    step_publishing_under_a_refusing_policy_shows_the_report,
    step_version_page_contrast_light_and_dark,
]
