#!/usr/bin/env python3
"""Opens an HTML page in headless Chromium and reports what a test needs to know about it.

Usage:
    python3 scripts/chromium-check.py PAGE.html --screenshot OUT.png [--dark-screenshot OUT-dark.png]
        [--session N] [--click-first-finding] [--width 1400 --height 900] [--timeout 60]

Chromium is driven through the DevTools protocol over --remote-debugging-pipe (commands on the child's fd 3,
replies on its fd 4, NUL-terminated JSON). The script waits for the page's load event and for
document.body.dataset.ready === "1", collects exceptions, console errors and warnings, log entries (CSP
violations show up there) and every request for something other than the page itself, evaluates a few DOM facts,
optionally clicks the first finding row, takes a full-page screenshot (and a dark one), and prints one JSON object
on standard output. It exits 0 when the page was checked, whatever it found; non-zero, with a message on standard
error, when Chromium could not be started or the page never became ready.

The browser, on Linux and macOS alike: --chromium, else $LCTRACE_CHROMIUM, else $CHROMIUM, else the first of
chromium, chromium-browser, google-chrome and google-chrome-stable on the PATH, else Google Chrome, Chromium or
Google Chrome for Testing in /Applications or ~/Applications.

Python 3 standard library only.
"""
import argparse
import base64
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time


class CheckError(Exception):
    pass


FACTS_JS = r"""
(() => {
  const lane = (e) => ({kind: e.getAttribute("data-kind"), name: e.getAttribute("data-name"), track: e.getAttribute("data-track")});
  const scripts = Array.from(document.querySelectorAll("script"));
  const own = scripts.filter((s) => !(s.id || "").startsWith("lct-")).length;
  const title = document.getElementById("session-title");
  const error = document.getElementById("page-error");
  const notice = document.getElementById("embed-notice");
  const picker = document.getElementById("session-picker");
  return {
    lanes: Array.from(document.querySelectorAll(".lane")).map(lane),
    transitions: document.querySelectorAll(".transition-connector").length,
    findingMarkers: document.querySelectorAll(".finding-marker").length,
    findingRows: document.querySelectorAll("tr.finding-row").length,
    sessionTitle: title ? title.textContent : null,
    italicElements: document.querySelectorAll("i").length,
    scriptElementsFromData: Math.max(0, own - 1),
    bodyText: document.body ? document.body.innerText : "",
    pageError: error && !error.hidden ? error.textContent : "",
    embedNotice: notice && !notice.hidden ? notice.textContent : "",
    pickerOptions: picker ? picker.options.length : 0,
  };
})()
"""

HIGHLIGHTED_JS = r"""
(() => {
  const e = document.querySelector(".lane.highlighted");
  return e ? {kind: e.getAttribute("data-kind"), name: e.getAttribute("data-name"), track: e.getAttribute("data-track")} : null;
})()
"""

FIRST_ROW_JS = r"""
(() => {
  const row = document.querySelector("tr.finding-row");
  if (!row) return null;
  row.scrollIntoView({block: "center"});
  const r = row.getBoundingClientRect();
  const cell = row.cells.length > 5 ? row.cells[5].getBoundingClientRect() : r;
  return {x: cell.left + Math.min(20, cell.width / 2), y: r.top + r.height / 2};
})()
"""


class DevTools:
    """The DevTools protocol over a pair of pipes: one command at a time, events queued as they come."""

    def __init__(self, write_fd, read_fd, proc):
        self.write_fd = write_fd
        self.read_fd = read_fd
        self.proc = proc
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.listeners = []

    def _read_message(self, deadline):
        while True:
            cut = self.buffer.find(b"\0")
            if cut >= 0:
                raw, self.buffer = self.buffer[:cut], self.buffer[cut + 1:]
                return json.loads(raw.decode("utf-8", "replace"))
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no reply from Chromium in time")
            ready, _, _ = select.select([self.read_fd], [], [], min(remaining, 0.5))
            if not ready:
                if self.proc.poll() is not None:
                    raise CheckError("Chromium exited (status %s)" % self.proc.returncode)
                continue
            chunk = os.read(self.read_fd, 1 << 20)
            if not chunk:
                raise CheckError("Chromium closed the DevTools pipe")
            self.buffer += chunk

    def _dispatch(self, message):
        for listener in self.listeners:
            listener(message)
        self.events.append(message)

    def send(self, method, params=None, session=None, timeout=30.0):
        self.next_id += 1
        ident = self.next_id
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode("utf-8") + b"\0"
        while data:
            written = os.write(self.write_fd, data)
            data = data[written:]
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == ident:
                if "error" in reply:
                    raise CheckError("%s failed: %s" % (method, reply["error"].get("message", reply["error"])))
                return reply.get("result", {})
            if "method" in reply:
                self._dispatch(reply)

    def pump(self, seconds):
        """Reads events for a while."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                message = self._read_message(deadline)
            except TimeoutError:
                return
            if "method" in message:
                self._dispatch(message)

    def wait_for(self, predicate, timeout):
        """Reads events until one matches; True when it came (or had come already)."""
        for event in self.events:
            if predicate(event):
                return True
        deadline = time.monotonic() + timeout
        while True:
            try:
                message = self._read_message(deadline)
            except TimeoutError:
                return False
            if "method" in message:
                self._dispatch(message)
                if predicate(message):
                    return True


BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

APP_BUNDLES = (
    "Google Chrome.app/Contents/MacOS/Google Chrome",
    "Chromium.app/Contents/MacOS/Chromium",
    "Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
)


def find_browser(chosen=None):
    """The browser to run (see the module's documentation), or None when there is none."""
    for candidate in (chosen, os.environ.get("LCTRACE_CHROMIUM"), os.environ.get("CHROMIUM")):
        if candidate:
            return candidate
    for name in BROWSER_NAMES:
        path = shutil.which(name)
        if path:
            return path
    for folder in ("/Applications", os.path.expanduser("~/Applications")):
        for bundle in APP_BUNDLES:
            path = os.path.join(folder, bundle)
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return path
    return None


def tail(path, lines=15):
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 16384))
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return ""
    return "\n".join(text.strip().splitlines()[-lines:])


def start_chromium(binary, profile, stderr_file):
    # Our ends: commands go into cmd_write, replies come out of reply_read.
    cmd_read, cmd_write = os.pipe()
    reply_read, reply_write = os.pipe()

    def arrange_fds():
        # In the child, before exec: the command pipe on fd 3 and the reply pipe on fd 4, both inheritable
        # (every other descriptor of ours is close-on-exec).
        r, w = cmd_read, reply_write
        if w == 3:
            w = os.dup(w)
        if r != 3:
            os.dup2(r, 3)
        else:
            os.set_inheritable(3, True)
        if w != 4:
            os.dup2(w, 4)
        else:
            os.set_inheritable(4, True)

    args = [
        binary,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--remote-debugging-pipe",
        "--user-data-dir=" + profile,
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-sync",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-breakpad",
        "--disable-crash-reporter",
        "--disable-dev-shm-usage",
        "--disable-domain-reliability",
        "--disable-client-side-phishing-detection",
        "--disable-features=Translate,MediaRouter,OptimizationHints,DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater",
        "--metrics-recording-only",
        "--no-pings",
        "--mute-audio",
        "--password-store=basic",
        "--use-mock-keychain",
        "--hide-scrollbars",
        "--force-color-profile=srgb",
        "--log-level=3",
        "about:blank",
    ]
    try:
        proc = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr_file,
            preexec_fn=arrange_fds,
            start_new_session=True,  # its own process group, so that its helpers can be ended with it
            close_fds=False,  # fds 3 and 4 must stay open; the others are close-on-exec
        )
    except OSError as error:
        for fd in (cmd_read, cmd_write, reply_read, reply_write):
            os.close(fd)
        raise CheckError("could not start %s: %s" % (binary, error))
    os.close(cmd_read)
    os.close(reply_write)
    return proc, cmd_write, reply_read


def evaluate(devtools, session, expression, timeout=30.0):
    result = devtools.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True},
                           session=session, timeout=timeout)
    if "exceptionDetails" in result:
        details = result["exceptionDetails"]
        text = details.get("exception", {}).get("description") or details.get("text", "exception")
        raise CheckError("evaluating a check failed: " + text)
    return result.get("result", {}).get("value")


def screenshot(devtools, session, path, width):
    metrics = devtools.send("Page.getLayoutMetrics", session=session)
    size = metrics.get("cssContentSize") or metrics.get("contentSize") or {}
    height = int(min(max(size.get("height", 0), 1), 16000))
    full_width = int(max(size.get("width", width), width))
    shot = devtools.send("Page.captureScreenshot", {
        "format": "png",
        "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": full_width, "height": height, "scale": 1},
    }, session=session, timeout=60)
    with open(path, "wb") as f:
        f.write(base64.b64decode(shot["data"]))


def describe_remote(arg):
    if "value" in arg:
        value = arg["value"]
        return value if isinstance(value, str) else json.dumps(value)
    return arg.get("description") or arg.get("unserializableValue") or arg.get("type", "")


def check(args, profile, stderr_path):
    page = os.path.abspath(args.page)
    if not os.path.isfile(page):
        raise CheckError("no such page: " + page)
    page_url = "file://" + page
    url = page_url + ("#session-%d" % args.session if args.session is not None else "")

    browser = find_browser(args.chromium)
    if browser is None:
        raise CheckError("no Chromium or Google Chrome found: pass --chromium, set LCTRACE_CHROMIUM, or install one ("
                         + ", ".join(BROWSER_NAMES) + " on the PATH, or an app in /Applications)")
    with open(stderr_path, "wb") as stderr_file:
        proc, to_child, from_child = start_chromium(browser, profile, stderr_file)
    devtools = DevTools(to_child, from_child, proc)
    errors, requests = [], []

    def listen(message):
        method = message.get("method")
        params = message.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text", "exception")
            errors.append("exception: " + text)
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
            text = " ".join(describe_remote(a) for a in params.get("args", []))
            errors.append("console.%s: %s" % (params.get("type"), text))
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            if entry.get("level") in ("error", "warning"):
                errors.append("log %s (%s): %s" % (entry.get("level"), entry.get("source", ""), entry.get("text", "")))
        elif method == "Network.requestWillBeSent":
            request_url = params.get("request", {}).get("url", "")
            if request_url.split("#", 1)[0] != page_url and not request_url.startswith("data:"):
                requests.append(request_url)

    devtools.listeners.append(listen)
    try:
        deadline = time.monotonic() + args.timeout
        target = devtools.send("Target.createTarget", {"url": "about:blank"}, timeout=args.timeout)["targetId"]
        session = devtools.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Runtime", "Log", "Network", "Page"):
            devtools.send(domain + ".enable", session=session)
        devtools.send("Emulation.setDeviceMetricsOverride", {
            "width": args.width, "height": args.height, "deviceScaleFactor": 1, "mobile": False,
        }, session=session)
        devtools.send("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]},
                      session=session)
        devtools.events.clear()
        started = time.monotonic()
        navigation = devtools.send("Page.navigate", {"url": url}, session=session, timeout=args.timeout)
        if navigation.get("errorText"):
            raise CheckError("could not open %s: %s" % (url, navigation["errorText"]))
        loaded = devtools.wait_for(lambda m: m.get("method") == "Page.loadEventFired" and m.get("sessionId") == session,
                                   max(0.1, deadline - time.monotonic()))
        if not loaded:
            raise CheckError("the page did not finish loading within %gs" % args.timeout)
        ready = False
        while time.monotonic() < deadline:
            if evaluate(devtools, session, 'document.body && document.body.dataset.ready === "1"'):
                ready = True
                break
            devtools.pump(0.1)
        if not ready:
            raise CheckError('the page never set document.body.dataset.ready = "1" within %gs' % args.timeout)
        ready_seconds = time.monotonic() - started
        devtools.pump(0.2)
        facts = evaluate(devtools, session, FACTS_JS)

        highlighted = None
        clicked = None
        if args.click_first_finding:
            point = evaluate(devtools, session, FIRST_ROW_JS)
            if point:
                for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
                    event = {"type": kind, "x": point["x"], "y": point["y"]}
                    if kind != "mouseMoved":
                        event.update({"button": "left", "clickCount": 1})
                    devtools.send("Input.dispatchMouseEvent", event, session=session)
                clicked = True
                wait_until = time.monotonic() + 3
                while time.monotonic() < wait_until:
                    highlighted = evaluate(devtools, session, HIGHLIGHTED_JS)
                    if highlighted:
                        break
                    devtools.pump(0.1)
                devtools.pump(0.8)  # the lane scrolls into view smoothly
                after = evaluate(devtools, session, FACTS_JS)
                facts["afterClick"] = {k: after[k] for k in ("sessionTitle", "lanes", "transitions", "findingMarkers", "pageError")}
            else:
                clicked = False

        screenshot(devtools, session, args.screenshot, args.width)
        if args.dark_screenshot:
            devtools.send("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]},
                          session=session)
            devtools.pump(0.5)
            screenshot(devtools, session, args.dark_screenshot, args.width)
        devtools.pump(0.1)
        result = {"ready": True, "readySeconds": round(ready_seconds, 3), "errors": errors, "requests": requests,
                  "facts": facts, "highlighted": highlighted}
        if clicked is not None:
            result["clicked"] = clicked
        return result
    finally:
        try:
            devtools.send("Browser.close", timeout=3)
        except Exception:
            pass
        for fd in (to_child, from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        # Helpers Chromium started in its process group (the crash handler, a renderer left behind).
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def main():
    parser = argparse.ArgumentParser(description="Open an HTML page in headless Chromium and report on it as JSON.")
    parser.add_argument("page", help="the HTML file")
    parser.add_argument("--screenshot", required=True, help="write a full-page PNG here")
    parser.add_argument("--dark-screenshot", help="also write one with prefers-color-scheme: dark")
    parser.add_argument("--session", type=int, help="open the page at #session-N")
    parser.add_argument("--click-first-finding", action="store_true", help="click the first findings-table row")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=900)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds for Chromium to start and the page to get ready")
    parser.add_argument("--chromium", help="the browser to run (default: $LCTRACE_CHROMIUM, $CHROMIUM, chromium or Chrome "
                        "on the PATH, or the macOS app in /Applications)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="chromium-check-") as scratch:
        profile = os.path.join(scratch, "profile")
        os.mkdir(profile)
        stderr_path = os.path.join(scratch, "chromium-stderr.txt")
        try:
            result = check(args, profile, stderr_path)
        except (CheckError, TimeoutError, OSError, ValueError) as error:
            message = "chromium-check: %s" % error
            noise = tail(stderr_path)
            if noise:
                message += "\nlast lines from Chromium:\n" + noise
            print(message, file=sys.stderr)
            return 1
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
