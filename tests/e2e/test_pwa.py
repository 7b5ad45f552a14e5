"""The installable site in Chromium (issue #26, point 3): a valid web app manifest whose icons load, a service
worker that registers for the whole site, shows a push as a notification and, once the server is down, the
offline page; the profile offers notifications on this device; a table page says when it is in view. At 390
and 1280 px, with screenshots.

This file runs its own daphne (not the session's shared one) because it stops it."""

from __future__ import annotations

import json
import re
import struct

import pytest

from tests.e2e.conftest import shot, sign_up, unique
from tests.processes import free_port, start_daphne, stop

WIDTHS = (390, 1280)


class OwnServer:
    def __init__(self, env, tmp):
        self.env, self.tmp, self.proc = env, tmp, None
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self):
        self.proc = start_daphne(self.env, self.port, self.tmp / f"daphne-{self.port}.log")

    def stop(self):
        if self.proc is not None:
            stop(self.proc)
            self.proc = None


@pytest.fixture
def own_server(server, tmp_path):
    """A daphne of this test's own, on the session server's database (so its accounts work here too)."""
    env = dict(server.env)
    own = OwnServer(env, tmp_path)
    env["SITE_URL"] = own.url
    own.start()
    yield own
    own.stop()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def wait_for_worker(page, base: str) -> str:
    """Wait until the service worker is active and controls the page; its scope."""
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    if not page.evaluate("!!navigator.serviceWorker.controller"):
        page.reload()
        page.wait_for_function("!!navigator.serviceWorker.controller", timeout=15000)
    assert scope == base + "/"
    return scope


def until(page, expression: str, condition, timeout: float = 15.0):
    """Evaluate ``expression`` (a promise) until ``condition`` holds for its value; that value."""
    import time

    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression)
        if condition(value) or time.monotonic() > deadline:
            assert condition(value), value
            return value
        page.wait_for_timeout(100)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_manifest_is_valid_and_its_icons_load(new_page, server, width):
    page = new_page(width, 844 if width == 390 else 800)
    page.goto(server.url + "/")
    href = page.get_attribute("link[rel=manifest]", "href")
    answer = page.request.get(server.url + href)
    assert answer.ok and answer.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(answer.body())
    for member in ("name", "short_name", "start_url", "display", "icons", "theme_color", "background_color"):
        assert manifest[member], member
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert page.get_attribute("meta[name=theme-color]", "content") == manifest["theme_color"]
    sizes = set()
    for icon in manifest["icons"]:
        image = page.request.get(server.url + icon["src"])
        assert image.ok, icon
        if icon["type"] == "image/png":
            width_px, height_px = png_size(image.body())
            assert f"{width_px}x{height_px}" == icon["sizes"]
            sizes.add(icon["sizes"])
        else:
            assert icon["type"] == "image/svg+xml" and b"<svg" in image.body()
    assert {"192x192", "512x512"} <= sizes
    # Chromium's own reading: no manifest error, and nothing but the test's incognito context stands between
    # the site and "Install" (the service worker included).
    wait_for_worker(page, server.url)
    cdp = page.context.new_cdp_session(page)
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["errors"] == [] and parsed["manifest"]["startUrl"] == server.url + "/"
    installability = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert {error["errorId"] for error in installability} <= {"in-incognito"}


@pytest.mark.parametrize("width", WIDTHS)
def test_the_service_worker_shows_the_offline_page_when_the_server_is_down(new_page, own_server, width):
    page = new_page(width, 844 if width == 390 else 800)
    page.goto(own_server.url + "/")
    wait_for_worker(page, own_server.url)
    assert page.locator("nav.topbar").is_visible()

    own_server.stop()
    page.goto(own_server.url + "/leaderboards/")
    page.wait_for_selector("body.offline-page")
    assert page.locator("h1").inner_text() == "Card Club cannot be reached"
    # Its style sheet came from the worker's cache: the bar is drawn as on every page.
    background = "getComputedStyle(document.querySelector('nav.topbar')).backgroundColor"
    assert page.evaluate(background) == "rgb(29, 53, 87)"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"pwa-offline-{width}")

    own_server.start()  # back up: the same address serves pages again
    page.goto(own_server.url + "/leaderboards/")
    page.wait_for_selector("nav.topbar")
    assert page.locator("body.offline-page").count() == 0


def test_the_service_worker_shows_a_push_and_replaces_it_by_tag(new_page, server, browser):
    page = new_page(1280, 800)
    page.context.grant_permissions(["notifications"], origin=server.url)
    page.goto(server.url + "/")
    wait_for_worker(page, server.url)
    cdp = page.context.new_cdp_session(page)
    registrations = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"])
    )
    cdp.send("ServiceWorker.enable")
    page.wait_for_function("true")  # (lets the event arrive)
    for _ in range(100):
        if any(r["scopeURL"] == server.url + "/" for r in registrations):
            break
        page.wait_for_timeout(100)
    registration = next(r for r in registrations if r["scopeURL"] == server.url + "/")

    def deliver(payload):
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": server.url,
                "registrationId": registration["registrationId"],
                "data": json.dumps(payload),
            },
        )

    shown = "navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => ns.map(n => [n.title, n.body, n.tag, n.data.url]))"
    deliver(
        {
            "title": "Your turn: Five Crowns #5",
            "body": "It is your turn.",
            "url": "https://elsewhere.example/tables/5/",
            "tag": "5",
        }
    )
    (notification,) = until(page, shown, lambda ns: len(ns) == 1)
    # The link is kept to this site's own origin, whatever address the payload named.
    assert notification == [
        "Your turn: Five Crowns #5",
        "It is your turn.",
        "table-5",
        server.url + "/tables/5/",
    ]
    deliver(
        {
            "title": "Reminder: your move at Five Crowns #5",
            "body": "About 10 minutes left.",
            "url": "/tables/5/",
            "tag": "5",
        }
    )
    until(page, shown, lambda ns: len(ns) == 1 and ns[0][0].startswith("Reminder"))
    deliver({"title": "Your turn: Chronica #6", "body": "It is your turn.", "url": "/tables/6/", "tag": "6"})
    until(page, shown, lambda ns: len(ns) == 2)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_profile_offers_notifications_on_this_device(new_page, server, width):
    page = new_page(width, 844 if width == 390 else 800)
    name = unique("pwa")
    sign_up(page, server, name)
    page.goto(server.url + "/accounts/profile/#notifications")
    offer = page.locator("[data-push-enable]")
    offer.wait_for(state="visible")
    assert offer.inner_text() == "Enable notifications on this device"
    assert page.locator("[data-push-unsupported]").is_hidden()
    assert page.locator(".push-devices").inner_text().strip() == "No device yet."
    # The browser's own time zone is offered while none was chosen.
    zone = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
    assert page.input_value("select[name=time_zone]") == zone
    page.check("input[name=sound]")
    page.fill("input[name=quiet_from]", "22:00")
    page.fill("input[name=quiet_until]", "07:00")
    page.click("button[name=save_notifications]")
    page.wait_for_selector("text=Notification settings saved.")
    assert page.get_attribute("body", "data-turn-sound") == "on"
    assert page.input_value("input[name=quiet_from]") == "22:00"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("#notifications").scroll_into_view_if_needed()
    shot(page, f"pwa-profile-notifications-{width}", full_page=True)
    assert not page.errors


def test_a_table_page_says_while_it_is_in_view(new_page, server):
    page = new_page(1280, 800)
    sign_up(page, server, unique("view"))
    page.goto(server.url + "/games/cosmic_crowns/new/")
    page.select_option("select[name=players]", "2")
    page.select_option("select[name=bots]", "1")
    with page.expect_request(
        lambda r: r.url.endswith("/accounts/push/viewing/") and r.method == "POST", timeout=15000
    ) as seen:
        page.click("form.card-form button")
    request = seen.value
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))
    assert json.loads(request.post_data) == {"table": table_id, "visible": True}
    assert request.response().status == 204
    assert not page.errors


def test_no_script_in_the_worker_breaks_the_content_security_policy(new_page, server):
    """The worker and push.js are files of the site, served under the same policy as the pages."""
    page = new_page(1280, 800)
    violations = []
    page.on(
        "console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None
    )
    page.goto(server.url + "/accounts/login/")
    wait_for_worker(page, server.url)
    assert violations == []
    answer = page.request.get(server.url + "/sw.js")
    assert "script-src 'self'" in answer.headers["content-security-policy"]
