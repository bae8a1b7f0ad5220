"""Browser steps: an application's webhooks. Each takes the `Panel` and runs while signed in,
after panel_test's core steps.

A receiver of this process on 127.0.0.1 takes the registry's deliveries (run.sh starts the
registry with REGISTRY_WEBHOOK_ALLOW_PRIVATE and REGISTRY_WEBHOOK_ALLOW_HTTP, so it may reach
it): `/ok` answers 200, `/fail` 500. It checks every signature with the secret the panel showed
(Standard Webhooks: base64 HMAC-SHA256 of `id.timestamp.body` under the secret's bytes), so the
secret on the page is the one that signs. `VIEWS` are the webhook views the accessibility pass
checks at both widths, light and dark.
"""

import base64
import hashlib
import hmac
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from harness import *  # noqa: F403
from steps_shell import WIDTHS, go, hash_segment, issue_token, sign_in_as

TOKEN_KEY = "schema-registry.token"
DELIVERY_WAIT = 30  # seconds for a queued event to reach the receiver (the worker polls every 200 ms here)


# --- the receiver -------------------------------------------------------------------------

class Receiver:
    """Every POST the registry makes: (path, headers with lower-case names, body bytes)."""

    def __init__(self):
        self.received = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the name http.server calls
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                with receiver.lock:
                    receiver.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                ok = self.path.startswith("/ok")
                answer = b"thanks, got it" if ok else b"receiver is down for maintenance"
                self.send_response(200 if ok else 500)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def deliveries(self, webhook_id=None, path=None):
        with self.lock:
            return [(p, h, b) for p, h, b in self.received
                    if (webhook_id is None or h.get("webhook-id") == webhook_id) and (path is None or p == path)]

    def wait_for(self, webhook_id, count=1, path=None):
        deadline = time.monotonic() + DELIVERY_WAIT
        while time.monotonic() < deadline:
            found = self.deliveries(webhook_id, path)
            if len(found) >= count:
                return found
            time.sleep(0.1)
        raise AssertionError(f"{webhook_id} reached the receiver {len(self.deliveries(webhook_id, path))} times, not {count}")


RECEIVER = None


def receiver():
    global RECEIVER
    RECEIVER = RECEIVER or Receiver()
    return RECEIVER


def signed_by(secret, headers, body):
    """Whether one of the `v1,` signatures of `headers` is the HMAC of `secret` (Standard Webhooks)."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{headers['webhook-id']}.{headers['webhook-timestamp']}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    given = [part.split(",", 1)[1] for part in headers["webhook-signature"].split() if part.startswith("v1,")]
    return any(hmac.compare_digest(expected, signature) for signature in given)


# --- helpers ------------------------------------------------------------------------------

def webhooks_hash(*rest):
    return "#/app/" + hash_segment(APP) + "/webhooks" + "".join("/" + str(r) for r in rest)


def webhooks_path(*rest):
    return f"/api/applications/{urllib.parse.quote(APP, safe='')}/webhooks" + "".join(rest)


def api_webhooks():
    status, body, _ = api("GET", webhooks_path())
    assert status == 200, f"list webhooks: HTTP {status} {body}"
    return body["webhooks"]


def api_webhook(webhook_id):
    status, body, _ = api("GET", webhooks_path(f"/{webhook_id}"))
    assert status == 200, f"webhook {webhook_id}: HTTP {status} {body}"
    return body["webhook"]


def create_webhook(url, events=("published",), type_prefix=""):
    status, body, _ = api("POST", webhooks_path(), {"url": url, "events": list(events), "type_prefix": type_prefix})
    assert status == 200, f"create webhook: HTTP {status} {body}"
    return body["webhook"]["id"], body["secret"]


def open_place(p, address):
    """Signed in as the admin token at `address` (a reload, so any state before is gone)."""
    p.driver.get(BASE + "/panel/")
    p.js("for (const key of Object.keys(sessionStorage)) if (key.startsWith('schema-registry.draft.')) sessionStorage.removeItem(key);"
         "sessionStorage.setItem(arguments[0], arguments[1])", TOKEN_KEY, TOKEN)
    go(p, address)
    p.driver.refresh()
    p.visible("#workspace", "the workspace")


def open_webhook(p, webhook_id):
    open_place(p, webhooks_hash(webhook_id))
    p.text_in("#webhooks-title", f"Webhook {webhook_id}")
    p.wait(lambda d: p.find_all("#delivery-list .delivery") or p.find_all("#delivery-empty"), "the delivery log")


LOG_BUSY = "return document.querySelector('#delivery-status')?.hasAttribute('aria-busy') ?? true"


def log_entries(p):
    """The delivery log's attempts as shown, read in one go (the page re-renders it while watching)."""
    p.wait(lambda d: not p.js(LOG_BUSY), "the delivery log to load")
    return p.js("return [...document.querySelectorAll('#delivery-list .delivery')].map((e) => ({"
                "text: e.innerText, cursor: e.querySelector('.redeliver-one')?.dataset.cursor ?? null}))")


def wait_for_entry(p, condition, message):
    """The first attempt of the log for which `condition(entry)` holds, pressing Refresh while there is none."""
    deadline = time.monotonic() + DELIVERY_WAIT
    while time.monotonic() < deadline:
        found = [entry for entry in log_entries(p) if condition(entry)]
        if found:
            return found[0]
        time.sleep(0.5)
        if not p.js(LOG_BUSY):
            p.click("#delivery-refresh")
    raise AssertionError(f"timed out waiting for {message}")


def secret_on_page(p):
    box = p.visible("#webhook-secret", "the secret, shown once")
    assert "You will not see this secret again" in box.text, box.text
    secret = p.find("#webhook-secret-text").text.strip()
    assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:])) >= 24, secret
    return secret


def problem_beside(p, control_css):
    """The problem note inside the field (or fieldset) of `control_css`."""
    return p.js("""
        const control = document.querySelector(arguments[0]);
        const holder = control.tagName === 'FIELDSET' ? control : control.closest('.field');
        return holder.querySelector('.field-problem')?.textContent ?? null;""", control_css)


# --- the steps ------------------------------------------------------------------------------

STATE = {"id": None, "secret": None}  # the subscription the steps build up, and its current secret


def step_webhooks_only_for_admin_tokens(p):
    publish_token = issue_token("publish")
    try:
        sign_in_as(p, publish_token, "#/app/" + hash_segment(APP))
        assert not p.find("#webhooks-link").is_displayed(), "the Webhooks link is shown to a publish token"
        go(p, webhooks_hash())
        p.text_in("#status-view", "Webhooks need an admin token")
        p.shot("webhooks-publish-token")
    finally:
        sign_in_as(p, TOKEN)


def step_webhook_form_problems_in_its_words_and_draft(p):
    receiver()
    open_place(p, "#/app/" + hash_segment(APP))
    p.click("#webhooks-link")
    p.text_in("#webhooks-title", f"Webhooks of {APP}")
    p.wait(lambda d: p.find_all("#webhooks-empty") or p.find_all("#webhook-list"), "the list of webhooks")
    p.click("#webhook-new")
    p.visible("#webhook-form")
    assert p.driver.switch_to.active_element == p.find("#webhook-url"), "the URL field should have focus"
    assert not p.unlabelled_controls(), p.unlabelled_controls()
    kinds = p.js("return [...document.querySelectorAll('#webhook-events input')].map((box) => box.value)")
    assert sorted(kinds) == sorted(["published", "deleted", "state_changed", "latest_pinned", "metadata_changed", "policy_changed"]), kinds
    # Nothing typed, every event unticked: both problems beside their fields, the URL focused.
    for box in p.find_all("#webhook-events input:checked"):
        box.click()
    p.click("#webhook-save")
    p.wait(lambda d: problem_beside(p, "#webhook-url"), "the URL's problem")
    assert "Enter the address" in problem_beside(p, "#webhook-url"), problem_beside(p, "#webhook-url")
    assert "Tick at least one event" in (problem_beside(p, "#webhook-events") or ""), problem_beside(p, "#webhook-events")
    assert p.driver.switch_to.active_element == p.find("#webhook-url")
    # The registry's refusal (`url: must be an absolute https URL`) beside the field, in its words.
    p.type_into("#webhook-url", "ftp://files.example.com/hook")
    p.click("#webhook-event-published")
    p.click("#webhook-save")
    p.wait(lambda d: (problem_beside(p, "#webhook-url") or "").startswith("✗ Must"), "the registry's refusal beside the URL")
    text = problem_beside(p, "#webhook-url")
    assert "url:" not in text and "https" in text, text
    assert p.find("#webhook-url").get_attribute("aria-invalid") == "true"
    assert p.find("#webhook-url").get_attribute("value") == "ftp://files.example.com/hook", "what was typed must stay"
    p.shot("webhook-form-problems")
    # A long description is kept as typed, with its problem, not cut.
    p.paste_into("#webhook-description", "x" * 1001)
    p.click("#webhook-save")
    p.wait(lambda d: "1000" in (problem_beside(p, "#webhook-description") or ""), "the description's length problem")
    assert len(p.find("#webhook-description").get_attribute("value")) == 1001
    # What was typed survives a reload as a draft.
    p.type_into("#webhook-url", receiver().base + "/ok")
    p.type_into("#webhook-description", "CI rebuilds the clients")
    p.type_into("#webhook-prefix", "Hook")
    p.click("#webhook-event-deleted")  # ticked, beside published
    p.driver.refresh()
    p.visible("#webhook-draft-restored", "the draft after a reload")
    assert p.find("#webhook-url").get_attribute("value") == receiver().base + "/ok"
    assert p.find("#webhook-prefix").get_attribute("value") == "Hook"
    assert p.find("#webhook-description").get_attribute("value") == "CI rebuilds the clients"
    ticked = p.js("return [...document.querySelectorAll('#webhook-events input:checked')].map((box) => box.value)")
    assert ticked == ["published", "deleted"], ticked


def step_webhook_created_secret_shown_once(p):
    before = {w["id"] for w in api_webhooks()}
    p.click("#webhook-event-metadata_changed")
    p.find("#webhook-save").send_keys(Keys.ENTER)  # keyboard only
    p.text_in("#messages", "Subscribed " + receiver().base + "/ok")
    STATE["secret"] = secret_on_page(p)
    assert p.driver.switch_to.active_element == p.find("#webhook-secret-title"), "the secret's heading should have focus"
    assert "null" not in p.find("#webhooks-view").text, "a stray null on the page"
    p.visible("#webhook-secret .copy-button")
    p.click("#webhook-secret .copy-button")
    p.wait(lambda d: p.find("#webhook-secret .copy-status").text in ("Copied.", "Selected: press Ctrl+C to copy."), "the copy status")
    p.shot("webhook-secret")
    created = [w for w in api_webhooks() if w["id"] not in before]
    assert len(created) == 1, created
    webhook = created[0]
    STATE["id"] = webhook["id"]
    assert webhook["url"] == receiver().base + "/ok" and webhook["type_prefix"] == "Hook", webhook
    assert sorted(webhook["events"]) == ["deleted", "metadata_changed", "published"], webhook["events"]
    assert webhook["description"] == "CI rebuilds the clients" and webhook["enabled"], webhook
    assert "webhook.[" not in " ".join(p.js("return Object.keys(sessionStorage)")), "the saved form's draft is left"
    assert STATE["secret"] not in json.dumps(p.js("return {...sessionStorage}")), "the secret went to sessionStorage"
    # Never again: not after a reload, not in the list.
    p.driver.refresh()
    p.text_in("#webhooks-title", f"Webhook {STATE['id']}")
    assert not p.find_all("#webhook-secret"), "the secret is shown again after a reload"
    assert STATE["secret"] not in p.find("#main").text
    go(p, webhooks_hash())
    item = p.visible(f'#webhook-list .webhook-item[data-webhook="{STATE["id"]}"]', "the new subscription in the list")
    for words in (receiver().base + "/ok", "A version is published", "Hook", "CI rebuilds the clients", "Enabled"):
        assert words in item.text, f"{words!r} missing from {item.text!r}"
    p.shot("webhook-list")


def step_webhook_test_event_is_signed_with_the_shown_secret(p):
    open_webhook(p, STATE["id"])
    p.find("#webhook-test").send_keys(Keys.ENTER)  # keyboard only
    p.text_in("#messages", "Queued a test event")
    webhook_id = p.find("#messages code").text
    assert webhook_id.startswith("msg_test_"), webhook_id
    _, headers, body = receiver().wait_for(webhook_id)[0]
    assert json.loads(body)["type"] == "test", body
    assert signed_by(STATE["secret"], headers, body), "the test event is not signed with the secret the panel showed"
    entry = wait_for_entry(p, lambda e: webhook_id in e["text"], "the test event in the log")
    for words in ("Delivered", "HTTP 200", "Test event", "thanks, got it", " ms"):
        assert words in entry["text"], f"{words!r} missing from {entry['text']!r}"
    assert entry["cursor"] is None, "a test event has no cursor to send again"
    p.shot("webhook-test-delivered")


def step_webhook_feed_event_redelivered_one_and_since(p):
    status, changes, _ = api("GET", "/api/changes", query={"application": APP, "after": "now"})
    assert status == 200, changes
    before = changes["cursor"]
    name = unused_type_name("HookFlight")
    status, body, _ = api("POST", "/api/live_activity_schemas", {"application": APP, "attributesType": name, "jsonSchema": SCHEMA_V1})
    assert status == 200, body
    try:
        open_webhook(p, STATE["id"])
        entry = wait_for_entry(p, lambda e: e["cursor"] is not None, "the published event in the log")
        webhook_id = "msg_" + entry["cursor"]
        _, headers, sent = receiver().wait_for(webhook_id)[0]
        event = json.loads(sent)
        assert event["type"] == "published" and event["attributes_type"] == name, event
        assert event["cursor"] == entry["cursor"], (event, entry)
        assert "A version is published" in entry["text"], entry["text"]
        # One event again, with its webhook-id.
        p.click(f'#delivery-list .delivery .redeliver-one[data-cursor="{entry["cursor"]}"]')
        p.text_in("#messages", f"Queued {webhook_id} again")
        receiver().wait_for(webhook_id, count=2)
        p.wait(lambda d: len([e for e in log_entries(p) if webhook_id in e["text"]]) >= 2,
               "the redelivery in the log (the page reads it again by itself)")
        # Everything since a cursor: a bad cursor is a problem beside the field, a good one sends it again.
        p.type_into("#webhook-since", "not a cursor")
        p.click("#webhook-since-send")
        p.dialog_open("#confirm-dialog")
        p.click("#confirm-ok")
        p.dialog_closed("#confirm-dialog")
        p.wait(lambda d: p.find("#webhook-since").get_attribute("aria-invalid") == "true", "the cursor's problem")
        assert p.find("#webhook-since-problem").text.startswith("✗ The cursor"), p.find("#webhook-since-problem").text
        assert p.find("#webhook-since").get_attribute("value") == "not a cursor"
        p.type_into("#webhook-since", before)
        p.click("#webhook-since-send")
        p.dialog_open("#confirm-dialog")
        assert "sent again" in p.find("#confirm-dialog").text
        p.click("#confirm-ok")
        p.dialog_closed("#confirm-dialog")
        p.text_in("#messages", "Queued every event after that cursor again")
        receiver().wait_for(webhook_id, count=3)
        assert all(signed_by(STATE["secret"], h, b) for _, h, b in receiver().deliveries(webhook_id))
        p.shot("webhook-redelivered")
    finally:
        status, body, _ = api("DELETE", schema_path(name, 1), query={"application": APP})
        assert status in (200, 204), body


def step_webhook_edit_disable_enable(p):
    open_webhook(p, STATE["id"])
    p.click("#webhook-edit")
    p.visible("#webhook-form")
    assert p.find("#webhook-url").get_attribute("value") == receiver().base + "/ok", "the form starts from the subscription"
    p.type_into("#webhook-description", "CI rebuilds the clients, and the docs")
    p.click("#webhook-event-metadata_changed")  # unticked
    p.click("#webhook-save")
    p.text_in("#messages", "Saved the changes")
    p.text_in("#webhook-facts", "and the docs")
    webhook = api_webhook(STATE["id"])
    assert webhook["description"] == "CI rebuilds the clients, and the docs" and sorted(webhook["events"]) == ["deleted", "published"], webhook
    p.click("#webhook-toggle")
    p.text_in("#messages", "Disabled")
    p.text_in("#webhooks-title", "Disabled")
    assert api_webhook(STATE["id"])["enabled"] is False
    assert p.find("#webhook-toggle").text == "Enable"
    p.click("#webhook-toggle")
    p.text_in("#messages", "Enabled")
    p.text_in("#webhooks-title", "Enabled")
    assert api_webhook(STATE["id"])["enabled"] is True


def step_webhook_rotate_secret_old_one_signs_during_grace(p):
    open_webhook(p, STATE["id"])
    old = STATE["secret"]
    p.click("#webhook-rotate")
    p.dialog_open("#change-dialog")
    text = p.find("#change-dialog").text
    assert "old secret keeps signing during the grace period" in text, text
    p.shot("webhook-rotate-dialog", full_page=False)
    p.driver.switch_to.active_element.send_keys(Keys.ESCAPE)  # Escape cancels
    p.dialog_closed("#change-dialog")
    assert api_webhook(STATE["id"])["previous_secret_until"] is None, "cancelling must not rotate"
    p.click("#webhook-rotate")
    p.dialog_open("#change-dialog")
    Select(p.find("#change-dialog select")).select_by_value("3600")
    p.click("#change-confirm")
    p.dialog_closed("#change-dialog")
    p.text_in("#messages", "Rotated the signing secret")
    new = secret_on_page(p)
    assert new != old
    assert "The old secret keeps signing beside it until" in p.find("#webhook-secret").text
    until = api_webhook(STATE["id"])["previous_secret_until"]
    assert until, "no grace period after rotating"
    p.click("#webhook-test")
    p.text_in("#messages", "Queued a test event")
    webhook_id = p.find("#messages code").text
    _, headers, body = receiver().wait_for(webhook_id)[0]
    assert len(headers["webhook-signature"].split()) == 2, headers["webhook-signature"]
    assert signed_by(new, headers, body) and signed_by(old, headers, body), "both secrets must sign during the grace period"
    STATE["secret"] = new
    p.click("#webhook-secret-hide")
    p.visible("#webhook-secret-hidden")
    assert new not in p.find("#main").text


def step_webhook_failing_receiver_shows_why(p):
    failing, _ = create_webhook(receiver().base + "/fail")
    STATE["failing"] = failing
    open_webhook(p, failing)
    p.click("#webhook-test")
    entry = wait_for_entry(p, lambda e: "Failed" in e["text"], "the failed attempt in the log")
    for words in ("HTTP 500", "receiver is down for maintenance"):
        assert words in entry["text"], f"{words!r} missing from {entry['text']!r}"
    go(p, webhooks_hash())
    item = p.visible(f'#webhook-list .webhook-item[data-webhook="{failing}"]')
    for words in ("Failing", "failed 1 time in a row", "next attempt"):
        assert words in item.text, f"{words!r} missing from {item.text!r}"
    p.shot("webhook-failing")


def step_webhook_delete_with_confirmation(p):
    failing = STATE["failing"]
    open_webhook(p, failing)
    p.click("#webhook-delete")
    p.dialog_open("#confirm-dialog")
    text = p.find("#confirm-dialog").text
    assert "cannot be undone" in text and "/fail" in text, text
    assert "danger" in p.find("#confirm-ok").get_attribute("class")
    p.shot("webhook-delete-dialog", full_page=False)
    p.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    p.dialog_closed("#confirm-dialog")
    assert failing in {w["id"] for w in api_webhooks()}, "cancelling must not delete"
    p.click("#webhook-delete")
    p.dialog_open("#confirm-dialog")
    p.click("#confirm-ok")
    p.dialog_closed("#confirm-dialog")
    p.text_in("#messages", "Deleted the subscription of")
    p.text_in("#webhooks-title", "Webhooks of")
    assert failing not in {w["id"] for w in api_webhooks()}
    status, _, _ = api("GET", webhooks_path(f"/{failing}"))
    assert status == 404, status


def step_webhook_views_fit_a_phone_and_have_their_titles(p):
    try:
        for width, height, mobile in WIDTHS:
            p.set_width(width, height, mobile=mobile)
            titles = set()
            for address in (webhooks_hash(), webhooks_hash(STATE["id"]), webhooks_hash("new"), webhooks_hash(STATE["id"], "edit")):
                open_place(p, address)
                p.visible("#webhooks-title")
                p.wait(lambda d: not p.find_all("#webhooks-view [aria-busy]"), "the view to load")
                assert p.horizontal_overflow() <= 0, f"{address} @ {width}px: {p.horizontal_overflow()} px of horizontal scrolling"
                titles.add(p.driver.title)
            assert len(titles) == 4, f"the webhook views share titles: {titles}"
            p.shot(f"webhook-page-{width}")
    finally:
        p.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# --- the views of the accessibility pass -------------------------------------------------------

def fixture():
    """A subscription with a delivered test event, for the views (made once when the steps did not run)."""
    if STATE["id"] is None or STATE["id"] not in {w["id"] for w in api_webhooks()}:
        STATE["id"], STATE["secret"] = create_webhook(receiver().base + "/ok")
        status, body, _ = api("POST", webhooks_path(f"/{STATE['id']}:test"))
        assert status == 200, body
        receiver().wait_for(body["webhook_id"])
    return STATE["id"]


def open_list_view(p):
    fixture()
    open_place(p, webhooks_hash())
    p.visible("#webhook-list .webhook-item")


def open_form_problems(p):
    open_place(p, webhooks_hash("new"))
    p.visible("#webhook-form")
    for box in p.find_all("#webhook-events input:checked"):
        box.click()
    p.click("#webhook-save")
    p.wait(lambda d: problem_beside(p, "#webhook-url"), "the URL's problem")


def open_page_view(p):
    webhook_id = fixture()
    open_webhook(p, webhook_id)
    wait_for_entry(p, lambda e: True, "an attempt in the log")


def open_secret_view(p):
    open_page_view(p)
    p.click("#webhook-rotate")
    p.dialog_open("#change-dialog")
    p.click("#change-confirm")
    p.dialog_closed("#change-dialog")
    STATE["secret"] = secret_on_page(p)


def open_rotate_dialog(p):
    open_page_view(p)
    p.click("#webhook-rotate")
    p.dialog_open("#change-dialog")


def open_delete_dialog(p):
    open_page_view(p)
    p.click("#webhook-delete")
    p.dialog_open("#confirm-dialog")


# (name, open, full_page) for steps_a11y's `View`.
VIEWS = [
    ("webhooks-list", open_list_view, True),
    ("webhook-form-problems", open_form_problems, True),
    ("webhook-page", open_page_view, True),
    ("webhook-secret", open_secret_view, True),
    ("webhook-rotate-dialog", open_rotate_dialog, False),
    ("webhook-delete-dialog", open_delete_dialog, False),
]


def step_webhooks_removed(p):
    for webhook in api_webhooks():
        status, body, _ = api("DELETE", webhooks_path(f"/{webhook['id']}"))
        assert status == 200, f"delete webhook {webhook['id']}: HTTP {status} {body}"


STEPS = [
    step_webhooks_only_for_admin_tokens,
    step_webhook_form_problems_in_its_words_and_draft,
    step_webhook_created_secret_shown_once,
    step_webhook_test_event_is_signed_with_the_shown_secret,
    step_webhook_feed_event_redelivered_one_and_since,
    step_webhook_edit_disable_enable,
    step_webhook_rotate_secret_old_one_signs_during_grace,
    step_webhook_failing_receiver_shows_why,
    step_webhook_delete_with_confirmation,
    step_webhook_views_fit_a_phone_and_have_their_titles,
]
