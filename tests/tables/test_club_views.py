"""The club's pages: player page, follow, block, challenge, Following, Live now, faces, profile, lobby."""

import io
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from accounts import avatars
from accounts.models import Block, ClubSetting, Follow
from tables import challenges, services
from tables.models import Challenge, Table

pytestmark = pytest.mark.django_db


def test_a_player_page_shows_presence_and_the_club_buttons(alice, bob, client_for, started_table):
    table = started_table("cosmic_crowns", [bob, alice])
    page = client_for(alice).get("/players/bob/").content.decode()
    assert 'data-presence="bob"' in page and "/players/bob/avatar/" in page
    assert "/players/bob/challenge/" in page and ">Follow<" in page and ">Block<" in page
    assert f"/tables/{table.pk}/" in page  # the game bob plays now, linked
    own = client_for(bob).get("/players/bob/").content.decode()
    assert "/players/bob/challenge/" not in own  # not on one's own page


def test_a_player_at_several_tables_is_said_to_play_once_with_each_table_linked(
    alice, bob, client_for, started_table
):
    tables = [started_table("cosmic_crowns", [bob, alice]), started_table("five_crowns", [alice, bob])]
    line = re.search(
        r'<p class="presence-line">(.*?)</p>', client_for(alice).get("/players/bob/").content.decode()
    )
    text = re.sub(r"<[^>]+>", "", line.group(1))
    assert text.count("playing") == 1, text
    for table in tables:
        assert f'<a href="/tables/{table.pk}/">table {table.pk}</a>' in line.group(1)


def test_following_and_unfollowing_from_a_player_page(alice, bob, client_for):
    c = client_for(alice)
    assert c.post("/players/bob/follow/").status_code == 302
    assert Follow.objects.filter(follower=alice, followed=bob).exists()
    assert ">Unfollow<" in c.get("/players/bob/").content.decode()
    page = c.get("/following/").content.decode()
    assert 'data-person="bob"' in page and "/players/bob/challenge/" in page
    c.post("/players/bob/follow/", {"undo": "1"})
    assert not Follow.objects.exists()
    assert "You follow nobody yet" in c.get("/following/").content.decode()


def test_a_followed_players_new_open_table_shows_in_its_lobby_section(alice, bob, charlie, client_for):
    Follow.objects.create(follower=alice, followed=bob)
    listed = services.create_table(bob, "five_crowns", 2)
    hidden = services.create_table(bob, "cosmic_crowns", 2, private=True)
    services.create_table(charlie, "cosmic_crowns", 2)
    page = client_for(alice).get("/").content.decode()
    section = page.split("Opened by people you follow", 1)[1].split("Open tables", 1)[0]
    assert f"#{listed.pk}" in section and f"#{hidden.pk}" not in section
    assert "Opened by people you follow" not in client_for(charlie).get("/").content.decode()


def test_blocking_from_a_player_page_lists_the_block_on_the_profile_where_it_is_lifted(
    alice, bob, client_for
):
    c = client_for(alice)
    c.post("/players/bob/block/")
    assert Block.objects.filter(blocker=alice, blocked=bob).exists()
    profile = c.get("/accounts/profile/").content.decode()
    assert 'class="table-list blocked-list"' in profile and "bob" in profile.split("blocked-list", 1)[1]
    r = c.post("/players/bob/block/", {"undo": "1", "next": "profile"})
    assert r.status_code == 302 and r["Location"].endswith("#blocks")
    assert not Block.objects.exists()


def test_the_table_page_of_a_blocker_leaves_the_blocked_persons_chat_out(
    alice, bob, client_for, started_table
):
    table = started_table("cosmic_crowns", [alice, bob])
    services.post_chat(table.pk, bob, text="rude words")
    Block.objects.create(blocker=alice, blocked=bob)
    assert "rude words" not in client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    assert "rude words" in client_for(bob).get(f"/tables/{table.pk}/").content.decode()


def test_a_blocked_person_cannot_join_the_blockers_table_from_its_page(alice, bob, client_for):
    table = services.create_table(bob, "cosmic_crowns", 2)
    Block.objects.create(blocker=bob, blocked=alice)
    c = client_for(alice)
    c.post(f"/tables/{table.pk}/join/")
    assert "This is not possible." in c.get(f"/tables/{table.pk}/").content.decode()
    assert Table.objects.get(pk=table.pk).seats.filter(user=alice).count() == 0


def test_a_challenge_from_the_form_is_answered_on_the_your_turn_page(alice, bob, client_for):
    c = client_for(alice)
    form = c.get("/players/bob/challenge/?game=five_crowns").content.decode()
    assert 'name="players"' in form and 'name="move_time"' in form and 'name="rated"' in form
    r = c.post(
        "/players/bob/challenge/",
        {"game": "five_crowns", "players": "3", "others": "strong", "move_time": "600", "rated": "on"},
    )
    assert r.status_code == 302
    challenge = Challenge.objects.get()
    assert (challenge.players, challenge.others, challenge.move_time) == (3, "strong", 600)
    b = client_for(bob)
    page = b.get("/your-turn/").content.decode()
    assert f'data-challenge="{challenge.pk}"' in page and "alice" in page
    assert 'data-challenges="1"' in b.get("/").content.decode()  # the badge counts it
    r = b.post(f"/challenges/{challenge.pk}/accept/")
    table = Table.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/tables/{table.pk}/"
    assert table.status == Table.PLAYING and table.move_time == 600
    assert [s.bot for s in table.seats.order_by("index")] == ["", "", "strong"]
    assert "accepted" in c.get("/your-turn/").content.decode()


def test_a_refused_challenge_form_says_not_possible(alice, bob, client_for):
    ClubSetting.objects.create(user=bob, challenges="nobody")
    r = client_for(alice).post("/players/bob/challenge/", {"game": "cosmic_crowns"})
    assert r.status_code == 403 and "This is not possible." in r.content.decode()
    assert not Challenge.objects.exists()


def test_declining_and_withdrawing_from_the_your_turn_page(alice, bob, client_for):
    first = challenges.create(alice, "bob", "cosmic_crowns")
    second = challenges.create(alice, "bob", "cosmic_crowns")
    client_for(bob).post(f"/challenges/{first.pk}/decline/")
    client_for(alice).post(f"/challenges/{second.pk}/cancel/")
    assert dict(Challenge.objects.values_list("pk", "status")) == {
        first.pk: "declined",
        second.pk: "cancelled",
    }
    page = client_for(alice).get("/your-turn/").content.decode()
    assert "declined" in page and "withdrawn" in page


def test_the_profile_sets_who_may_challenge(alice, bob, client_for):
    c = client_for(bob)
    assert 'name="challenges"' in c.get("/accounts/profile/").content.decode()
    c.post("/me/club/", {"challenges": "followed"})
    assert ClubSetting.objects.get(user=bob).challenges == "followed"
    c.post("/me/club/", {"challenges": "anyone at all"})
    assert ClubSetting.objects.get(user=bob).challenges == "followed"


def test_live_now_lists_public_games_in_play_and_refreshes_its_rows(
    alice, bob, charlie, client_for, started_table
):
    shown = started_table("cosmic_crowns", [alice, bob])
    private = services.play_now(charlie, "five_crowns")
    c = client_for(charlie)
    page = c.get("/live/").content.decode()
    assert f'data-table="{shown.pk}"' in page and f'data-table="{private.pk}"' not in page
    assert 'hx-trigger="every 5s"' in page
    rows = c.get("/live/?game=five_crowns&sort=rating", HTTP_HX_REQUEST="true").content.decode()
    assert rows.lstrip().startswith('<div id="live-rows"') and "<html" not in rows
    assert f'data-table="{shown.pk}"' not in rows
    assert client_for(alice).get("/live/?game=nope&sort=nope").status_code == 200


def test_the_presence_endpoint_answers_for_the_names_asked(alice, bob, client):
    r = client.get("/presence/?u=alice&u=bob&u=nobody")
    assert r.json() == {"alice": False, "bob": False}


def test_the_drawn_face_is_the_same_for_the_same_id_and_differs_between_people(alice, bob, client):
    r = client.get("/players/alice/avatar/")
    assert r.status_code == 200 and r["Content-Type"] == "image/svg+xml"
    assert r.content.decode() == avatars.identicon(alice.pk) == avatars.identicon(alice.pk)
    assert avatars.identicon(alice.pk) != avatars.identicon(bob.pk)
    assert "<script" not in r.content.decode()
    assert client.get("/players/nobody/avatar/").status_code == 404


def jpeg_with_metadata() -> bytes:
    image = Image.new("RGB", (600, 400), (200, 30, 30))
    exif = Image.Exif()
    exif[0x010F] = "SecretCamera"  # Make
    exif[0x8825] = {2: (48.0, 51.0, 30.0)}  # GPS
    out = io.BytesIO()
    image.save(out, format="JPEG", exif=exif, comment=b"where I live")
    return out.getvalue()


def test_an_uploaded_picture_is_re_encoded_square_and_stripped_of_metadata(alice, client_for):
    data = jpeg_with_metadata()
    assert b"SecretCamera" in data
    c = client_for(alice)
    c.post("/me/picture/", {"picture": SimpleUploadedFile("me.jpg", data, content_type="image/jpeg")})
    r = c.get("/players/alice/avatar/")
    assert r["Content-Type"] == "image/png"
    assert b"SecretCamera" not in r.content and b"where I live" not in r.content
    with Image.open(io.BytesIO(r.content)) as kept:
        assert kept.format == "PNG" and kept.size == (avatars.SIZE, avatars.SIZE)
        assert not kept.getexif() and "comment" not in kept.info
    c.post("/me/picture/", {"remove": "1"})
    assert c.get("/players/alice/avatar/")["Content-Type"] == "image/svg+xml"


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("fake.png", b"<svg onload=alert(1)>", "not a picture"),
        ("empty.png", b"", "Choose a picture"),
    ],
)
def test_it_refuses_a_file_that_is_not_a_picture(alice, client_for, name, data, message):
    c = client_for(alice)
    r = c.post("/me/picture/", {"picture": SimpleUploadedFile(name, data)}, follow=True)
    assert message in r.content.decode()
    assert c.get("/players/alice/avatar/")["Content-Type"] == "image/svg+xml"


def test_it_refuses_a_picture_over_the_size_limit(alice, client_for, settings):
    settings.AVATAR_MAX_BYTES = 1000
    r = client_for(alice).post(
        "/me/picture/", {"picture": SimpleUploadedFile("big.jpg", jpeg_with_metadata())}, follow=True
    )
    assert "A picture is at most" in r.content.decode()


def test_it_refuses_a_picture_of_too_many_pixels():
    image = Image.new("1", (5000, 5000))
    out = io.BytesIO()
    image.save(out, format="PNG")
    with pytest.raises(avatars.BadPicture):
        avatars.clean_picture(out.getvalue())


def test_the_seat_chips_show_faces_and_presence_dots(alice, bob, client_for, started_table):
    table = started_table("cosmic_crowns", [alice, bob])
    page = client_for(alice).get(f"/tables/{table.pk}/").content.decode()
    chips = page.split('class="seat-bar"', 1)[1].split("</ol>", 1)[0]
    assert re.findall(r'data-u="(\w+)"', chips) == ["alice", "bob"]  # (presence.js adds face and dot)
    assert 'data-avatar-url="/players/~/avatar/"' in page


def test_live_now_shows_the_players_ratings_as_the_leaderboard_does_and_sorts_by_them(
    alice, bob, charlie, make_user, client_for, started_table
):
    from tables import ratings
    from tables.models import Rating
    from tests.tables.history_games import finished

    dave = make_user("dave")
    for day in range(1, 4):
        finished("cosmic_crowns", [alice, bob], winners=[0], day=day)
    stronger = started_table("cosmic_crowns", [alice, bob])
    weaker = started_table("cosmic_crowns", [charlie, dave])
    rating = Rating.objects.get(user=alice, game="cosmic_crowns")
    shown = ratings.display_text(ratings.display_of(rating), ratings.provisional(rating))
    page = client_for(charlie).get("/live/?sort=rating").content.decode()
    assert shown in page
    assert page.index(f'data-table="{stronger.pk}"') < page.index(f'data-table="{weaker.pk}"')
    page = client_for(charlie).get("/live/").content.decode()  # newest first
    assert page.index(f'data-table="{weaker.pk}"') < page.index(f'data-table="{stronger.pk}"')


def test_the_leaderboard_shows_faces_with_presence_dots(alice, bob, client_for):
    from tests.tables.history_games import finished

    finished("five_crowns", [alice, bob], winners=[1])
    page = client_for(alice).get("/leaderboards/five_crowns/").content.decode()
    assert 'data-presence="bob"' in page and "/players/bob/avatar/" in page
