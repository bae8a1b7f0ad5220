"""Browser steps: a version's life after publishing. Deprecate, disable and restore a version
and pin the type's `latest`, each from a dialog that shows who reads it first; edit a type's
details and a version's labels and notes; search by any part of a name, a label and a field;
and see the warnings a publish stored on the version page after a reload. Each step checks the
registry's API after acting; what is only shown runs at 1280×900 and again at 390×844."""

import time

from harness import *  # noqa: F403
from steps_shell import at_widths, delete_all, go, hash_segment, issue_token, publish, shown, sign_in_as, type_hash, version_title

LIFE_TYPE = None  # published by the first step
FIELD = "lifeBeacon"  # a field only LIFE_TYPE has, from version 2 on
MESSAGE = "Use version 3: it adds the beacon."
SUNSET = "2027-03-01"
REASON = "Sends the wrong gate to old apps."

LIFE_V1 = json.loads(SCHEMA_V1)
LIFE_V2 = {**LIFE_V1, "properties": {**LIFE_V1["properties"], FIELD: {"type": "string"}}}
# A property whose name mixes Latin and Cyrillic: publishing warns, and the warning is stored.
LIFE_V3 = {**LIFE_V2, "properties": {**LIFE_V2["properties"], "g\u0430te": {"type": "string"}}}
WARNED_PATH = "jsonSchema.properties.g\u0430te"


def text_of(schema):
    return json.dumps(schema, separators=(",", ":"))


def query():
    return {"application": APP}


def life_schema(version, token=TOKEN):
    """`(status, schema or error body)` of a version, as the API answers it."""
    status, body, _ = api("GET", schema_path(LIFE_TYPE, version), query=query(), token=token)
    return status, body.get("schema", body) if isinstance(body, dict) else body


def life_state(version):
    status, schema = life_schema(version)
    assert status == 200, f"version {version}: HTTP {status} {schema}"
    return schema.get("state", "active")


def latest_version():
    status, body, _ = api("GET", f"/api/live_activity_schemas/{hash_segment(LIFE_TYPE)}/latest", query=query())
    assert status == 200, f"latest: HTTP {status} {body}"
    return body["schema"]["version"]


def open_life(p, version, tab=None):
    """The version's page afresh (a reload: what the registry says now)."""
    go(p, type_hash(LIFE_TYPE, "version", version, *([tab] if tab else [])))
    p.driver.refresh()
    version_title(p, LIFE_TYPE, version)


def version_button(version):
    return f'#versions-list .version-button[data-version="{version}"]'


def usage_shown(p, problems):
    """Waits until the open change dialog shows who reads it, first; its summary element, or
    None with the reason added to `problems` (the step goes on with the change and fails at
    its end, so one missing route does not hide what the rest of the step checks)."""
    p.wait(lambda d: p.find("#change-dialog #usage-panel").get_attribute("data-loaded") == "true",
           "who reads it, in the dialog")
    panel = p.find("#change-dialog #usage-panel")
    first = p.js("const d = document.querySelector('#change-dialog form');"
                 "return [...d.querySelectorAll('#usage-panel, #change-text, #change-fields *, #change-confirm')]"
                 ".filter((e) => e.getClientRects().length)[0].id")
    assert first == "usage-panel", f"the usage is not the first thing in the dialog: {first}"
    if panel.get_attribute("data-failed") is not None:
        problems.append(f"the dialog could not load who reads it: {panel.text}")
        return None
    return panel.find_element(By.CSS_SELECTOR, ".usage-summary")


def confirm_change(p, message):
    p.click("#change-confirm")
    p.dialog_closed("#change-dialog")
    p.text_in("#messages", message)


# --- the steps ----------------------------------------------------------------------------

def step_lifecycle_fixture(p):
    """A type of its own with three versions, each compatible with the one before."""
    global LIFE_TYPE
    LIFE_TYPE = unused_type_name("PanelLifecycleFlight")
    for version, schema in ((1, LIFE_V1), (2, LIFE_V2), (3, LIFE_V3)):
        publish(LIFE_TYPE, text_of(schema), version=version)


def counted_usage(version, reads, problems):
    """The registry's usage of `version` once it counts `reads` reads (flushed every few
    seconds), or None with the reason added to `problems`."""
    path = schema_path(LIFE_TYPE, version) + "/usage"
    deadline = time.monotonic() + 30
    while True:
        status, body, _ = api("GET", path, query={**query(), "days": 30})
        if status != 200:
            problems.append(f"usage: HTTP {status} {body}")
            return None
        usage = body["usage"]
        if usage["total_reads"] >= reads:
            return usage
        if time.monotonic() > deadline:
            problems.append(f"{reads} reads were not counted in 30 s: {usage}")
            return None
        time.sleep(0.5)


def step_deprecate_dialog_shows_usage_first(p):
    problems = []
    reader = issue_token("read")  # named "panel read"
    for _ in range(3):
        status, body = life_schema(2, token=reader)
        assert status == 200, body
    usage = counted_usage(2, 3, problems)
    open_life(p, 2)
    p.click("#deprecate-version")
    p.dialog_open("#change-dialog")
    summary = usage_shown(p, problems)
    if summary is not None and usage is not None:
        assert int(summary.get_attribute("data-total-reads")) >= usage["total_reads"], summary.text
        assert "panel read" in summary.text, f"the reader's token name is not shown: {summary.text}"
    assert life_state(2) == "active", "nothing may change before confirming"
    p.shot("deprecate-dialog", full_page=False)
    p.click("#change-confirm")  # without a message: refused in the dialog
    p.text_in("#change-problem", "Enter a message")
    assert p.js("return document.querySelector('#change-dialog').open"), "the dialog closed without a message"
    p.type_into("#deprecate-message", MESSAGE)
    p.js("const i = document.querySelector('#deprecate-sunset'); i.value = arguments[0];"
         "i.dispatchEvent(new Event('input', {bubbles: true}))", SUNSET)
    confirm_change(p, f"Deprecated {LIFE_TYPE} version 2")
    status, schema = life_schema(2)
    assert status == 200 and schema.get("state") == "deprecated", schema
    assert schema["deprecation"]["message"] == MESSAGE, schema["deprecation"]
    assert schema["deprecation"].get("sunset", "").startswith(SUNSET), schema["deprecation"]
    assert not problems, "; ".join(problems)


def step_deprecated_version_shows_in_list_and_page(p):
    def check(p, width):
        open_life(p, 2)
        badge = p.visible(version_button(2) + " .state-badge", "the deprecated badge in the version list")
        assert badge.text == "deprecated", badge.text
        p.text_in(version_button(2) + " .state-line", MESSAGE)
        assert not p.find_all(version_button(3) + " .state-badge"), "an active version has a state badge"
        notice = p.visible("#state-notice", "the deprecation notice on the version page")
        assert notice.get_attribute("data-state") == "deprecated"
        assert MESSAGE in notice.text and SUNSET in notice.text, notice.text
        sidebar = p.visible(f'#types-list .type-button[data-type="{LIFE_TYPE}"] .state-badge', "the state count in the type list")
        assert sidebar.text == "1 deprecated", sidebar.text
        p.shot(f"deprecated-version-{width}")
    at_widths(p, check)


def step_disable_hidden_for_publish_and_works_for_admin(p):
    read_token, publish_token = issue_token("read"), issue_token("publish")
    try:
        def check(p, width):
            sign_in_as(p, publish_token, type_hash(LIFE_TYPE, "version", 1))
            version_title(p, LIFE_TYPE, 1)
            p.visible("#deprecate-version")
            p.visible("#pin-latest")
            p.visible("#version-metadata-edit")
            assert not shown(p, "#disable-version"), "Disable is shown to a publish token"
            sign_in_as(p, read_token, type_hash(LIFE_TYPE, "version", 2))
            version_title(p, LIFE_TYPE, 2)
            for css in ("#deprecate-version", "#restore-version", "#disable-version", "#pin-latest",
                        "#type-about-edit", "#version-metadata-edit"):
                assert not shown(p, css), f"{css} is shown to a read token"
            p.shot(f"lifecycle-read-token-{width}")
        at_widths(p, check)
    finally:
        sign_in_as(p, TOKEN, type_hash(LIFE_TYPE, "version", 1))
    problems = []
    version_title(p, LIFE_TYPE, 1)
    p.click("#disable-version")
    p.dialog_open("#change-dialog")
    usage_shown(p, problems)
    p.click("#change-confirm")
    p.text_in("#change-problem", "Enter a reason")
    p.type_into("#disable-reason", REASON)
    confirm_change(p, f"Disabled {LIFE_TYPE} version 1")
    status, body = life_schema(1)
    assert status == 404 and "disabled" in str(body), f"a disabled version answers HTTP {status} {body}"
    p.visible(version_button(1) + '[data-state="disabled"] .state-badge', "the disabled version in an admin's list")
    notice = p.visible("#state-notice")
    assert notice.get_attribute("data-state") == "disabled" and REASON in notice.text, notice.text
    p.shot("disabled-version")
    p.click("#restore-version")
    p.dialog_open("#change-dialog")
    usage_shown(p, problems)
    confirm_change(p, f"Restored {LIFE_TYPE} version 1")
    assert life_state(1) == "active"
    p.wait(lambda d: p.find(version_button(1)).get_attribute("data-state") == "active", "version 1 active in the list")
    assert not problems, "; ".join(problems)


def step_restore_and_pin_unpin(p):
    problems = []
    open_life(p, 2)
    p.click("#restore-version")
    p.dialog_open("#change-dialog")
    usage_shown(p, problems)
    confirm_change(p, f"Restored {LIFE_TYPE} version 2")
    assert life_state(2) == "active"
    assert not p.find_all("#state-notice"), "a restored version still shows a state notice"
    assert latest_version() == 3
    open_life(p, 1)
    p.click("#pin-latest")
    p.dialog_open("#change-dialog")
    usage_shown(p, problems)
    confirm_change(p, f"Pinned latest of {LIFE_TYPE} to version 1")
    assert latest_version() == 1, "latest does not answer the pinned version"
    p.text_in(version_button(1) + " .latest-badge", "latest (pinned)")
    assert not p.find_all(version_button(3) + " .latest-badge"), "the newest version is still marked latest"
    p.text_in(f'#types-list .type-button[data-type="{LIFE_TYPE}"]', "latest pinned to 1")
    p.shot("latest-pinned")
    p.click("#unpin-latest")
    p.dialog_open("#change-dialog")
    usage_shown(p, problems)
    confirm_change(p, f"Unpinned latest of {LIFE_TYPE}")
    assert latest_version() == 3
    p.text_in(version_button(3) + " .latest-badge", "latest")
    p.visible("#pin-latest")
    assert not problems, "; ".join(problems)


def step_metadata_edit_round_trip(p):
    open_life(p, 3)
    p.click("#type-about-edit")
    p.type_into("#type-description-input", "Boarding passes of the lifecycle test")
    p.type_into("#type-owner-input", "team-checkout@example.com")
    p.type_into("#type-labels-input", "Team=checkout")  # upper case: refused before sending
    p.type_into("#type-links-input", "Repository https://github.com/example/lifecycle")
    p.click("#type-about-save")
    p.text_in("#type-about-form [role=alert]", "Team")
    assert p.driver.switch_to.active_element == p.find("#type-labels-input"), "the bad field should have focus"
    p.type_into("#type-labels-input", "team=checkout\ntier=gold")
    p.click("#type-about-save")
    p.text_in("#type-about-message", "Saved")
    status, body, _ = api("GET", f"/api/live_activity_types/{hash_segment(LIFE_TYPE)}/metadata", query=query())
    assert status == 200, body
    metadata = body.get("metadata", body)
    assert metadata["description"] == "Boarding passes of the lifecycle test", metadata
    assert metadata["owner"] == "team-checkout@example.com", metadata
    assert metadata["labels"] == {"team": "checkout", "tier": "gold"}, metadata
    assert [link["url"] for link in metadata["links"]] == ["https://github.com/example/lifecycle"], metadata
    p.click("#version-metadata-edit")
    p.type_into("#version-labels-input", "app_version=2.3.1")
    p.type_into("#version-notes-input", "Ships with the app 2.3.1.")
    p.click("#version-metadata-save")
    p.text_in("#messages", "Saved the labels and release notes of version 3")
    status, schema = life_schema(3)
    assert status == 200 and schema.get("labels") == {"app_version": "2.3.1"}, schema
    assert schema.get("release_notes") == "Ships with the app 2.3.1.", schema

    def check(p, width):
        open_life(p, 3)  # a reload shows what the registry keeps
        p.text_in("#type-description", "Boarding passes of the lifecycle test")
        p.text_in("#type-owner", "team-checkout@example.com")
        p.text_in("#type-labels", "team=checkout")
        p.text_in("#version-labels", "app_version=2.3.1")
        p.text_in("#release-notes", "Ships with the app 2.3.1.")
        p.shot(f"metadata-{width}")
    at_widths(p, check)


def search_results(p, words="", label="", field="", owner=""):
    """Fills the search page's filters, searches, and returns {type: [match kinds]}."""
    for css, text in (("#search-words", words), ("#search-label", label), ("#search-field", field), ("#search-owner", owner)):
        p.type_into(css, text)
    p.find("#search-words").send_keys(Keys.ENTER)
    wanted = " ".join([*words.split(), *(f"label:{t}" for t in label.split()), *(f"field:{t}" for t in field.split()),
                       *(f"owner:{t}" for t in owner.split())])
    p.wait(lambda d: p.js("const l = document.querySelector('#search-results');"
                          "return l && l.dataset.query === arguments[0] && !document.querySelector('#search-status').hasAttribute('aria-busy')",
                          wanted), f"the results of {wanted!r}")
    status, body, _ = api("GET", "/api/search", query={**query(), "q": wanted})
    assert status == 200, f"search {wanted!r}: HTTP {status} {body}"
    shown_results = p.js("return [...document.querySelectorAll('#search-results .search-result')].map((r) =>"
                         "[r.dataset.type, [...r.querySelectorAll('.search-match')].map((m) => m.dataset.in)])")
    assert [t for t, _ in shown_results] == [r["attributes_type"] for r in body["results"]][:len(shown_results)], (shown_results, body)
    return dict(shown_results)


def step_search_finds_substring_label_and_field(p):
    def check(p, width):
        go(p, "#/app/" + hash_segment(APP))
        p.click("#search-link")
        p.visible("#search-form")
        assert p.js("return document.title").startswith("Search"), p.js("return document.title")
        results = search_results(p, words="lifecycleflig")  # lower case, inside the name
        assert "name" in results.get(LIFE_TYPE, []), results
        results = search_results(p, label="team=checkout")
        assert "label" in results.get(LIFE_TYPE, []), results
        results = search_results(p, field=FIELD)
        assert "field" in results.get(LIFE_TYPE, []), results
        match = p.find(f'#search-results .search-result[data-type="{LIFE_TYPE}"] .search-match[data-in="field"]')
        assert FIELD in match.text and match.get_attribute("data-version"), match.text
        p.shot(f"search-{width}")
        # The query is in the address: a reload repeats it, the filters filled in.
        p.driver.refresh()
        p.wait(lambda d: p.find_all(f'#search-results .search-result[data-type="{LIFE_TYPE}"]'), "the results after a reload")
        assert p.find("#search-field").get_attribute("value") == FIELD
        results = search_results(p, words="lifecycle", label="team=checkout", field=FIELD)  # ANDed
        assert LIFE_TYPE in results, results
        p.find(f'#search-results .search-result[data-type="{LIFE_TYPE}"] .search-match[data-in="field"] a').click()
        p.wait(lambda d: p.find("#version-view").is_displayed() and LIFE_TYPE in p.find("#version-title").text,
               "the version the field match links to")
    at_widths(p, check)


def step_stored_warnings_show_after_reload(p):
    status, schema = life_schema(3)
    assert status == 200 and any(w.get("path") == WARNED_PATH for w in schema.get("warnings", [])), \
        f"the registry did not store the publish's warning: {schema.get('warnings')}"

    def check(p, width):
        open_life(p, 3)  # published through the API: only the stored warnings can show it
        report = p.visible("#publish-report", "what publishing reported, after a reload")
        assert report.get_attribute("data-warnings") == "stored", report.get_attribute("data-warnings")
        p.text_in("#publish-report-warnings", WARNED_PATH)
        p.shot(f"stored-warnings-{width}")
        # A draft with only a warning: the dry run's headline is amber and says so.
        p.click("#new-version")
        p.visible("#publish-schema")
        p.paste_into("#publish-schema", text_of({**LIFE_V3, "properties": {**LIFE_V3["properties"], "lifeExtra": {"type": "string"}}}))
        p.text_in("#check-status", "warning")
        status_line = p.find("#check-status")
        assert "warn" in status_line.get_attribute("class").split() and "✓" not in status_line.text, status_line.text
        p.click("#publish-form .actions button.secondary")  # Cancel
        assert p.discard_if_asked(), "leaving the edited editor did not ask"
        version_title(p, LIFE_TYPE, 3)
    at_widths(p, check)


def step_lifecycle_fixture_removed(p):
    delete_all(LIFE_TYPE)


STEPS = [
    step_lifecycle_fixture,
    step_deprecate_dialog_shows_usage_first,
    step_deprecated_version_shows_in_list_and_page,
    step_disable_hidden_for_publish_and_works_for_admin,
    step_restore_and_pin_unpin,
    step_metadata_edit_round_trip,
    step_search_finds_substring_label_and_field,
    step_stored_warnings_show_after_reload,
    step_lifecycle_fixture_removed,
]
