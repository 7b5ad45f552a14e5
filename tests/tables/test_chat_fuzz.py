"""Chat input fuzzed (markup, control characters, 10 KB bodies, unicode, non-JSON): never a 500, and what is
said never comes out unescaped, on the page, in a live frame or in the API."""

import json

import pytest
from django.core.cache import cache
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import ApiToken
from tables import services
from tables.chat_frames import ChatPublication
from tables.models import ChatMessage
from tests.tables.fuzzing import any_text, form_text, fuzz_settings, json_values, raw_bodies

pytestmark = pytest.mark.django_db

MARKUP = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "</li></ol><b>bold</b>",
    "javascript:alert(1)",
    "https://example.com/?a=<x>&b=1",
    "{{ 7|add:7 }} {% now 'Y' %}",
    "a\x00b\x01c\x1b[31m\x7f\u0085",
    "\u202eevil\u200b\ufeff",
    "x" * 10_240,
    "😀" * 600,
    "\n\n\t",
]
chat_texts = st.sampled_from(MARKUP) | any_text | form_text | st.text(max_size=600)
# What a browser can post in a form (UTF-8: no lone surrogate, which Django's test client cannot even encode;
# the services refuse one: test_the_services_refuse_surrogates_with_a_message).
form_texts = (
    st.sampled_from(MARKUP) | form_text | st.text(st.characters(exclude_categories=("Cs",)), max_size=600)
)


@pytest.fixture
def table(started_table, alice, bob):
    return started_table("cosmic_crowns", [alice, bob])


def assert_escaped(html: str) -> None:
    assert "<script>alert" not in html and "<img src=x" not in html and "<b>bold" not in html
    assert "</li></ol><b>" not in html


def chat_panel(page: str, pk: int) -> str:
    start = page.index(f'<section id="table-{pk}-chat"')
    return page[start : page.index("</section>", start)]


def test_markup_is_shown_as_text_everywhere(table, alice, client, client_for):
    token = ApiToken.issue(alice)[1]
    for text in MARKUP:
        cache.clear()
        r = client.post(
            f"/api/tables/{table.pk}/chat",
            data=json.dumps({"text": text}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )
        assert r.status_code in (201, 400), text
        if r.status_code == 201:
            message = ChatMessage.objects.get(pk=r.json()["id"])
            assert r.json()["text"] == message.text  # the API gives the text back as text
            assert_escaped(ChatPublication(table, message, []).frame("en"))
    page = client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert_escaped(page)
    page = chat_panel(page, table.pk)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert '<a href="https://example.com' not in page and '<a href="javascript' not in page  # no links made
    assert "{{ 7|add:7 }}" in page  # not a template
    assert "\x00" not in page and "\x1b" not in page


@fuzz_settings(120)
@given(
    body=raw_bodies
    | json_values.map(lambda v: json.dumps({"text": v}))
    | chat_texts.map(lambda t: json.dumps({"text": t}))
)
def test_the_api_never_answers_500(table, alice, client, body):
    cache.clear()
    if not hasattr(alice, "token"):
        alice.token = ApiToken.issue(alice)[1]
    r = client.post(
        f"/api/tables/{table.pk}/chat",
        data=body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {alice.token}",
    )
    assert r.status_code in (201, 400, 413), (body, r.content)
    if r.status_code == 201:
        assert len(r.json()["text"]) <= 500


@pytest.fixture
def alice_client(alice, client_for):
    return client_for(alice)


@fuzz_settings(100)
@given(text=form_texts, phrase=st.none() | form_text)
def test_the_page_never_answers_500_and_frames_stay_escaped(table, alice_client, text, phrase):
    cache.clear()
    data = {"text": text} if phrase is None else {"text": text, "phrase": phrase}
    r = alice_client.post(f"/tables/{table.pk}/chat/", data, HTTP_HX_REQUEST="true")
    assert r.status_code in (200, 400), r.content
    if r.status_code == 200:
        message = ChatMessage.objects.latest("id")
        frame = ChatPublication(table, message, []).frame("en")
        assert "<" not in message.text or "&lt;" in frame
        assert_escaped(frame)


def test_the_services_refuse_surrogates_with_a_message(table, alice):
    with pytest.raises(services.BadRequest, match="not text"):
        services.post_chat(table.pk, alice, text="\udc80")
