"""Production error pages: in the site's style, never Django's bare ones."""

import pytest
from django.test import Client, override_settings
from django.urls import include, path


def boom(request):
    raise RuntimeError("a bug")


urlpatterns = [path("boom/", boom), path("", include("config.urls"))]


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_an_unknown_table_shows_the_sites_404_page(client):
    answer = client.get("/tables/987654/")
    assert answer.status_code == 404
    body = answer.content.decode()
    assert "Nothing here" in body and "Card Club" in body and 'class="topbar"' in body


@pytest.mark.django_db
@override_settings(DEBUG=False, ROOT_URLCONF=__name__)
def test_a_server_error_shows_the_sites_500_page():
    answer = Client(raise_request_exception=False).get("/boom/")
    assert answer.status_code == 500
    body = answer.content.decode()
    assert "Something went wrong on our side" in body and "Card Club" in body
