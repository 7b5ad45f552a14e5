"""Under the Content-Security-Policy (no inline scripts or handlers) the pages' own behaviour still works,
and the browser reports no violation."""

from __future__ import annotations

import re

from tests.e2e.conftest import shot, sign_up, unique


def watch_csp(page) -> list[str]:
    violations = []
    page.on(
        "console",
        lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    return violations


def test_pages_work_under_the_csp(server, new_page):
    page = new_page()
    violations = watch_csp(page)
    sign_up(page, server, unique("csp"))
    assert "script-src 'self'" in page.evaluate(
        "fetch(location.href).then(r => r.headers.get('content-security-policy'))"
    )

    # The history filter submits itself when a game is chosen (data-autosubmit).
    page.goto(f"{server.url}/history/")
    page.select_option("select[name=game]", "five_crowns")
    page.wait_for_url(re.compile(r"/history/\?game=five_crowns(&|$)"))

    # A starter deck's code selects itself on a click (data-select-on-click), then becomes a deck of
    # mine, and deleting it asks first (data-confirm): dismissed, nothing happens; accepted, it goes.
    page.goto(f"{server.url}/decks/")
    page.locator("a[href*='/decks/starters/']").first.click()
    page.wait_for_url(re.compile(r"/decks/starters/"))
    page.click("input.code-out")
    assert page.evaluate(
        "(() => { const e = document.querySelector('input.code-out');"
        " return e.value.length > 0 && e.selectionEnd - e.selectionStart === e.value.length; })()"
    )
    page.locator("form[action*='/copy/'] button").first.click()
    page.wait_for_url(re.compile(r"/decks/\d+/$"))
    editor = page.url
    # The deck editor marks catalog entries already in the deck (static/js/deck_editor.js).
    page.wait_for_selector("#catalog-results .cat-item.in-deck")
    page.goto(f"{server.url}/decks/")
    delete = page.locator("form[data-confirm] button").first
    page.once("dialog", lambda dialog: dialog.dismiss())
    delete.click()
    page.wait_for_timeout(300)
    assert page.locator("form[data-confirm]").count() == 1
    page.once("dialog", lambda dialog: dialog.accept())
    delete.click()
    page.wait_for_load_state()
    page.wait_for_function("!document.querySelector('form[data-confirm]')")
    assert page.goto(editor).status == 404
    shot(page, "csp-decks")
    assert violations == [] and page.errors == []
