"""/api/docs (issue #32, point 1) in a browser: readable at a phone's width and a desktop's, under the site's
Content-Security-Policy (nothing refused), with no serious accessibility violation, in French and English."""

from __future__ import annotations

import pytest

from tests.e2e.test_axe import grave_violations


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_api_documentation_reads_well_everywhere(server, browser, width, language):
    context = browser.new_context(viewport={"width": width, "height": 844}, locale=language)
    try:
        page = context.new_page()
        refused = []
        page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
        page.goto(f"{server.url}/api/docs")
        page.wait_for_load_state("load")
        heading = page.locator("h1").inner_text()
        assert heading == {"en": "API documentation", "fr": "Documentation de l’API"}[language]
        assert page.locator("#move_play").is_visible()  # POST /api/tables/{pk}/moves, with its shapes
        assert page.locator("#schema-MoveIn").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert not refused
        assert not grave_violations(page)
    finally:
        context.close()
