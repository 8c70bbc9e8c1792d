#!/usr/bin/env python3
"""The shelf in a real browser: Debian's Chromium, driven by Selenium through chromium-driver.

Starts `sharepipe serve` on a fresh SQLite file, signs up two people on the web page, shares two links
from one to the other through the API, and checks what the other sees: the card with its attribution,
pinning (the card moves to the Pinned section), removing (gone after a reload, and still gone after it
is shared again), and the link's own page; then photos sent through the share form of "My links"
(picked in the file field, as a person does): their card, whose tile is the first photo, and the
set's page showing both; the note on the card and the link's page, a reply that appears saying where
it went, the conversation and its composer, Remove with its Undo; a card that fills in by itself when
its preview is ready (the page follows the server-sent events) and a new share appearing without a
reload; the web app's manifest and a share-target POST as Chromium sends it, confirmed into a
share. axe-core runs on every page, light and dark, 1280 and 390 px wide (no violation of impact
serious or critical may remain), and each of those is a screenshot in the output folder.

    scripts/browser-test.py .build/debug/sharepipe .build/browser-screenshots
"""
import http.server
import json
import os
import socket
import threading
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
import zlib

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
    WebDriverException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

PASSWORD = "correct horse battery"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(base, method, path, body=None, token=None, key=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if key:
        headers["Idempotency-Key"] = key
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(req, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def browser(width, height):
    options = Options()
    options.add_argument("--headless=new")
    options.add_argument("--no-sandbox")
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument(f"--window-size={width},{height}")
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_for(driver, condition, seconds=15):
    """Whether `condition(driver)` became true within `seconds`, re-evaluated while a page loads (a click
    that submits a form returns before the next page is there)."""

    def settled(driver):
        try:
            return condition(driver)
        except WebDriverException as error:
            # Chromium also reports an element read while the next page replaces the document as
            # "Node with given id does not belong to the document", not only as a stale element.
            if "does not belong to the document" in str(error):
                return False
            raise

    try:
        WebDriverWait(driver, seconds, ignored_exceptions=[NoSuchElementException, StaleElementReferenceException]).until(
            settled
        )
        return True
    except TimeoutException:
        return False


def sign_up(driver, base, handle, name):
    driver.get(base + "/signup")
    driver.find_element(By.ID, "handle").send_keys(handle)
    driver.find_element(By.ID, "displayName").send_keys(name)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "form.stack button[type=submit]").click()
    check(
        wait_for(driver, lambda d: f"@{handle}" in d.find_element(By.TAG_NAME, "header").text),
        f"{handle} is signed in after sign-up",
    )


def card(driver, title):
    return driver.find_element(By.XPATH, f"//article[contains(@class, 'card')][.//h3[normalize-space()='{title}']]")


def act(driver, title, action):
    """Opens a card's menu (a <details>, no JavaScript) and presses one of its buttons."""
    item = card(driver, title)
    item.find_element(By.TAG_NAME, "summary").click()
    item.find_element(By.XPATH, f".//button[normalize-space()='{action}']").click()


def pixels(png):
    """The rows of RGB(A) pixels of an 8-bit, non-interlaced PNG (what Chromium's screenshots are)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, data = 8, b""
    while at < len(png):
        length, kind = int.from_bytes(png[at : at + 4], "big"), png[at + 4 : at + 8]
        chunk = png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = int.from_bytes(chunk[0:4], "big"), int.from_bytes(chunk[4:8], "big"), chunk[8], chunk[9]
            assert depth == 8 and colour in (2, 6) and chunk[12] == 0, "an 8-bit RGB(A) PNG"
        elif kind == b"IDAT":
            data += chunk
        at += 12 + length
    size = 4 if colour == 6 else 3
    raw, stride, rows, previous = zlib.decompress(data), width * size, [], bytearray(width * size)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - size] if x >= size else 0
            up, corner = previous[x], previous[x - size] if x >= size else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                guess = min((abs(p - left), 0, left), (abs(p - up), 1, up), (abs(p - corner), 2, corner))[2]
                line[x] = (line[x] + guess) & 255
        rows.append([tuple(line[i : i + 3]) for i in range(0, stride, size)])
        previous = line
    return rows


def look_alike(first, second):
    """Whether two screenshots show the same picture: the same size, and no pixel more than a little
    off (font smoothing may differ by a shade)."""
    a, b = pixels(first), pixels(second)
    if len(a) != len(b) or len(a[0]) != len(b[0]):
        return False
    return all(abs(p - q) <= 24 for row_a, row_b in zip(a, b) for pa, pb in zip(row_a, row_b) for p, q in zip(pa, pb))


failures = []


class SlowPage:
    """A page on loopback whose answer waits until `release()`: a link whose preview stays pending."""

    def __init__(self):
        self.released = threading.Event()
        released = self.released

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                released.wait(60)
                body = b"<html><head><title>Slow bread</title><meta name=description content='Ready at last.'></head></html>"
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def release(self):
        self.released.set()

    def close(self):
        self.released.set()
        self.server.shutdown()


def audit(driver, shots, name, violations):
    """axe-core on the page, light and dark, at desktop and phone widths, with a screenshot of each;
    the serious and critical violations are kept in `violations`."""
    for width, height in ((1280, 900), (390, 844)):
        driver.set_window_size(width, height)
        for scheme in ("light", "dark"):
            driver.execute_cdp_cmd(
                "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
            )
            axe = Axe(driver)
            axe.inject()
            results = axe.run(options={"resultTypes": ["violations"]})
            for violation in results["violations"]:
                if violation["impact"] in ("serious", "critical"):
                    nodes = "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"]) for n in violation["nodes"][:3])
                    violations.append(f"{name} {width}px {scheme}: {violation['id']} ({violation['impact']}) at {nodes}")
            driver.save_screenshot(os.path.join(shots, f"page-{name}-{width}-{scheme}.png"))
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def png(path, width, height, colour):
    """Writes a PNG of one colour (no library needed)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(colour) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    with open(path, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
    return path


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        failures.append(what)


def main():
    binary, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    folder = tempfile.mkdtemp()
    slow = SlowPage()
    server = subprocess.Popen(
        [binary, "serve", "--port", str(port), "--database", os.path.join(folder, "sharepipe.sqlite"),
         "--allow-fetch-from", "127.0.0.1", "--allow-fetch-port", str(slow.port)],
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(folder, "server.log"), "w"),
    )
    drivers = []
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/health", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        alice = browser(430, 932)  # a phone
        drivers.append(alice)
        bob = browser(1280, 900)
        drivers.append(bob)
        sign_up(alice, base, "alice", "Alice Liddell")
        sign_up(bob, base, "bob", "Bob Builder")

        tokens = request(base, "POST", "/v1/devices", {"handle": "bob", "password": PASSWORD, "name": "Bob's phone"})

        def share(url, title, image=None):
            provided = {"title": title, "siteName": "Example", "summary": f"{title}, as Bob's app describes it."}
            if image:
                provided["imageURL"] = image
            request(
                base,
                "POST",
                "/v1/shares",
                {"url": url, "recipients": ["@alice"], "note": "Look at this", "provided": provided},
                token=tokens["shareToken"],
                key=str(uuid.uuid4()),
            )

        share("https://example.com/keep", "A link worth keeping")
        share("https://example.com/drop", "A link to remove")
        # The relay refuses a loopback address (the server's address policy) and answers 404.
        share("https://example.com/lost", "A link whose image is gone", image="http://127.0.0.1:9/gone.png")

        alice.get(base + "/")
        wait_for(alice, lambda d: card(d, "A link worth keeping"))
        keep = card(alice, "A link worth keeping")
        check("Shared by Bob Builder" in keep.text, "the card says who shared it")
        check(keep.find_element(By.CSS_SELECTOR, ".avatar").text == "BB", "the card shows the sharer's initials")
        check(keep.find_element(By.CSS_SELECTOR, ".note").text.startswith("Look at this"), "the card shows the sharer's note")
        lost = card(alice, "A link whose image is gone").find_element(By.CSS_SELECTOR, ".tile")
        check(
            wait_for(alice, lambda d: d.execute_script("return arguments[0].querySelector('img').complete", lost)),
            "the browser has given up on the image the relay could not fetch",
        )
        # Beside it, a tile as a card without an image draws it: the site's initial.
        initial = alice.execute_script(
            "const t = document.createElement('div'); t.className = 'tile'; t.id = 'bare-tile';"
            "t.textContent = arguments[0].querySelector('img').dataset.initial;"
            "arguments[0].after(t); return t;", lost)
        check(
            look_alike(lost.screenshot_as_png, initial.screenshot_as_png),
            "a card whose image cannot be fetched shows the site's initial, like a card without an image",
        )
        alice.execute_script("document.getElementById('bare-tile').remove()")
        alice.save_screenshot(os.path.join(shots, "1-shelf.png"))

        act(alice, "A link worth keeping", "Pin")
        check(
            wait_for(alice, lambda d: "A link worth keeping" in d.find_element(By.ID, "pinned").text),
            "a pinned card moves to the Pinned section",
        )
        check("Pinned" in card(alice, "A link worth keeping").text, "a pinned card has its badge")
        alice.save_screenshot(os.path.join(shots, "2-shelf-pinned.png"))

        act(alice, "A link to remove", "Remove")
        check(
            wait_for(alice, lambda d: "Removed “A link to remove”." in d.find_element(By.CSS_SELECTOR, ".notice").text),
            "removing says what was removed, with an undo",
        )
        alice.save_screenshot(os.path.join(shots, "2b-removed-undo.png"))
        alice.find_element(By.XPATH, "//div[@class='notice']//button[normalize-space()='Undo']").click()
        check(wait_for(alice, lambda d: card(d, "A link to remove")), "Undo puts the card back")
        act(alice, "A link to remove", "Remove")
        wait_for(alice, lambda d: "A link to remove" not in [e.text for e in d.find_elements(By.CSS_SELECTOR, "h3")])
        alice.get(base + "/")
        check("A link to remove" not in alice.page_source, "a removed card is gone after a reload")
        share("https://example.com/drop", "A link to remove")
        alice.refresh()
        check("A link to remove" not in alice.page_source, "a removed card stays gone when shared again")

        keep = card(alice, "A link worth keeping")
        check(keep.find_element(By.CSS_SELECTOR, "h3 a").get_attribute("href").endswith("?from=summary")
              and "/go/" in keep.find_element(By.CSS_SELECTOR, "h3 a").get_attribute("href"),
              "the card's title opens the link itself")
        keep.find_element(By.LINK_TEXT, "Details").click()
        check(
            wait_for(alice, lambda d: d.find_element(By.TAG_NAME, "h1").text == "A link worth keeping"),
            "the link's page opens",
        )
        check("Look at this" in alice.find_element(By.ID, "thread").text, "the link's page shows the sharer's note")
        check(len(alice.find_elements(By.ID, "note")) == 1, "the link's page has a reply form")
        alice.save_screenshot(os.path.join(shots, "3-link.png"))
        alice.find_element(By.ID, "note").send_keys("Thanks, keeping it")
        alice.find_element(By.CSS_SELECTOR, "#reply button[type=submit]").click()
        check(
            wait_for(alice, lambda d: "You replied to Bob Builder (@bob)" in d.find_element(By.ID, "thread").text
                     and "Thanks, keeping it" in d.find_element(By.ID, "thread").text),
            "a reply appears on the link's page, saying where it went",
        )
        alice.save_screenshot(os.path.join(shots, "3b-link-replied.png"))
        alice.find_element(By.XPATH, "//li[contains(@class, 'mine')]//a[normalize-space()='Bob Builder (@bob)']").click()
        check(
            wait_for(alice, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Bob Builder (@bob)"),
            "the reply leads to its conversation",
        )
        check("Thanks, keeping it" in alice.find_element(By.CSS_SELECTOR, ".thread").text, "the conversation shows the reply")
        alice.find_element(By.ID, "compose-url").send_keys("https://example.com/from-alice")
        alice.find_element(By.ID, "compose-note").send_keys("One for you")
        alice.find_element(By.CSS_SELECTOR, ".composer button[type=submit]").click()
        check(
            wait_for(alice, lambda d: "One for you" in d.find_element(By.CSS_SELECTOR, ".thread").text),
            "the composer sends into the conversation and the message appears there",
        )
        alice.save_screenshot(os.path.join(shots, "3c-conversation.png"))

        # Search from the navigation: a word of the sharer's note finds the card; a word of nothing, nothing.
        alice.find_element(By.LINK_TEXT, "Search").click()
        wait_for(alice, lambda d: d.find_elements(By.ID, "q"))
        alice.find_element(By.ID, "q").send_keys("look")
        alice.find_element(By.CSS_SELECTOR, ".search-form button[type=submit]").click()
        check(
            wait_for(alice, lambda d: card(d, "A link worth keeping")),
            "search finds a link by the start of a word in its note",
        )
        check("A link to remove" not in alice.page_source, "search does not find a removed item")
        alice.save_screenshot(os.path.join(shots, "3d-search.png"))
        alice.find_element(By.ID, "q").clear()
        alice.find_element(By.ID, "q").send_keys("zebra")
        alice.find_element(By.CSS_SELECTOR, ".search-form button[type=submit]").click()
        check(
            wait_for(alice, lambda d: "Nothing found for “zebra”" in d.page_source),
            "a search that finds nothing says so",
        )
        bob.get(base + "/")
        bob.save_screenshot(os.path.join(shots, "4-empty-shelf-desktop.png"))

        # Photos through the share form of "My links", as a person picks them: no script involved.
        beach = png(os.path.join(folder, "beach.png"), 640, 400, (30, 120, 200))
        dunes = png(os.path.join(folder, "dunes.png"), 400, 600, (220, 180, 90))
        bob.get(base + "/mine")
        bob.find_element(By.ID, "share-files").send_keys(beach + "\n" + dunes)
        bob.find_element(By.ID, "share-note").send_keys("From the beach")
        bob.find_element(By.ID, "share-to").send_keys("@alice")
        bob.find_element(By.CSS_SELECTOR, "form[action='/mine'] button[type=submit]").click()
        # Shared with someone, the form goes on to the conversations: waiting for that page, not for
        # the URL the form was on, makes sure the upload is done before Alice looks.
        check(wait_for(bob, lambda d: d.current_url.endswith("/conversations"), 60), "the form goes on to the conversations")
        alice.get(base + "/")
        wait_for(alice, lambda d: card(d, "2 photos"))
        photos = card(alice, "2 photos")
        check("Shared by Bob Builder" in photos.text, "the photos' card says who shared them")
        check(
            wait_for(alice, lambda d: d.execute_script(
                "const i = arguments[0].querySelector('.tile img'); return i.complete && i.naturalWidth == 640", photos)),
            "the card's tile is the first photo",
        )
        photos.find_element(By.CSS_SELECTOR, "h3 a").click()
        wait_for(alice, lambda d: d.find_elements(By.CSS_SELECTOR, ".gallery img"))
        check(
            wait_for(alice, lambda d: d.execute_script(
                "return [...document.querySelectorAll('.gallery img')].map(i => i.complete && i.naturalWidth).join()")
                == "640,400"),
            "the set's page shows both photos, in order",
        )
        alice.save_screenshot(os.path.join(shots, "6-photos.png"))
        bob.get(base + "/mine")
        bob.find_element(By.ID, "share-files").send_keys(dunes)
        bob.find_element(By.CSS_SELECTOR, "form[action='/mine'] button[type=submit]").click()
        check(wait_for(bob, lambda d: "dunes.png" in d.page_source), "a photo saved for oneself is listed in My links")
        bob.save_screenshot(os.path.join(shots, "7-my-links.png"))

        alice.get(base + "/go/no-such-share")
        check(
            wait_for(alice, lambda d: d.find_element(By.TAG_NAME, "h1").text == "Not found"),
            "a broken link shows a page saying so, not JSON",
        )
        check(len(alice.find_elements(By.LINK_TEXT, "Back to SharePipe")) == 1, "the error page leads back home")
        alice.save_screenshot(os.path.join(shots, "5-not-found.png"))

        # Live: a new share appears, and its card fills in when its preview is ready, without a reload.
        alice.set_window_size(430, 932)
        alice.get(base + "/")
        wait_for(alice, lambda d: card(d, "A link worth keeping"))
        created = request(
            base, "POST", "/v1/shares", {"url": f"http://127.0.0.1:{slow.port}/slow", "recipients": ["@alice"]},
            token=tokens["shareToken"], key=str(uuid.uuid4()),
        )
        slow_id = created["link"]["id"]
        check(
            wait_for(alice, lambda d: "loading" in d.find_element(By.ID, "item-" + slow_id).get_attribute("class"), 30),
            "a new share appears on the open page, loading, without a reload",
        )
        alice.save_screenshot(os.path.join(shots, "8-live-loading.png"))
        slow.release()
        check(
            wait_for(alice, lambda d: d.find_element(By.CSS_SELECTOR, f"#item-{slow_id} h3").text == "Slow bread", 30),
            "its card fills in when the preview is ready, without a reload",
        )
        check("loading" not in alice.find_element(By.ID, "item-" + slow_id).get_attribute("class"), "and is no longer loading")
        alice.save_screenshot(os.path.join(shots, "9-live-ready.png"))

        # The web app's manifest, and its Share menu entry as Chromium posts it (a navigation with the
        # shared title, text and files), confirmed into a share to Bob.
        manifest = alice.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/manifest.webmanifest').then(r => r.json()).then(done, e => done({error: String(e)}))"
        )
        target = manifest.get("share_target", {})
        check(target.get("action") == "/share-target" and target.get("method") == "POST"
              and target.get("enctype") == "multipart/form-data", "the manifest names the share target")
        alice.execute_script(
            "const f = document.createElement('form'); f.method = 'post'; f.action = arguments[0];"
            "f.enctype = 'multipart/form-data'; f.id = 'share-target';"
            "for (const [k, v] of [['title', 'Beach day'], ['text', 'Look https://example.com/beach'], ['url', '']]) {"
            "  const i = document.createElement('input'); i.type = 'hidden'; i.name = k; i.value = v; f.append(i); }"
            "const file = document.createElement('input'); file.type = 'file'; file.name = 'files'; file.id = 'target-files';"
            "f.append(file); document.body.append(f);",
            target.get("action", "/share-target"),
        )
        alice.find_element(By.ID, "target-files").send_keys(beach)
        alice.execute_script("document.getElementById('share-target').submit()")
        check(
            wait_for(alice, lambda d: d.find_element(By.ID, "share-url").get_attribute("value") == "https://example.com/beach"),
            "the share target opens the share form filled in",
        )
        check("beach.png" in alice.find_element(By.CSS_SELECTOR, ".share-form").text, "with the shared photo attached")
        alice.save_screenshot(os.path.join(shots, "10-share-target.png"))
        alice.find_element(By.ID, "share-to").send_keys("@bob")
        alice.find_element(By.CSS_SELECTOR, ".share-form button[type=submit]").click()
        check(wait_for(alice, lambda d: d.current_url.endswith("/conversations")), "confirmed, it goes to the conversations")
        bob.get(base + "/")
        check(wait_for(bob, lambda d: card(d, "Beach day")), "Bob receives it, titled as the app said")

        # axe-core on every page, light and dark, desktop and phone.
        violations = []
        alice.get(base + "/")
        wait_for(alice, lambda d: card(d, "A link worth keeping"))
        keep_id = card(alice, "A link worth keeping").get_attribute("data-link")
        public = request(base, "PUT", f"/v1/shares/{created['share']['id']}/public", token=tokens["appToken"])
        pages = [("shelf", "/"), ("link", f"/links/{keep_id}"), ("conversations", "/conversations"),
                 ("share", "/share"), ("mine", "/mine"), ("removed", "/removed"), ("search", "/search?q=look"), ("devices", "/devices"),
                 ("settings", "/settings")]
        for name, path in pages:
            alice.get(base + path)
            audit(alice, shots, name, violations)
        alice.get(base + "/conversations")
        alice.find_element(By.CSS_SELECTOR, ".conversations a.name").click()
        wait_for(alice, lambda d: d.find_elements(By.CSS_SELECTOR, ".composer"))
        audit(alice, shots, "conversation", violations)
        alice.get(base + "/go/no-such-share")
        audit(alice, shots, "not-found", violations)
        stranger = browser(1280, 900)
        drivers.append(stranger)
        for name, path in (("signin", "/signin"), ("signup", "/signup"), ("public", "/s/" + public["id"])):
            stranger.get(base + path)
            audit(stranger, shots, name, violations)
        for violation in violations:
            print("     " + violation)
        check(not violations, f"axe-core: no serious or critical violations on {len(pages) + 5} pages, light and dark, 1280 and 390 px")
    finally:
        for driver in drivers:
            driver.quit()
        slow.close()
        server.terminate()
        server.wait(timeout=30)
    if failures:
        print(f"{len(failures)} browser check(s) failed; screenshots in {shots}", file=sys.stderr)
        sys.exit(1)
    print(f"all browser checks passed; screenshots in {shots}")


if __name__ == "__main__":
    main()
