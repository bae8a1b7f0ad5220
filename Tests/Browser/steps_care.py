"""Browser steps: what people noticed first. Never lose what someone typed (drafts, the leave
prompt, a revoked or expired token), speak the user's words (labels, examples, problems beside
their fields, summary links), keep input as typed, move focus to results, say what the
findings say, find types by any part of their name, and tell look-alike names apart. Each
step runs at 1280×900 and again at 390×844 (phone) unless it says otherwise."""

import time

from harness import *  # noqa: F403
from steps_shell import (admin_cli, at_widths, current_hash, delete_all, go, issue_token, publish,
                         search, sidebar_types, sign_in_as, type_hash, version_title)

WORDS_TYPE = None  # published by the first step

PHASES = ["boarding", "departed", "landed"]

# A pattern with a description, one without (the panel derives an example), a length, a
# number, an optional switch, a URL; the root `required` lists etaMinutes: the app needs it.
WORDS_V1 = {
    "type": "object",
    "properties": {
        "etaMinutes": {"type": "integer", "minimum": 0},
        "gateCode": {"type": "string", "pattern": "^[A-Z]{3}$"},
        "crewName": {"type": "string", "maxLength": 20},
        "onTime": {"type": "boolean"},
        "trackingUrl": {"type": "string", "format": "uri"},
        "status": {"type": "string"},
        "phase": {"type": "string", "enum": PHASES},
    },
    "required": ["etaMinutes"],
    "attributes": {
        "properties": {"flightNumber": {"type": "string", "pattern": "^[A-Z]{2} [0-9]{1,4}$",
                                        "description": "Two capital letters, a space and up to four digits, like LH 402"}},
        "required": ["flightNumber"],
    },
}
# Version 2 adds a field, makes `status` an integer and lists more phases: a Changes table with
# short values beside long lists of values.
WORDS_V2 = {**WORDS_V1, "properties": {**WORDS_V1["properties"], "terminal": {"type": "string"},
                                       "status": {"type": "integer"},
                                       "phase": {"type": "string", "enum": PHASES + [
                                           "diverted", "cancelled", "delayed", "scheduled", "gate_open", "taxiing"]}}}


def text_of(schema, indent=None):
    return json.dumps(schema, indent=indent, separators=None if indent else (",", ":"))


def draft_keys(p):
    return p.js("return Object.keys(sessionStorage).filter((k) => k.startsWith('schema-registry.draft.'))")


def token_id(token):
    status, body, _ = api("GET", "/api/token", token=token)
    assert status == 200, body
    return body["token"]["id"]


def reload_keeping(p):
    """Reloads; a beforeunload prompt, if the browser shows one, is accepted."""
    p.driver.refresh()
    try:
        WebDriverWait(p.driver, 1).until(EC.alert_is_present()).accept()
    except TimeoutException:
        pass


def open_words_version(p, version=1, tab=None):
    """The version's page afresh (a reload: nothing typed before is left in its form)."""
    go(p, type_hash(WORDS_TYPE, "version", version, *([tab] if tab else [])))
    p.driver.refresh()
    version_title(p, WORDS_TYPE, version)


def in_view(p, element):
    return p.js("const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight", element)


# --- defect 2: drafts and the leave prompt ---------------------------------------------------

def step_drafts_survive_reload_navigation_and_a_revoked_token(p):
    global WORDS_TYPE
    # Version numbers are never reused, not even after a delete: a name of its own per run.
    WORDS_TYPE = unused_type_name(f"CareWords{int(time.time()) % 100000}")
    publish(WORDS_TYPE, text_of(WORDS_V1), version=1)
    publish(WORDS_TYPE, text_of(WORDS_V2), version=2)
    draft = text_of({**WORDS_V2, "properties": {**WORDS_V2["properties"], "belt": {"type": "string"}}}, indent=2)

    def check(p, width):
        token = issue_token("publish")
        sign_in_as(p, token, type_hash(WORDS_TYPE))
        version_title(p, WORDS_TYPE, 2)
        p.click("#new-version")
        p.visible("#publish-schema")
        p.paste_into("#publish-schema", draft)
        p.wait(lambda d: len(draft_keys(p)) == 1, "the draft in sessionStorage")
        # The browser asks before a reload or closing the tab…
        assert p.js("const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e);"
                    "return e.defaultPrevented"), "no beforeunload prompt for an edited editor"
        # …and a reload brings the draft back.
        reload_keeping(p)
        p.visible("#draft-restored", "the restored-draft notice after a reload")
        assert p.find("#publish-schema").get_attribute("value") == draft, "the draft was not restored"
        # A click in the sidebar asks; Stay keeps the editor and its address.
        editor_hash = current_hash(p)
        p.click(f'#types-list .type-button[data-type="{WORDS_TYPE}"]')
        p.dialog_open("#leave-dialog")
        p.shot(f"leave-dialog-{width}", full_page=False)
        p.click('#leave-dialog button[value="stay"]')
        p.dialog_closed("#leave-dialog")
        assert current_hash(p) == editor_hash, current_hash(p)
        assert p.find("#publish-view").is_displayed() and p.find("#publish-schema").get_attribute("value") == draft
        # Back asks too; leaving keeps the draft for the next visit.
        p.driver.back()
        p.dialog_open("#leave-dialog")
        p.click("#leave-keep")
        p.dialog_closed("#leave-dialog")
        version_title(p, WORDS_TYPE, 2)
        p.click("#new-version")
        p.visible("#draft-restored")
        assert p.find("#publish-schema").get_attribute("value") == draft
        # The token is revoked mid-session: the next call signs out once, saying so; the draft stays.
        admin_cli("revoke-token", str(token_id(token)))
        deadline = time.monotonic() + WAIT_SECONDS
        while not p.find("#sign-in-view").is_displayed():
            assert time.monotonic() < deadline, "a revoked token did not sign out"
            p.find("#publish-schema").send_keys(" ")  # each pause runs a dry run with the token
            time.sleep(1)
        p.text_in("#errors", "revoked")
        assert "Authorization header is missing" not in p.find("#errors").text, p.find("#errors").text
        assert not shown_buttons(p), "Publish buttons stay after the sign-out"
        assert len(draft_keys(p)) == 1, "signing out lost the draft"
        p.shot(f"revoked-signed-out-{width}")
        # Signing in again reopens the editor with the draft.
        p.type_into("#token-input", TOKEN)
        p.find("#token-input").send_keys(Keys.ENTER)
        p.visible("#draft-restored", "the draft after signing in again")
        assert p.find("#publish-schema").get_attribute("value").startswith(draft), "the draft after signing in again"
        # Discarding it restores the newest version's text; leaving then asks nothing.
        p.click("#draft-discard")
        p.wait(lambda d: draft_keys(p) == [], "the discarded draft to leave sessionStorage")
        p.click("#publish-form .actions button.secondary")  # Cancel
        version_title(p, WORDS_TYPE, 2)
        assert not p.js("return document.querySelector('#leave-dialog').open")
    at_widths(p, check)


def shown_buttons(p):
    return [b for b in p.find_all("#new-schema, #new-version, #publish-submit") if b.is_displayed()]


# --- defect 3: the token in the header, its expiry -------------------------------------------

def step_token_in_the_header_and_its_expiry(p):
    """An unnamed token expiring in a minute: the header names it and warns; at expiry the
    panel signs out saying it expired (once, keeping the draft)."""
    token = admin_cli("issue-token", "--account", os.environ["STACK_ACCOUNT"], "--scope", "publish",
                      "--application", APP, "--expires-in", "1m")
    issued = time.monotonic()
    identifier = token_id(token)

    def check(p, width):
        sign_in_as(p, token, type_hash(WORDS_TYPE, "publish"))
        info = p.visible("#token-info").text
        for words in (f"unnamed token {identifier}", "scope publish", f"applications {APP}", "expires"):
            assert words in info, f"{words!r} missing from the header: {info!r}"
        warning = p.visible("#token-warning", "the warning before expiry").text
        assert "expires in" in warning, warning
        p.shot(f"token-expiry-warning-{width}")
    at_widths(p, check)
    p.paste_into("#publish-schema", text_of(WORDS_V1, indent=2))
    p.wait(lambda d: len(draft_keys(p)) >= 1, "the draft")
    remaining = 62 - (time.monotonic() - issued)
    p.wait(lambda d: p.find("#sign-in-view").is_displayed(), "the sign-out at expiry", seconds=max(remaining, 0) + WAIT_SECONDS)
    p.text_in("#errors", "expired")
    assert "Authorization header is missing" not in p.find("#errors").text, p.find("#errors").text
    assert draft_keys(p), "the draft was lost at expiry"
    p.shot("token-expired")
    p.js("for (const k of Object.keys(sessionStorage)) if (k.startsWith('schema-registry.draft.')) sessionStorage.removeItem(k)")
    sign_in_as(p, TOKEN)


# --- defects 4 and 5: the user's words, needed fields ----------------------------------------

def label_text(p, name):
    control = p.find(f'#version-view .generated-form [name="{name}"]')
    return p.js("const c = arguments[0].labels[0].cloneNode(true);"
                "c.querySelectorAll('.req, .visually-hidden').forEach((e) => e.remove());"
                "return c.textContent.trim()", control)


def step_problems_speak_the_users_words(p):
    def check(p, width):
        open_words_version(p)
        p.visible('#version-view [name="content-state.gateCode"]')
        p.type_into('#version-view [name="content-state.etaMinutes"]', "-3")
        p.type_into('#version-view [name="content-state.gateCode"]', "ab")
        p.type_into('#version-view [name="attributes.flightNumber"]', "nope")
        p.click("#check-values")
        p.text_in("#check-values-result", "3 problems")
        summary = p.visible("#check-values-problems")
        assert "content-state." not in summary.text and "attributes." not in summary.text, summary.text
        for name in ("content-state.etaMinutes", "content-state.gateCode", "attributes.flightNumber"):
            assert label_text(p, name) in summary.text, f"{label_text(p, name)!r} missing from {summary.text!r}"
            control = p.find(f'#version-view [name="{name}"]')
            note = p.find(f'#version-view .field-problem[data-problem-path="{name}"]')
            assert p.js("return arguments[0].closest('.field').contains(arguments[1])", control, note), f"{name}: not beside"
        # A pattern says what to type: the description, or an example that matches.
        assert "like LH 402" in p.find('#version-view .field-problem[data-problem-path="attributes.flightNumber"]').text
        assert "for example “AAA”" in p.find('#version-view .field-problem[data-problem-path="content-state.gateCode"]').text
        assert "^[A-Z]" not in summary.text, summary.text
        # Each summary item is a link that scrolls to its field and focuses it.
        for link in p.find_all("#check-values-problems a.problem-link"):
            path = link.get_attribute("data-problem-path")
            p.driver.execute_script("window.scrollTo(0, 0)")
            p.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
            link.click()
            active = p.driver.switch_to.active_element
            assert active.get_attribute("name") == path, f"{path}: focus on {active.get_attribute('name')}"
            assert in_view(p, active), f"{path}: the field is not scrolled into view"
        assert len(p.find_all("#check-values-problems a.problem-link")) == 3
        # Preview push: the push's own fields by their labels, each problem beside its field.
        p.type_into('#version-view [name="attributes.flightNumber"]', "LH 402")
        p.type_into('#version-view [name="content-state.etaMinutes"]', "5")
        p.type_into('#version-view [name="content-state.gateCode"]', "ABC")
        p.type_into("#preview-title", "")
        p.type_into("#preview-content", "")
        p.click("#preview-push")
        p.text_in("#preview-result", "would be refused")
        note = p.visible('#push-preview-part .field-problem[data-problem-path="content"]', "the problem beside Alert text")
        assert "content or title" not in note.text, note.text
        assert "Alert text" in p.find("#preview-problems").text, p.find("#preview-problems").text
        p.type_into("#preview-title", "Flight update")
        p.type_into("#preview-bundle", "")
        p.click("#preview-push")
        note = p.visible('#push-preview-part .field-problem[data-problem-path="bundle_id"]', "the problem beside Bundle id")
        assert p.js("return arguments[0].closest('.field').contains(document.querySelector('#preview-bundle'))", note)
        assert "bundle_id" not in p.find("#preview-result").text, p.find("#preview-result").text
        p.shot(f"problems-in-words-{width}")
    at_widths(p, check)


def step_fields_the_app_needs_are_marked(p):
    """The root `required` of the schema (etaMinutes) is marked "needed by the app"; the
    section no longer says a journey never has to fill its fields. Needs the form's
    `needed_by_app` (the check-values issue's server change)."""
    status, body, _ = api("GET", schema_path(WORDS_TYPE, 1) + "/form", query={"application": APP})
    assert status == 200, body
    eta = next(f for f in body["form"]["content"]["fields"] if f["name"] == "etaMinutes")
    assert eta.get("needed_by_app") is True, f"the form has no needed_by_app on etaMinutes: {eta}"

    def check(p, width):
        open_words_version(p)
        control = p.visible('#version-view [name="content-state.etaMinutes"]')
        label = p.find(f'#version-view label[for="{control.get_attribute("id")}"]')
        assert label.find_elements(By.CSS_SELECTOR, "[data-needed-by-app]"), f"no marker in {label.text!r}"
        assert "needed by the app" in label.text, label.text
        status = p.find('#version-view [name="content-state.status"]')
        assert not p.find(f'#version-view label[for="{status.get_attribute("id")}"]').find_elements(
            By.CSS_SELECTOR, "[data-needed-by-app]"), "an optional field is marked"
        section = p.find('#version-view fieldset[data-section="content"]').text
        assert "never has to fill" not in section, section
        p.shot(f"needed-by-app-{width}")
    at_widths(p, check)


# --- defect 6: input as typed ----------------------------------------------------------------

def step_input_is_kept_as_typed(p):
    def check(p, width):
        open_words_version(p)
        name = "A crew name of 31 characters ok"
        assert len(name) == 31
        crew = p.type_into('#version-view [name="content-state.crewName"]', name)
        assert crew.get_attribute("value") == name, f"cut to {crew.get_attribute('value')!r}"
        note = p.visible('#version-view .field-problem[data-problem-path="content-state.crewName"]', "the length problem")
        assert "at most 20" in note.text, note.text
        eta = p.type_into('#version-view [name="content-state.etaMinutes"]', "ten")
        assert eta.get_attribute("value") == "ten", f"the number field holds {eta.get_attribute('value')!r}"
        note = p.visible('#version-view .field-problem[data-problem-path="content-state.etaMinutes"]', "the number problem")
        assert "ten" in note.text and "number" in note.text, note.text
        # Untouched optional fields, the unticked switch too, are not in the payload.
        p.type_into('#version-view [name="content-state.crewName"]', "Crew")
        p.type_into('#version-view [name="content-state.etaMinutes"]', "5")
        p.type_into('#version-view [name="attributes.flightNumber"]', "LH 402")
        p.click("#preview-push")
        p.text_in("#preview-result", "would be accepted")
        payload = json.loads(p.find("#preview-payload").get_attribute("textContent"))
        state = payload["aps"]["content-state"]
        assert state == {"crewName": "Crew", "etaMinutes": 5}, state
        # Ticked, then unticked: set by the user, so sent as false.
        switch = p.find('#version-view [name="content-state.onTime"]')
        p.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", switch)
        switch.click()
        switch.click()
        p.click("#preview-push")
        p.wait(lambda d: json.loads(p.find("#preview-payload").get_attribute("textContent"))["aps"]["content-state"]
               .get("onTime") is False, "the switch the user set, sent as false")
        p.shot(f"input-as-typed-{width}")
    at_widths(p, check)


# --- defect 7: focus on results --------------------------------------------------------------

def step_results_get_focus_on_a_phone(p):
    p.set_width(390, 844, mobile=True)
    try:
        open_words_version(p)
        p.type_into('#version-view [name="attributes.flightNumber"]', "LH 402")
        p.type_into('#version-view [name="content-state.etaMinutes"]', "5")
        for button, result in (("#check-values", "#check-values-result"), ("#preview-push", "#preview-result")):
            p.click(button)
            p.wait(lambda d: p.driver.switch_to.active_element.get_attribute("id") == result[1:],
                   f"focus on {result} after {button}")
            element = p.find(result)
            assert element.get_attribute("aria-live") == "polite", f"{result} is not announced"
            assert in_view(p, element), f"{result} is not on screen: {element.rect}"
        p.shot("results-focused-phone", full_page=False)
    finally:
        p.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# --- defects 8 and 10: the dry run's headline, the draft's changes, titles -------------------

def step_dry_run_says_what_the_findings_say(p):
    breaking = text_of({**WORDS_V2, "properties": {k: v for k, v in WORDS_V2["properties"].items() if k != "gateCode"}}, indent=2)

    def check(p, width):
        go(p, type_hash(WORDS_TYPE, "publish"))
        p.visible("#publish-schema")
        p.js("performance.clearResourceTimings()")
        p.paste_into("#publish-schema", breaking)
        p.visible("#publish-check .compat-warning", "the compatibility warning")
        status = p.find("#check-status")
        assert "✓" not in status.text and "not compatible" in status.text, status.text
        assert "warn" in status.get_attribute("class").split(), status.get_attribute("class")
        if width < 1000:  # the dry run is below the editor: its verdict is repeated beside Publish
            near = p.find("#check-status-near")
            assert near.is_displayed() and "not compatible" in near.text, near.text
        # The full diff against the newest version, while editing.
        rows = p.visible("#draft-diff-table", "the draft's changes against the newest version")
        changes = p.js("return [...document.querySelectorAll('#draft-diff-table tbody tr')].map(r => [r.dataset.path, r.dataset.change])")
        assert ["content-state.gateCode", "removed"] in changes, changes
        assert rows.find_elements(By.CSS_SELECTOR, 'tr[data-path="content-state.gateCode"] .breaking-badge'), "the removal is not breaking"
        # No :lookup (and its 404 in the console) on every dry run.
        names = p.js("return performance.getEntriesByType('resource').map((e) => e.name)")
        assert not [n for n in names if ":lookup" in n], names
        p.shot(f"dry-run-headline-{width}")
        p.click("#publish-form .actions button.secondary")  # Cancel
        p.dialog_open("#leave-dialog")
        p.click("#leave-discard")
        p.gone("#publish-view")
        assert not draft_keys(p), draft_keys(p)
    at_widths(p, check)


def step_each_view_has_its_own_title(p):
    places = [
        "#/app/" + urllib.parse.quote(APP, safe=""),
        type_hash(WORDS_TYPE, "version", 2),
        type_hash(WORDS_TYPE, "version", 2, "json"),
        type_hash(WORDS_TYPE, "version", 2, "changes"),
        type_hash(WORDS_TYPE, "publish"),
        type_hash(WORDS_TYPE, "audit"),
    ]
    titles = []
    for place in places:
        go(p, place)
        p.wait(lambda d: p.js("return location.hash") == place, place)
        time.sleep(0.3)
        p.wait(lambda d: p.js("return document.title") not in titles, f"a title of its own for {place}")
        titles.append(p.js("return document.title"))
    assert len(set(titles)) == len(places), titles
    go(p, places[0])
    assert "on the left" not in p.visible("#welcome-text").text, "the welcome points left, where a phone has no list"
    assert all(WORDS_TYPE in title for title in titles[1:]), titles


# The places where a value's text wraps to a new line inside a word (a letter, digit or `_`
# on both sides of the break), for every value of the Changes table.
MID_WORD_BREAKS = """
const word = (c) => /[\\w]/.test(c || '');
return [...document.querySelectorAll('#diff-table td code')].flatMap((code) => {
  const text = code.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return [];
  const range = document.createRange();
  const breaks = [];
  let top = null;
  for (let i = 0; i < text.length; i += 1) {
    range.setStart(text, i);
    range.setEnd(text, i + 1);
    const rect = range.getClientRects()[0];
    if (!rect) continue;
    if (top !== null && rect.top > top + 2 && word(text.data[i - 1]) && word(text.data[i])) {
      breaks.push(text.data.slice(Math.max(0, i - 6), i) + '|' + text.data.slice(i, i + 6));
    }
    top = rect.top;
  }
  return breaks;
});
"""


def step_changes_table_keeps_words_whole(p):
    def check(p, width):
        open_words_version(p, 2, "changes")
        p.visible('#diff-table tr[data-path="content-state.phase"]', "the longer list of phases")
        broken = p.js(MID_WORD_BREAKS)
        assert not broken, f"values broken inside a word at {width} px: {broken}"
        words = p.js("return [...document.querySelectorAll('#diff-table td code')].map((c) => c.textContent)")
        assert "string" in words and "integer" in words, words
        assert p.horizontal_overflow() <= 0, f"{p.horizontal_overflow()} px of horizontal scrolling at {width} px"
        p.shot(f"changes-whole-words-{width}")
    at_widths(p, check)


def step_unknown_tab_and_policy_confirmation(p):
    def check(p, width):
        go(p, type_hash(WORDS_TYPE, "version", 2, "nosuchtab"))
        p.text_in("#errors", "no tab “nosuchtab”")
        assert p.find('#version-view [role="tab"][data-tab="form"]').get_attribute("aria-selected") == "true"
        p.click('#version-view [role="tab"][data-tab="policy"]')
        p.click("#policy-edit")
        Select(p.visible("#policy-enforce")).select_by_value("reject")
        p.click("#policy-save")
        p.dialog_open("#confirm-dialog")
        assert "reject" in p.find("#confirm-dialog").text, p.find("#confirm-dialog").text
        p.click('#confirm-dialog button[value="cancel"]')
        p.dialog_closed("#confirm-dialog")
        status, body, _ = api("GET", f"/api/live_activity_types/{WORDS_TYPE}/compatibility_policy", query={"application": APP})
        assert body["policy"]["source"] == "default", "cancelling saved the policy"
        p.click("#policy-save")
        p.dialog_open("#confirm-dialog")
        p.click("#confirm-ok")
        p.text_in("#policy-message", "Saved")
        status, body, _ = api("DELETE", f"/api/live_activity_types/{WORDS_TYPE}/compatibility_policy", query={"application": APP})
        assert status == 200, body
    at_widths(p, check)


# --- defect 9: search, reveal, look-alikes ---------------------------------------------------

LOOK_ALIKES = ["CareFlightAttributes", "CareFlight\u200bAttributes", "CareCafe\u0301", "CareCaf\u00e9", "CareRideAlong"]
MANY = [f"zzCare{n:03d}" for n in range(105)]  # lower case sorts after every capital: past page 1


def step_type_search_finds_substrings_and_look_alikes(p):
    for name in LOOK_ALIKES + MANY:
        publish(name)
    try:
        def check(p, width):
            go(p, "#/app/" + urllib.parse.quote(APP, safe=""))
            p.driver.refresh()
            p.visible("#types-list .type-button")
            search(p, "ride")  # lower case, inside the name
            assert sidebar_types(p) == ["CareRideAlong"], sidebar_types(p)
            search(p, "flight")
            assert set(LOOK_ALIKES[:2]) <= set(sidebar_types(p)), sidebar_types(p)
            plain = p.find(f'#types-list .type-button[data-type="{LOOK_ALIKES[0]}"]')
            hidden = p.find(f'#types-list .type-button[data-type="{LOOK_ALIKES[1]}"]')
            assert not plain.find_elements(By.CSS_SELECTOR, ".name-badge"), "a plain name is badged"
            assert "invisible characters" in hidden.text and "\\u{200B}" in hidden.text, hidden.text
            assert plain.text != hidden.text, "look-alike names are drawn the same"
            search(p, "carecaf")
            decomposed = p.find(f'#types-list .type-button[data-type="{LOOK_ALIKES[2]}"]')
            composed = p.find(f'#types-list .type-button[data-type="{LOOK_ALIKES[3]}"]')
            assert "not NFC" in decomposed.text and "not NFC" not in composed.text, (decomposed.text, composed.text)
            p.shot(f"search-look-alikes-{width}")
            # ArrowDown moves into the list, Enter opens the first match.
            search(p, "ridealong")
            p.find("#type-search").send_keys(Keys.ARROW_DOWN)
            assert p.driver.switch_to.active_element.get_attribute("data-type") == "CareRideAlong"
            p.find("#type-search").send_keys(Keys.ENTER)
            version_title(p, "CareRideAlong", 1)
            # The type shown is revealed in the list, past the first hundred.
            search(p, "")
            go(p, type_hash(MANY[-1]))
            version_title(p, MANY[-1], 1)
            link = p.wait(lambda d: p.find_all(f'#types-list .type-button[data-type="{MANY[-1]}"][aria-current="page"]'),
                          "the current type in the list")[0]
            assert p.js("const l = document.querySelector('#types-list').getBoundingClientRect(), r = arguments[0].getBoundingClientRect();"
                        "return r.top >= l.top - 1 && r.bottom <= l.bottom + 1", link) or width < 760, "not scrolled into the list"
            # Show more keeps the focus in the list.
            go(p, "#/app/" + urllib.parse.quote(APP, safe=""))
            p.driver.refresh()
            p.visible("#types-more")
            before = len(sidebar_types(p))
            p.click("#types-more")
            active = p.driver.switch_to.active_element
            assert "type-button" in (active.get_attribute("class") or "") or active.get_attribute("id") == "types-more", \
                f"focus lost after Show more: {active.tag_name}"
            assert len(sidebar_types(p)) > before
        at_widths(p, check)
    finally:
        for name in LOOK_ALIKES + MANY:
            delete_all(name)


def step_words_type_removed(p):
    delete_all(WORDS_TYPE)


STEPS = [
    step_drafts_survive_reload_navigation_and_a_revoked_token,
    step_token_in_the_header_and_its_expiry,
    step_problems_speak_the_users_words,
    step_fields_the_app_needs_are_marked,
    step_input_is_kept_as_typed,
    step_results_get_focus_on_a_phone,
    step_dry_run_says_what_the_findings_say,
    step_each_view_has_its_own_title,
    step_changes_table_keeps_words_whole,
    step_unknown_tab_and_policy_confirmation,
    step_type_search_finds_substrings_and_look_alikes,
    step_words_type_removed,
]
