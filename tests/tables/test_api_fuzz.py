"""Whatever a client sends, the API answers with a clear error, never a 500 (Hypothesis)."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import ApiToken
from tables import services

pytestmark = pytest.mark.django_db

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**12) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
move_like = st.fixed_dictionaries(
    {},
    optional={
        "move": json_values
        | st.fixed_dictionaries(
            {"type": st.sampled_from(["play", "bid", "steal", "discard", "x"])},
            optional={"card": json_values, "tricks": json_values, "from": json_values},
        ),
        "seq": json_values | st.integers(-2, 3),
    },
)


@pytest.fixture
def game(alice, bob):
    table = services.create_table(alice, "cosmic_crowns", 2)
    services.join_table(table.pk, bob)
    table = services.start_table(table.pk, alice)
    return table, ApiToken.issue(alice)[1], ApiToken.issue(bob)[1]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=move_like | json_values)
def test_moves_never_500(client, game, body):
    table, a, _ = game
    r = client.post(
        f"/api/tables/{table.pk}/moves",
        data=json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {a}",
    )
    assert r.status_code in (200, 400, 403, 409), r.content
    assert "error" in r.json() or r.status_code == 200


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=st.fixed_dictionaries(
        {},
        optional={
            "game": st.sampled_from(["cosmic_crowns", "five_crowns", "chronica", "cosplay"]) | json_values,
            "players": st.integers(-1, 9) | json_values,
            "options": json_values,
            "bots": json_values
            | st.lists(
                st.fixed_dictionaries({}, optional={"seat": json_values, "level": json_values}), max_size=3
            ),
            "move_time": json_values,
        },
    )
    | json_values
)
def test_creating_tables_never_500(client, game, body):
    _, a, _ = game
    r = client.post(
        "/api/tables",
        data=json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {a}",
    )
    assert r.status_code in (201, 400), r.content


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values)
def test_join_and_token_never_500(client, game, body):
    table, _, b = game
    r = client.post(
        f"/api/tables/{table.pk}/join",
        data=json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {b}",
    )
    assert r.status_code in (400, 409), r.content
    r = client.post("/api/token", data=json.dumps(body), content_type="application/json")
    assert r.status_code in (400, 429), r.content
