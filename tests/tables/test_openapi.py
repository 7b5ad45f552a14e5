"""The API's OpenAPI document (issue #32, point 1): served at /api/openapi.json as OpenAPI 3.1, every call in
it, and true: schemathesis calls every operation on a running daphne with a bounded number of generated
requests, and no answer is a 5xx or breaks the document (status, content type, body schema)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import schemathesis
from django.test import Client
from django.urls import get_resolver
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.processes import daphnes, manage, migrate, shell, sqlite_env

EXAMPLES = 6  # generated requests per operation


def test_the_document_is_openapi_3_1_and_holds_every_call():
    document = Client().get("/api/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    documented = {
        (method.upper(), path.removeprefix("/api"))
        for path, ops in document["paths"].items()
        for method in ops
    }
    routes = {
        "/"
        + str(p.pattern)
        .replace("<int:pk>", "{pk}")
        .replace("<slug:slug>", "{slug}")
        .replace("<", "{")
        .replace(">", "}")
        for p in get_resolver().url_patterns
        if str(p.pattern) == "api/"
        for p in p.url_patterns
    }
    routes = {r for r in routes if r not in ("/", "/docs", "/openapi.json")}
    assert {path for _method, path in documented} == routes  # every route of /api/ is in the document
    assert ("POST", "/tables/{pk}/moves") in documented and ("GET", "/tables/{pk}/moves") in documented
    assert ("GET", "/v2/history") in documented
    history = document["paths"]["/api/history"]["get"]
    assert history["deprecated"] is True
    assert document["paths"]["/api/tables"]["post"]["security"] == [{"bearer": []}]
    assert "security" not in document["paths"]["/api/games"]["get"]


def test_the_order_a_move_is_judged_in_stays(client, alice):
    """Nothing is checked before the view: a malformed body on a missing table is still a 404, without a
    token a 401, and an unknown method a 405 with {"error"}."""
    from accounts.models import ApiToken

    token = ApiToken.issue(alice, "t")[1]
    r = client.post("/api/tables/999999/moves", "not json at all", content_type="application/json")
    assert r.status_code == 401 and r.json()["error"]
    r = client.post(
        "/api/tables/999999/moves",
        {"seq": "x"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert r.status_code == 404 and r.json()["error"]
    r = client.put("/api/games")
    assert r.status_code == 405 and r.json() == {"error": "Use GET."}


test_the_order_a_move_is_judged_in_stays = pytest.mark.django_db(test_the_order_a_move_is_judged_in_stays)


def test_the_docs_page_reads_the_document(client):
    page = client.get("/api/docs")
    assert page.status_code == 200
    text = page.content.decode()
    assert "POST /api/tables/{pk}/moves" in text and "/api/openapi.json" in text
    assert "<script" not in text.split("<main", 1)[1].split("</main>", 1)[0]  # no script of its own
    french = client.get("/api/docs", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Documentation de l’API" in french


test_the_docs_page_reads_the_document = pytest.mark.django_db(test_the_docs_page_reads_the_document)


@dataclass
class Site:
    url: str
    token: str
    table: int  # a table in play where the token's person is seated


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("openapi")
    env = sqlite_env(
        tmp / "db.sqlite3",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY="openapi-test-" + "k" * 40,
        DJANGO_SSL_REDIRECT="false",
        DJANGO_SECURE_COOKIES="false",
        DJANGO_STATIC_ROOT=str(tmp / "static"),
        WORKER_IN_PROCESS="false",
        TABLE_CREATE_LIMIT="100000",
        MAX_UNFINISHED_TABLES="100000",
    )
    migrate(env)
    manage(env, "collectstatic", "--noinput", "-v0")  # (as in production: DEBUG off, so API 404s are JSON)
    script = (
        "from django.contrib.auth.models import User\n"
        "from accounts.models import ApiToken\n"
        "from tables import services\n"
        "alice = User.objects.create_user('alice', password='openapi-pass-1')\n"
        "bob = User.objects.create_user('bob', password='openapi-pass-2')\n"
        "table = services.create_table(alice, 'cosmic_crowns', 2)\n"
        "services.join_table(table.pk, bob)\n"
        "services.start_table(table.pk, alice)\n"
        "print(table.pk, ApiToken.issue(alice, 'schemathesis')[1])\n"
    )
    table, token = shell(env, script).split()[-2:]
    with daphnes(env, tmp) as (port,):
        yield Site(f"http://127.0.0.1:{port}", token, int(table))


@pytest.mark.slow
def test_every_operation_keeps_to_its_document(site):
    schema = schemathesis.openapi.from_url(f"{site.url}/api/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    document = Client().get("/api/openapi.json").json()
    assert len(operations) == sum(len(ops) for ops in document["paths"].values())
    checks = [
        not_a_server_error,
        status_code_conformance,
        content_type_conformance,
        response_schema_conformance,
    ]
    failures = []
    for operation in operations:
        if operation.path.startswith("/api/stream/"):
            continue  # (an answer that lasts as long as the game: tests/tables/test_streams.py reads them)

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
        )
        def call(case):
            case.call_and_validate(
                base_url=site.url,
                headers={"Authorization": f"Bearer {site.token}"},
                checks=checks,
                timeout=30,
            )

        try:
            call()
        except Exception as exc:  # every operation is tried; the failures are listed together
            failures.append(f"{operation.label}: {exc}")
    assert not failures, "\n\n".join(failures)
