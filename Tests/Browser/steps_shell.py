"""Browser steps: shell. Each takes the `Panel` and runs while signed in, after panel_test's core steps.

The shell is what surrounds the views: addresses (hash URLs, Back/Forward, reload, shared
links), the sidebar with many types and its search, loading and failure with Retry, what a
token's scope hides, the audit trail, and signing in. Every step runs at 1280×900 and again at
390×844 (phone)."""

import subprocess

from harness import *  # noqa: F403

WIDTHS = [(1280, 900, False), (390, 844, True)]


# --- helpers ------------------------------------------------------------------------------

def hash_segment(text):
    """A name as the panel writes it into the address: one percent-encoded segment, dots too."""
    return urllib.parse.quote(text, safe="").replace(".", "%2E").replace("~", "%7E")


def type_hash(attributes_type, *rest):
    return "#/app/" + hash_segment(APP) + "/type/" + hash_segment(attributes_type) + "".join("/" + str(r) for r in rest)


def go(p, address):
    """Opens an address of the panel as a person typing it (a fragment change, no reload)."""
    p.driver.get(BASE + "/panel/" + address)


def current_hash(p):
    return p.js("return location.hash")


def publish(attributes_type, schema=SCHEMA_V1, version=None):
    body = {"application": APP, "attributesType": attributes_type, "jsonSchema": schema}
    if version is not None:
        body["version"] = version
    status, answer, _ = api("POST", "/api/live_activity_schemas", body=body)
    assert status == 200, f"publish {attributes_type!r}: HTTP {status} {answer}"
    return answer["schema"]["version"]


def api_segment(text):
    """A type as a path segment the way the panel's api.js sends it: `.` and `..` as `%2F.`/`%2F..`."""
    encoded = hash_segment(text)
    return "%2F" + encoded if set(text) == {"."} else encoded


def delete_all(attributes_type):
    for version in api_versions(attributes_type):
        path = f"/api/live_activity_schemas/{api_segment(attributes_type)}/{version}"
        status, body, _ = api("DELETE", path, query={"application": APP})
        assert status == 200, f"delete {attributes_type!r} {version}: HTTP {status} {body}"


def at_widths(p, action):
    """Runs `action(p, width)` at each width, always returning to the desktop size."""
    try:
        for width, height, mobile in WIDTHS:
            p.set_width(width, height, mobile=mobile)
            action(p, width)
            assert p.horizontal_overflow() <= 0, f"{p.horizontal_overflow()} px of horizontal scrolling at {width} px"
    finally:
        p.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def version_title(p, attributes_type, version):
    p.wait(lambda d: p.find("#version-view").is_displayed()
           and p.find("#version-title").text == f"{attributes_type} version {version}",
           f"the version view of {attributes_type!r} version {version}")


def delete_in_panel(p, attributes_type, version):
    p.click("#delete-version")
    p.dialog_open("#delete-dialog")
    p.click("#delete-confirm")
    p.dialog_closed("#delete-dialog")
    p.text_in("#messages", f"Deleted {attributes_type} version {version} permanently")


def admin_cli(*arguments):
    """`schema-registry admin …` on the stack's database (as stack.sh's stack_run does); its stdout."""
    env = dict(os.environ, DATABASE_URL=os.environ["STACK_DATABASE_URL"])
    migrations = Path(__file__).resolve().parents[2] / "migrations"
    if migrations.is_dir():
        env["REGISTRY_MIGRATIONS_DIR"] = str(migrations)
    result = subprocess.run([os.environ["STACK_BIN"], "admin", *arguments],
                            env=env, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, f"admin {' '.join(arguments)}: {result.stderr}"
    return result.stdout.strip()


def issue_token(scope, *limits):
    """A new token of the test account with `scope` (limited to the application codes given)."""
    applications = [argument for code in limits for argument in ("--application", code)]
    return admin_cli("issue-token", "--account", os.environ["STACK_ACCOUNT"], "--scope", scope,
                     "--name", f"panel {scope}", *applications)


def sign_in_as(p, token, address=""):
    """Signs out (when signed in), opens `address` and signs in with `token`."""
    if p.find("#sign-out").is_displayed():
        p.click("#sign-out")
        p.discard_if_asked(0.5)
    p.visible("#sign-in-view")
    go(p, address)
    p.type_into("#token-input", token)
    p.find("#token-input").send_keys(Keys.ENTER)
    p.visible("#workspace", "the workspace after signing in")


def sidebar_types(p):
    """The names the sidebar lists, read in one go (the list is re-rendered while searching)."""
    return p.js("return [...document.querySelectorAll('#types-list .type-button')].map((a) => a.dataset.type)")


def search(p, text):
    """Types `text` into the sidebar's search and waits until the list shows its result."""
    p.type_into("#type-search", text)
    p.wait(lambda d: p.js("return document.querySelector('#types-list').dataset.prefix === arguments[0]"
                          " && !document.querySelector('#types-status').hasAttribute('aria-busy')", text),
           f"the types starting with {text!r}")


def shown(p, css):
    return [element for element in p.find_all(css) if element.is_displayed()]


# --- the steps ----------------------------------------------------------------------------

def step_wrong_token_keeps_the_input(p):
    """A refused token stays in the field, so a typo can be corrected instead of retyped."""
    def check(p, width):
        p.click("#sign-out")
        p.visible("#sign-in-view")
        p.type_into("#token-input", TOKEN + "x")
        p.find("#token-input").send_keys(Keys.ENTER)
        p.text_in("#errors", "not accepted")
        assert p.find("#token-input").get_attribute("value") == TOKEN + "x", "the refused token was wiped"
        assert p.driver.switch_to.active_element == p.find("#token-input"), "the token field should have focus"
        p.shot(f"wrong-token-kept-{width}")
        p.find("#token-input").send_keys(Keys.END, Keys.BACKSPACE, Keys.ENTER)  # fix the typo
        p.visible("#workspace", "the workspace after correcting the token")
        assert p.js("return sessionStorage.getItem('schema-registry.token')") == TOKEN
    at_widths(p, check)


def step_addresses_reload_back_forward_and_links(p):
    name = unused_type_name("Shell Address #1?")
    publish(name)
    second = json.loads(SCHEMA_V1)
    second["properties"]["terminal"] = {"type": "string"}
    publish(name, json.dumps(second))

    def check(p, width):
        # A shared link to a tab of a version lands there.
        go(p, type_hash(name, "version", 1, "json"))
        version_title(p, name, 1)
        p.wait(lambda d: p.find('#version-view [role="tab"][data-tab="json"]').get_attribute("aria-selected") == "true",
               "the JSON tab named by the address")
        # Clicking moves the address; Back and Forward move the view.
        p.click('#versions-list .version-button[data-version="2"]')
        version_title(p, name, 2)
        assert current_hash(p) == type_hash(name, "version", 2), current_hash(p)
        p.driver.back()
        version_title(p, name, 1)
        p.driver.forward()
        version_title(p, name, 2)
        # A tab is part of the address and survives a reload.
        p.click('#version-view [role="tab"][data-tab="text"]')
        p.wait(lambda d: current_hash(p) == type_hash(name, "version", 2, "text"), "the tab in the address")
        p.driver.refresh()
        version_title(p, name, 2)
        assert p.find('#version-view [role="tab"][data-tab="text"]').get_attribute("aria-selected") == "true"
        p.find('#version-view [role="tab"][data-tab="text"]').send_keys(Keys.HOME)  # the keyboard moves it too
        p.wait(lambda d: current_hash(p) == type_hash(name, "version", 2, "form"), "the keyboard's tab in the address")
        # The type's address shows its newest version; the publish editor has one too.
        go(p, type_hash(name))
        version_title(p, name, 2)
        p.click("#new-version")
        p.visible("#publish-view")
        assert current_hash(p) == type_hash(name, "publish"), current_hash(p)
        p.driver.back()
        version_title(p, name, 2)
        # A version that does not exist is explained, not replaced by another.
        go(p, type_hash(name, "version", 99))
        p.text_in("#status-view", f"{name} has no version 99")
        p.shot(f"address-missing-version-{width}")
        go(p, "#/app/" + hash_segment(APP))
        p.visible("#welcome-view")
    at_widths(p, check)

    # Deleting every version lands on the application's types, with the reason.
    go(p, type_hash(name, "version", 2))
    version_title(p, name, 2)
    delete_in_panel(p, name, 2)
    version_title(p, name, 1)
    assert current_hash(p) == type_hash(name), current_hash(p)
    delete_in_panel(p, name, 1)
    p.text_in("#messages", f"{name} has no versions left")
    p.wait(lambda d: current_hash(p) == "#/app/" + hash_segment(APP), "the application's address")
    p.visible("#welcome-view")
    assert not p.find("#version-view").is_displayed()
    p.wait(lambda d: name not in sidebar_types(p), "the deleted type to leave the sidebar")
    assert api_versions(name) == []
    p.shot("address-last-version-deleted")
    go(p, type_hash(name))
    p.text_in("#status-view", f"{name} has no versions")


def step_many_types_search_and_long_names(p):
    names = [f"ZqAlpha{n:03d}" for n in range(100)] + [f"ZqBeta{n}" for n in range(4)]  # over one page of 100
    long_name = "ZqLong" + "".join(f"Segment{n}" for n in range(40))
    long_name = long_name[:256]
    for name in names + [long_name]:
        publish(name)
    try:
        def check(p, width):
            go(p, "#/app/" + hash_segment(APP))
            p.driver.refresh()
            p.visible("#types-list .type-button")
            p.wait(lambda d: len(sidebar_types(p)) == 100, "the first page of types")
            p.click("#types-more")
            p.wait(lambda d: len(sidebar_types(p)) >= len(names), "every type after Show more")
            assert not p.find("#types-more").is_displayed(), "Show more after the last page"
            if width > 760:
                # The sidebar scrolls on its own; the page does not grow with the types.
                lst = p.find("#types-list")
                assert p.js("return arguments[0].scrollHeight > arguments[0].clientHeight", lst), "the list should scroll"
                assert p.find("#types-pane").rect["height"] <= 900, p.find("#types-pane").rect
            p.js("performance.clearResourceTimings()")
            search(p, "ZqBe")
            p.wait(lambda d: sorted(sidebar_types(p)) == [n for n in names if n.startswith("ZqBeta")],
                   "the search to keep the ZqBeta types")
            search(p, "zqbeta")  # any letter case
            assert sorted(sidebar_types(p)) == [n for n in names if n.startswith("ZqBeta")], sidebar_types(p)
            requests = p.js("return performance.getEntriesByType('resource').map(e => e.name)"
                            ".filter(n => n.includes('/api/live_activity_types'))")
            assert not requests, f"the list is searched in the page, without a request per search: {requests}"
            p.shot(f"search-{width}")
            search(p, "ZqNothing")
            p.text_in("#types-empty", "No type contains")
            # A 256-character name wraps or is cut, with the whole name on hover; the page keeps its width.
            search(p, "ZqLong")
            link = p.visible(f'#types-list .type-button[data-type="{long_name}"]')
            assert link.get_attribute("title") == long_name
            assert p.horizontal_overflow() <= 0, f"{p.horizontal_overflow()} px of horizontal scrolling (sidebar)"
            link.click()
            version_title(p, long_name, 1)
            assert p.horizontal_overflow() <= 0, f"{p.horizontal_overflow()} px of horizontal scrolling (version)"
            p.shot(f"long-name-{width}")
            p.click("#delete-version")
            p.dialog_open("#delete-dialog")
            rect = p.find("#delete-dialog").rect
            assert rect["x"] >= 0 and rect["x"] + rect["width"] <= width, rect
            p.click('#delete-dialog button[value="cancel"]')
            p.dialog_closed("#delete-dialog")
            go(p, "#/app/" + hash_segment(APP))  # no type shown: none to reveal past the first hundred
            p.visible("#welcome-view")
            search(p, "")
            p.wait(lambda d: len(sidebar_types(p)) == 100 and p.find("#types-more").is_displayed(), "the first page again")
        at_widths(p, check)
    finally:
        for name in names + [long_name]:
            delete_all(name)


# Every call to the schema list answers 503 Unavailable, as a registry whose database is down.
UNAVAILABLE = """
window.realFetch = window.realFetch || window.fetch;
window.fetch = (url, init) => String(url).includes('/api/live_activity_schemas')
  ? Promise.resolve(new Response(JSON.stringify({code: 14, message: 'the database is unavailable', details: []}),
                                 {status: 503, headers: {'Content-Type': 'application/json'}}))
  : window.realFetch(url, init);
"""


def step_loading_and_failure_offer_retry(p):
    name = unused_type_name("ShellOffline")
    publish(name)
    p.driver.execute_cdp_cmd("Network.enable", {})

    def network(offline=False, latency=0):
        p.driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": offline, "latency": latency, "downloadThroughput": -1, "uploadThroughput": -1})

    def check(p, width):
        go(p, "#/app/" + hash_segment(APP))
        p.driver.refresh()  # the type was published through the API
        p.visible(f'#types-list .type-button[data-type="{name}"]')
        try:
            # Slow: a spinner while the versions load.
            network(latency=1500)
            p.click(f'#types-list .type-button[data-type="{name}"]')
            p.visible("#status-view .spinner", "a spinner while loading")
            p.shot(f"loading-{width}")
            version_title(p, name, 1)
            # Offline: the failure and Retry in the pane, never an empty pane.
            go(p, "#/app/" + hash_segment(APP))
            p.visible("#welcome-view")
            network(offline=True)
            p.click(f'#types-list .type-button[data-type="{name}"]')
            p.text_in("#status-view", "Network error")
            p.visible("#status-view button.retry")
            p.shot(f"offline-{width}")
        finally:
            network(offline=False)
        p.click("#status-view button.retry")
        version_title(p, name, 1)
        # The sidebar reads the type list once (searching is in the page): with the list's
        # address blocked, a reload shows its failure and Retry in the sidebar.
        p.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/live_activity_types*"]})
        try:
            p.driver.refresh()
            p.visible("#types-status button.retry", "Retry in the sidebar")
            p.text_in("#types-status", "Could not load the types")
            p.shot(f"sidebar-failed-{width}")
        finally:
            p.driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        p.click("#types-status button.retry")
        p.visible(f'#types-list .type-button[data-type="{name}"]')
        assert not p.find_all("#types-status button.retry")
        search(p, "")
        # 503: the registry answers but is unavailable; the page's fetch is replaced for a moment.
        go(p, "#/app/" + hash_segment(APP))
        p.visible("#welcome-view")
        p.js(UNAVAILABLE)
        try:
            p.click(f'#types-list .type-button[data-type="{name}"]')
            p.text_in("#status-view", "Unavailable (HTTP 503, code 14)")
            p.text_in("#status-view", "busy or starting")
            p.shot(f"unavailable-{width}")
        finally:
            p.js("window.fetch = window.realFetch")
        p.click("#status-view button.retry")
        version_title(p, name, 1)
        # Failing while signing in: the failure and Retry instead of an empty page.
        p.click("#sign-out")
        p.visible("#sign-in-view")
        p.type_into("#token-input", TOKEN)
        try:
            network(offline=True)
            p.find("#token-input").send_keys(Keys.ENTER)
            p.visible("#start-status button.retry", "Retry while signing in offline")
            p.text_in("#start-status", "could not be reached")
        finally:
            network(offline=False)
        p.click("#start-status button.retry")
        p.visible("#workspace", "the workspace after Retry")
        p.gone("#start-status")
    try:
        at_widths(p, check)
    finally:
        p.driver.execute_cdp_cmd("Network.disable", {})
        delete_all(name)


def step_scopes_hide_what_the_token_cannot_do(p):
    name = unused_type_name("ShellScope")
    publish(name)
    read_token, publish_token = issue_token("read"), issue_token("publish")
    try:
        def check(p, width):
            # A shared link opened signed out lands there after signing in.
            sign_in_as(p, read_token, type_hash(name, "version", 1))
            version_title(p, name, 1)
            assert p.js("return document.body.dataset.scope") == "read"
            for css in ("#new-schema", "#new-version", "#delete-version", "#audit-link"):
                assert not shown(p, css), f"{css} is shown to a read token"
            p.shot(f"scope-read-{width}")
            go(p, "#/app/" + hash_segment(APP) + "/publish")
            p.text_in("#status-view", "Publishing needs a publish or admin token")
            go(p, type_hash(name, "audit"))
            p.text_in("#status-view", "The audit trail needs an admin token")

            sign_in_as(p, publish_token, type_hash(name))
            version_title(p, name, 1)
            p.visible("#new-version")
            p.visible("#new-schema")
            assert not shown(p, "#delete-version"), "Delete is shown to a publish token"
            assert not shown(p, "#audit-link"), "the audit trail is shown to a publish token"

            sign_in_as(p, TOKEN, type_hash(name))
            version_title(p, name, 1)
            p.visible("#delete-version")
            p.click("#audit-link")
            p.visible("#audit-view")
            assert current_hash(p) == type_hash(name, "audit"), current_hash(p)
            p.wait(lambda d: p.find_all("#audit-list .audit-event"), "the audit events")
            status, body, _ = api("GET", "/api/audit_events", query={"application": APP, "attributesType": name})
            assert status == 200, body
            shown_events = [(e.get_attribute("data-action"), e.get_attribute("data-version"))
                            for e in p.find_all("#audit-list .audit-event")]
            expected = [(e["action"], str(e["version"]) if e["version"] is not None else "") for e in body["audit_events"]]
            assert shown_events == expected, (shown_events, expected)
            assert ("publish", "1") in shown_events
            p.shot(f"audit-{width}")
        at_widths(p, check)
    finally:
        if not p.find("#workspace").is_displayed() or p.js("return sessionStorage.getItem('schema-registry.token')") != TOKEN:
            sign_in_as(p, TOKEN)
        delete_all(name)


def step_applications_in_the_address(p):
    """The address names the application; an unknown one is said, a token limited to some shows only those."""
    other = admin_cli("create-application", "--account", os.environ["STACK_ACCOUNT"], "--name", "Shell other app")
    name = unused_type_name("ShellApps")
    publish(name)
    limited = issue_token("read", APP)

    def check(p, width):
        sign_in_as(p, TOKEN, "#/app/" + hash_segment(other))
        p.visible("#welcome-view")
        assert Select(p.find("#application-select")).first_selected_option.get_attribute("value") == other
        assert name not in sidebar_types(p)
        Select(p.find("#application-select")).select_by_value(APP)
        p.wait(lambda d: current_hash(p) == "#/app/" + hash_segment(APP), "the picked application in the address")
        p.wait(lambda d: name in sidebar_types(p), "the types of the picked application")
        p.driver.back()
        p.wait(lambda d: Select(p.find("#application-select")).first_selected_option.get_attribute("value") == other,
               "Back to return to the other application")
        go(p, "#/app/NO-SUCH-APP/type/" + hash_segment(name))
        p.text_in("#errors", "This token has no application “NO-SUCH-APP”")
        p.visible("#welcome-view")
        sign_in_as(p, limited, "#/app/" + hash_segment(other))
        options = [o.get_attribute("value") for o in Select(p.find("#application-select")).options]
        assert options == [APP], f"a token limited to {APP} offers {options}"
        p.text_in("#errors", "This token has no application")
        p.shot(f"applications-limited-{width}")
    try:
        at_widths(p, check)
    finally:
        sign_in_as(p, TOKEN)
        delete_all(name)


def step_dot_types_open_and_delete(p):
    """`.` and `..` open from the sidebar and the address, and are deleted in the panel."""
    widths = {".": WIDTHS[0], "..": WIDTHS[1]}
    for name in (".", ".."):
        publish(name)
    try:
        for name, (width, height, mobile) in widths.items():
            p.set_width(width, height, mobile=mobile)
            go(p, "#/app/" + hash_segment(APP))
            # The types were published through the API after the panel read its list; the
            # address may be the one already open, so load the page again to read it anew.
            p.driver.refresh()
            search(p, ".")
            p.wait(lambda d: name in sidebar_types(p) and all("." in t for t in sidebar_types(p)),
                   "the search for names with a dot")
            p.click(f'#types-list .type-button[data-type="{name}"]')
            version_title(p, name, 1)
            assert current_hash(p) == type_hash(name), current_hash(p)
            p.visible('#version-view [name="content-state.status"]', f"the form of {name!r}")
            p.driver.refresh()
            version_title(p, name, 1)
            assert p.horizontal_overflow() <= 0
            delete_in_panel(p, name, 1)
            p.text_in("#messages", f"{name} has no versions left")
            assert api_versions(name) == [], f"{name!r} was not deleted"
            search(p, "")
    finally:
        p.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        for name in (".", ".."):
            delete_all(name)


def step_publish_confirmation_opens_at_its_title(p):
    """A confirmation taller than the screen opens at its top: its title is what the reader sees first."""
    name = unused_type_name("ShellDialog")
    publish(name)
    breaking = json.dumps({"type": "object", "properties": {}, "attributes": {"properties": {}}}, indent=2)

    def check(p, width):
        go(p, type_hash(name, "publish"))
        p.visible("#publish-schema")
        p.paste_into("#publish-schema", breaking)
        p.visible("#publish-check .compat-warning", "the compatibility warning")
        p.click("#publish-submit")
        p.dialog_open("#publish-dialog")
        dialog = p.find("#publish-dialog").rect
        title = p.find("#publish-confirm-title").rect
        assert dialog["y"] <= title["y"] and title["y"] + title["height"] <= dialog["y"] + dialog["height"], (dialog, title)
        assert p.js("return document.querySelector('#publish-dialog').scrollTop") == 0
        p.shot(f"publish-dialog-top-{width}", full_page=False)
        p.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        p.dialog_closed("#publish-dialog")
        assert api_versions(name) == [1], "cancelling must not publish"
    try:
        at_widths(p, check)
    finally:
        delete_all(name)


STEPS = [
    step_wrong_token_keeps_the_input,
    step_addresses_reload_back_forward_and_links,
    step_many_types_search_and_long_names,
    step_loading_and_failure_offer_retry,
    step_scopes_hide_what_the_token_cannot_do,
    step_applications_in_the_address,
    step_dot_types_open_and_delete,
    step_publish_confirmation_opens_at_its_title,
]
