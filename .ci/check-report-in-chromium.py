#!/usr/bin/env python3
"""Opens SyncLab's HTML pages in a real headless Chromium and checks what a reader sees.

Run from the repository root, after a build (CI runs it with the release binary):

    python3 .ci/check-report-in-chromium.py [--synclab .build/release/synclab] [--out DIR]

It writes the report of a bundled scenario and the comparison of the bundled stories on
every engine with the binary, opens each in Chromium at 1400x900 (the DevTools protocol over
--remote-debugging-pipe, Python's standard library only) and checks that:
  - the report loads without a console error, an uncaught exception or a network request;
  - the outcome ("What happened") lies within the first 900 px, without scrolling;
  - stepping changes the state shown: #step=1 and the last step that differs show
    different state blocks (the note is in the stores at the end only), opening the page
    at that step shows it at once, and the keys ← and → move one event;
  - every comparison page and its index fit 1400 px wide and keep each rule ID on one line;
    a story's page has a column and a folded diagram per registered engine.
Screenshots (report.png, steps.png, compare.png) land in DIR (default: a temporary folder).
Needs `chromium` (Debian: apt-get install chromium). Exit status 0 when every check holds.
"""
import argparse
import fcntl
import json
import os
import subprocess
import sys
import tempfile
import time
import base64

SCENARIO = "Scenarios/tour/01-first-sync.scenario"
STORIES = "Scenarios/compare"
STORY = "02-same-key-offline.compare.html"
ENGINES = "all"


class Browser:
    """Chromium driven over its DevTools pipe: fd 3 reads commands, fd 4 writes replies."""

    def __init__(self, profile):
        to_child, self.to_browser = os.pipe()
        self.from_browser, from_child = os.pipe()
        # Out of the way of 3 and 4, which the child gets them as.
        to_child_high = fcntl.fcntl(to_child, fcntl.F_DUPFD, 10)
        from_child_high = fcntl.fcntl(from_child, fcntl.F_DUPFD, 10)
        os.close(to_child)
        os.close(from_child)
        devnull = os.open(os.devnull, os.O_WRONLY)
        args = ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check",
                "--user-data-dir=" + profile, "--window-size=1400,900", "about:blank"]
        self.pid = os.posix_spawnp("chromium", args, os.environ, file_actions=[
            (os.POSIX_SPAWN_DUP2, to_child_high, 3),
            (os.POSIX_SPAWN_DUP2, from_child_high, 4),
            (os.POSIX_SPAWN_DUP2, devnull, 1),
            (os.POSIX_SPAWN_DUP2, devnull, 2),
        ])
        for fd in (to_child_high, from_child_high, devnull):
            os.close(fd)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        wanted = self.next_id
        while True:
            reply = self.read()
            if reply.get("id") == wanted:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its DevTools pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_for(self, method, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for index, event in enumerate(self.events):
                if event.get("method") == method:
                    del self.events[index]
                    return event
            self.events.append(self.read())
        raise RuntimeError(f"no {method} within {timeout} s")

    def close(self):
        try:
            self.send("Browser.close")
        except (RuntimeError, OSError):
            pass
        os.waitpid(self.pid, 0)


class Page:
    def __init__(self, browser):
        self.browser = browser
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.send(
            "Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page.enable", "Runtime.enable", "Log.enable", "Network.enable"):
            self.send(domain)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": 1400, "height": 900, "deviceScaleFactor": 1, "mobile": False})

    def send(self, method, params=None):
        return self.browser.send(method, params, self.session)

    def open(self, url):
        self.send("Page.navigate", {"url": url})
        self.browser.wait_for("Page.loadEventFired")

    def eval(self, expression):
        result = self.send("Runtime.evaluate",
                           {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def key(self, key, virtual_code):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                                 "windowsVirtualKeyCode": virtual_code})

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))

    def problems(self):
        """Console errors, uncaught exceptions and requests that left the file."""
        found = []
        for event in self.browser.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append("exception: " + json.dumps(params["exceptionDetails"])[:300])
            elif method == "Runtime.consoleAPICalled" and params.get("type") == "error":
                found.append("console error: " + json.dumps(params.get("args"))[:300])
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                found.append("log error: " + params["entry"].get("text", ""))
            elif method == "Network.requestWillBeSent":
                url = params["request"]["url"]
                if not url.startswith(("file:", "data:", "about:")):
                    found.append("network request: " + url)
        return found


def check(condition, message, failures):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def check_report(page, path, out, failures):
    url = "file://" + os.path.abspath(path)
    page.open(url + "#step=1")
    box = page.eval("JSON.stringify(document.getElementById('outcome')"
                    ".getBoundingClientRect())")
    box = json.loads(box)
    check(page.eval("window.scrollY") == 0 and 0 <= box["top"] and box["bottom"] <= 900,
          f"the outcome is within the first 900 px (top {box['top']:.0f}, "
          f"bottom {box['bottom']:.0f})", failures)
    page.screenshot(os.path.join(out, "report.png"))
    shown = ("Array.from(document.querySelectorAll('#step-through .state'))"
             ".filter(function (s) { return !s.hidden; }).map(function (s) { return s.id; })"
             ".join(',')")
    first = page.eval(shown)
    first_text = page.eval("document.querySelector('#step-through .state:not([hidden])')"
                           ".textContent")
    check(first == page.eval("'state-' + document.getElementById('step-through')"
                             ".getAttribute('data-state')"),
          f"#step=1 shows one state block ({first})", failures)
    later = page.eval("(function () { var items = document.querySelectorAll("
                      "'#step-events li'); var s = items[0].getAttribute('data-state');"
                      " for (var i = items.length - 1; i !== 0; i--) {"
                      " if (items[i].getAttribute('data-state') !== s) { return i + 1; } }"
                      " return 0; })()")
    check(later > 1, f"a later event changes the state (event {later})", failures)
    page.eval(f"location.hash = '#step={later}'")
    time.sleep(0.2)
    second = page.eval(shown)
    second_text = page.eval("document.querySelector('#step-through .state:not([hidden])')"
                            ".textContent")
    check(second != first and second_text != first_text,
          f"#step={later} shows another state ({second})", failures)
    check("Groceries" in second_text and "Groceries" not in first_text,
          f"the note is in the stores at #step={later}, not at #step=1", failures)
    page.open("about:blank")
    page.open(url + f"#step={later}")
    check(page.eval(shown) == second, f"opening #step={later} shows that state at once",
          failures)
    step = int(page.eval("document.getElementById('step-through').getAttribute('data-step')"))
    page.eval("document.body.focus()")
    page.key("ArrowLeft", 37)
    after = int(page.eval("document.getElementById('step-through').getAttribute('data-step')"))
    check(after == step - 1, f"ArrowLeft moves from event {step} to {after}", failures)
    page.key("ArrowRight", 39)
    again = int(page.eval("document.getElementById('step-through').getAttribute('data-step')"))
    check(again == step, f"ArrowRight moves back to event {again}", failures)
    after = again
    check(page.eval("location.hash") == f"#step={after}", "the address follows the step",
          failures)
    page.eval("document.getElementById('step-through').scrollIntoView()")
    page.screenshot(os.path.join(out, "steps.png"))


def check_fits(page, path, failures):
    page.open("file://" + os.path.abspath(path))
    name = os.path.basename(path)
    width = page.eval("document.documentElement.scrollWidth")
    split = page.eval("Array.from(document.querySelectorAll('.rid, a.rule'))"
                      ".filter(function (e) { return e.getClientRects().length > 1; })"
                      ".map(function (e) { return e.textContent; }).join(' ')")
    check(width <= 1400 and split == "", f"{name} fits 1400 px (scroll width {width})"
          + (f", but breaks {split}" if split else ", no rule ID broken"), failures)


def check_compare(page, path, out, failures):
    page.open("file://" + os.path.abspath(path))
    columns = page.eval("document.querySelector('table.compare thead tr').children.length - 1")
    check(columns >= 6, f"{columns} engine columns (every registered engine)", failures)
    folds = page.eval("document.querySelectorAll('details.timeline').length")
    check(folds == columns, f"{folds} folded diagrams, one per engine", failures)
    height = page.eval("document.documentElement.scrollHeight")
    check(height < 8000, f"the folded page is {height} px tall", failures)
    page.screenshot(os.path.join(out, "compare.png"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--synclab", default=".build/release/synclab")
    parser.add_argument("--out", default=None)
    arguments = parser.parse_args()
    out = arguments.out or tempfile.mkdtemp(prefix="synclab-chromium-")
    os.makedirs(out, exist_ok=True)
    subprocess.run([arguments.synclab, "report", SCENARIO, "--format", "html",
                    "--out", os.path.join(out, "report")], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run([arguments.synclab, "compare", STORIES, "--engines", ENGINES,
                    "--format", "html", "--out", os.path.join(out, "compare")],
                   stdout=subprocess.DEVNULL)
    report = os.path.join(out, "report", os.path.basename(SCENARIO).replace(
        ".scenario", ".html"))
    folder = os.path.join(out, "compare")
    pages = sorted(name for name in os.listdir(folder) if name.endswith(".html"))
    failures = []
    browser = Browser(os.path.join(out, "profile"))
    try:
        page = Page(browser)
        check_report(page, report, out, failures)
        for name in pages:
            check_fits(page, os.path.join(folder, name), failures)
        check_compare(page, os.path.join(folder, STORY), out, failures)
        problems = page.problems()
        check(not problems, "no console error, exception or network request"
              + "".join("\n     " + problem for problem in problems), failures)
    finally:
        browser.close()
    print(f"screenshots in {out}")
    if failures:
        print(f"{len(failures)} checks failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
