"""What every browser step file shares: the stack's address, the registry's API for checking
what the panel did, the headless Chromium driver and `Panel`, whose helpers read like what a
person does. `panel_test.py` runs the steps."""

import base64
import json
import os
import sys
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE = os.environ["PANEL_URL"].rstrip("/")
TOKEN = os.environ["PANEL_TOKEN"]
APP = os.environ["PANEL_APP"]
ARTIFACTS = Path(os.environ.get("PANEL_ARTIFACTS", Path(__file__).resolve().parents[1] / "artifacts" / "panel"))
WAIT_SECONDS = float(os.environ.get("PANEL_WAIT_SECONDS", "15"))

CSP = ("default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; "
       "img-src 'self' data:; frame-ancestors 'none'")

# Version 1 exercises every widget: text, select, datetime (and a Swift Date), number, toggle,
# textarea, url, color, group, list and json; attributes with one required field.
SCHEMA_V1 = json.dumps({
    "type": "object",
    "properties": {
        "gate": {"type": "string", "title": "Gate", "maxLength": 8},
        "status": {"type": "string", "enum": ["scheduled", "boarding", "departed"]},
        "estimatedTime": {"type": "string", "format": "date-time", "description": "When the flight leaves"},
        "departure": {"type": "number", "x-swift-type": "Date"},
        "delayMinutes": {"type": "integer", "minimum": 0},
        "onTime": {"type": "boolean"},
        "notes": {"type": "string", "maxLength": 500},
        "website": {"type": "string", "format": "uri"},
        "accent": {"type": "string", "format": "color"},
        "crew": {"type": "object", "properties": {"captain": {"type": "string"}, "seats": {"type": "integer"}},
                 "required": ["captain"]},
        "stops": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
        "extra": {"type": "object"},
    },
    "attributes": {
        "properties": {"flightNumber": {"type": "string"}, "airline": {"type": "string"}},
        "required": ["flightNumber"],
    },
}, separators=(",", ":"))

# Version 2 removes `gate` and turns `delayMinutes` into a string: both break apps built
# against version 1, so the panel must warn before publishing.
SCHEMA_V2 = json.dumps({
    "type": "object",
    "properties": {
        "status": {"type": "string", "enum": ["scheduled", "boarding", "departed"]},
        "delayMinutes": {"type": "string"},
    },
    "attributes": {"properties": {"flightNumber": {"type": "string"}}, "required": ["flightNumber"]},
}, indent=2)

EXPLICIT_VERSION = 5


# --- the registry's API, for checking what the panel did ---------------------------------

def api(method, path, body=None, query=None, token=TOKEN):
    query = dict(query or {})
    url = BASE + path + ("?" + urllib.parse.urlencode(query) if query else "")
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    if token:
        request.add_header("Authorization", f"Api {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"{}"), dict(response.headers)
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            payload = json.loads(raw)
        except ValueError:
            payload = raw.decode(errors="replace")
        return error.code, payload, dict(error.headers)


def schema_path(attributes_type, version):
    return f"/api/live_activity_schemas/{urllib.parse.quote(attributes_type, safe='')}/{version}"


def api_versions(attributes_type):
    status, body, _ = api("GET", "/api/live_activity_schemas", query={"application": APP, "attributesType": attributes_type})
    assert status == 200, f"list: HTTP {status} {body}"
    return [schema["version"] for schema in body["schemas"]]


def unused_type_name(base):
    status, body, _ = api("GET", "/api/live_activity_schemas", query={"application": APP})
    assert status == 200, f"list: HTTP {status} {body}"
    taken = {schema["attributes_type"] for schema in body["schemas"]}
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}{n}"
    return name


# --- the browser --------------------------------------------------------------------------

def make_driver():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,900", "--force-device-scale-factor=1", "--lang=en-US",
                     "--disable-features=Translate,MediaRouter", "--no-first-run"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(30)
    return driver


class Panel:
    """The browser session plus helpers that read like what a person does."""

    def __init__(self, driver):
        self.driver = driver
        self.shots = 0
        self.console = []

    def wait(self, condition, message, seconds=WAIT_SECONDS):
        try:
            return WebDriverWait(self.driver, seconds, poll_frequency=0.1).until(condition)
        except TimeoutException:
            raise AssertionError(f"timed out waiting for {message}") from None

    def find(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def find_all(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def visible(self, css, message=None):
        return self.wait(EC.visibility_of_element_located((By.CSS_SELECTOR, css)), message or f"{css} to be visible")

    def gone(self, css, message=None):
        return self.wait(EC.invisibility_of_element_located((By.CSS_SELECTOR, css)), message or f"{css} to disappear")

    def text_in(self, css, text, message=None):
        return self.wait(EC.text_to_be_present_in_element((By.CSS_SELECTOR, css), text),
                         message or f"{text!r} in {css}")

    def click(self, css):
        element = self.visible(css)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        self.wait(EC.element_to_be_clickable((By.CSS_SELECTOR, css)), f"{css} to be clickable")
        element.click()
        return element

    def type_into(self, css, text, clear=True):
        element = self.visible(css)
        if clear:
            element.send_keys(Keys.CONTROL, "a")
            element.send_keys(Keys.DELETE)
        element.send_keys(text)
        return element

    def paste_into(self, css, text):
        """Sets a big text at once (like a paste) and fires the input event the page listens to."""
        element = self.visible(css)
        self.driver.execute_script(
            "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
            element, text)
        return element

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def dialog_open(self, css):
        return self.wait(lambda d: self.js("return document.querySelector(arguments[0]).open", css), f"{css} to open")

    def discard_if_asked(self, seconds=1.0):
        """Leaving an edited publish editor asks first: discards the draft when it asks."""
        try:
            WebDriverWait(self.driver, seconds, poll_frequency=0.1).until(
                lambda d: self.js("return document.querySelector('#leave-dialog').open"))
        except TimeoutException:
            return False
        self.find("#leave-discard").click()
        self.dialog_closed("#leave-dialog")
        return True

    def dialog_closed(self, css):
        return self.wait(lambda d: not self.js("return document.querySelector(arguments[0]).open", css), f"{css} to close")

    def shot(self, name, full_page=True):
        """Saves Tests/artifacts/panel/NN-name.png (the whole page unless a dialog is open)."""
        self.shots += 1
        path = ARTIFACTS / f"{self.shots:02d}-{name}.png"
        if full_page:
            metrics = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
            size = metrics.get("cssContentSize") or metrics["contentSize"]
            viewport = metrics.get("cssLayoutViewport") or metrics["layoutViewport"]
            clip = {"x": 0, "y": 0, "width": max(size["width"], viewport["clientWidth"]),
                    "height": min(max(size["height"], viewport["clientHeight"]), 6000), "scale": 1}
            data = self.driver.execute_cdp_cmd(
                "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip})["data"]
            path.write_bytes(base64.b64decode(data))
        else:
            self.driver.save_screenshot(str(path))
        return path

    def collect_console(self):
        try:
            self.console.extend(self.driver.get_log("browser"))
        except Exception:  # noqa: BLE001 - logs are a bonus, never a failure by themselves
            pass

    def set_width(self, width, height=900, mobile=False):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})

    def unlabelled_controls(self):
        """Visible inputs, selects and textareas without an accessible label."""
        return self.js("""
            return [...document.querySelectorAll('input, select, textarea')]
              .filter((el) => el.type !== 'hidden' && el.getClientRects().length > 0)
              .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                              && !el.getAttribute('aria-labelledby'))
              .map((el) => el.outerHTML.slice(0, 120));
        """)

    def horizontal_overflow(self):
        return self.js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
