"""The club's pages: a player's face, follow / block / challenge from their page, the Following page,
Live now, presence for the dots, and the profile's club settings, data download and account deletion.
Thin: check, call a service (tables.club, tables.challenges, tables.leaving, accounts.avatars), render."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import avatars, presence
from accounts.limits import parse_id
from tables import bot_accounts, challenges, club, leaving, services
from tables.selectors import games_list
from tables.texts import MOVE_TIMES

AVATAR_MAX_AGE = 300


@require_GET
def avatar(request, username):
    """The person's face: their uploaded PNG, else their identicon (SVG). Cached briefly by the browser."""
    try:
        user = club.person(username, active_only=False)
    except services.NotFound:
        raise Http404 from None
    picture, version = avatars.picture_of(user.pk)
    if picture is not None:
        response = HttpResponse(picture, content_type="image/png")
    else:
        response = HttpResponse(avatars.identicon(user.pk), content_type="image/svg+xml")
    response["Cache-Control"] = f"public, max-age={AVATAR_MAX_AGE}"
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


def _person_or_404(username):
    try:
        return club.person(username)
    except services.NotFound:
        raise Http404 from None


def _back(request, username):
    return redirect(reverse("tables:player", args=[username]))


def _refused(request, exc: services.TableError, username):
    messages.error(request, exc.message)
    return _back(request, username)


@require_POST
@login_required
def follow(request, username):
    try:
        if request.POST.get("undo"):
            club.unfollow(request.user, username)
        else:
            club.follow(request.user, username)
    except services.TableError as exc:
        return _refused(request, exc, username)
    return _back(request, username)


@require_POST
@login_required
def block(request, username):
    try:
        if request.POST.get("undo"):
            club.unblock(request.user, username)
            messages.success(request, _("%(name)s is no longer blocked.") % {"name": username})
        else:
            club.block(request.user, username)
            messages.success(request, _("%(name)s is blocked.") % {"name": username})
    except services.TableError as exc:
        return _refused(request, exc, username)
    if request.POST.get("next") == "profile":
        return redirect(reverse("accounts:profile") + "#blocks")
    return _back(request, username)


@login_required
def following(request):
    rows = club.people_rows(club.following(request.user))
    return render(request, "tables/following.html", {"rows": rows})


def _challenge_form_context(request, other, data=None) -> dict:
    data = data or {}
    games = games_list()
    chosen = data.get("game") or games[0].slug
    engine = next((g for g in games if g.slug == chosen), games[0])
    return {
        "other": other,
        "games": games,
        "engine": engine,
        "clocks": [(value, str(label)) for value, label in MOVE_TIMES.items()],
        "levels": services.BOT_LEVELS,
        "player_counts": range(max(2, engine.min_players), engine.max_players + 1),
        "data": data,
        "options": [
            {"name": name, **spec}
            for name, spec in engine.options.items()
            if spec["type"] in ("choice", "bool")
        ],
    }


@login_required
def challenge(request, username):
    """Pick the game, players, options, clock and whether it is rated; the challenge goes out on POST."""
    other = _person_or_404(username)
    if request.method != "POST" or request.POST.get("change_game"):
        data = request.POST if request.method == "POST" else request.GET
        return render(request, "tables/challenge.html", _challenge_form_context(request, other, data))
    post = request.POST
    try:
        engine = services.get_game(post.get("game"))
        options = {}
        for name, spec in engine.options.items():
            if spec["type"] == "bool":
                options[name] = post.get(f"opt_{name}") == "on"
            elif spec["type"] == "choice" and post.get(f"opt_{name}"):
                value = post.get(f"opt_{name}")
                options[name] = next((c for c in spec["choices"] if str(c) == value), value)
        players = parse_id(post.get("players") or "") or engine.min_players
        clock = parse_id(post.get("move_time") or "")
        made = challenges.create(
            request.user,
            other.username,
            engine.slug,
            players=players,
            options=options,
            move_time=clock,
            rated=post.get("rated") == "on",
            others=post.get("others") or "casual",
            expires_in=parse_id(post.get("expires_in") or ""),
        )
    except services.TableError as exc:
        context = _challenge_form_context(request, other, post)
        context["error"] = exc.message
        return render(request, "tables/challenge.html", context, status=exc.status)
    messages.success(
        request,
        _("Your challenge to %(name)s is on its way (until %(when)s).")
        % {"name": other.username, "when": made.expires_at.strftime("%Y-%m-%d %H:%M UTC")},
    )
    return _back(request, other.username)


def _answer(request, pk, action):
    challenge_id = parse_id(str(pk))
    try:
        return action(challenge_id, request.user)
    except services.TableError as exc:
        messages.error(request, exc.message)
        return None


@require_POST
@login_required
def challenge_accept(request, pk):
    table = _answer(request, pk, challenges.accept)
    if table is None:
        return redirect("tables:dashboard")
    return redirect(table.get_absolute_url())


@require_POST
@login_required
def challenge_decline(request, pk):
    if _answer(request, pk, challenges.decline) is None:
        return redirect("tables:dashboard")
    messages.success(request, _("Challenge declined."))
    return redirect("tables:dashboard")


@require_POST
@login_required
def challenge_cancel(request, pk):
    if _answer(request, pk, challenges.cancel) is None:
        return redirect("tables:dashboard")
    messages.success(request, _("Challenge withdrawn."))
    return redirect("tables:dashboard")


def live(request):
    """Live now: the public tables in play (the list polls itself every few seconds with htmx)."""
    game = club.known_game(request.GET.get("game"))
    sort = request.GET.get("sort") if request.GET.get("sort") in club.SORTS else "recent"
    ctx = {"rows": club.live_tables(game, sort), "games": games_list(), "game": game, "sort": sort}
    if request.htmx:
        return render(request, "tables/live.html#rows", ctx)
    return render(request, "tables/live.html", ctx)


PRESENCE_NAMES = 100


@require_GET
def presence_of(request):
    """``?u=name&u=name``: {name: true/false} for the presence dots a page shows (refreshed by site.js)."""
    names = [n for n in request.GET.getlist("u") if isinstance(n, str) and "\x00" not in n][:PRESENCE_NAMES]
    people = list(get_user_model().objects.filter(username__in=names, is_active=True))
    present = presence.of_many(people)
    return JsonResponse({p.username: present[p.pk].online for p in people})


# --- The profile's club section ----------------------------------------------------------------------


@require_POST
@login_required
def club_settings(request):
    try:
        club.set_challenge_setting(request.user, request.POST.get("challenges"))
        messages.success(request, _("Saved: who may challenge you."))
    except services.TableError as exc:
        messages.error(request, exc.message)
    return redirect(reverse("accounts:profile") + "#club")


@require_POST
@login_required
def picture(request):
    """Upload a picture (or remove it with ``remove``): checked, re-encoded, its metadata left behind."""
    if request.POST.get("remove"):
        avatars.set_picture(request.user, None)
        messages.success(request, _("Your picture is removed: your drawn face is back."))
        return redirect(reverse("accounts:profile") + "#club")
    upload = request.FILES.get("picture")
    try:
        if upload is None:
            raise avatars.BadPicture(_("Choose a picture to upload."))
        if upload.size > settings.AVATAR_MAX_BYTES:  # (before reading it)
            raise avatars.BadPicture(
                _("A picture is at most %(kib)d KiB (this one is %(size)d KiB).")
                % {"kib": settings.AVATAR_MAX_BYTES // 1024, "size": upload.size // 1024}
            )
        avatars.set_picture(request.user, upload.read())
        messages.success(request, _("Your picture is saved."))
    except avatars.BadPicture as exc:
        messages.error(request, str(exc))
    return redirect(reverse("accounts:profile") + "#club")


@login_required
def data(request):
    """Download my data: the account's JSON file (as ``GET /api/account/export``)."""
    return leaving.account_file(request.user)


@login_required
def delete_account(request):
    """Delete my account, after the password: the person goes, their games stay whole for the others."""
    error = None
    if request.method == "POST":
        try:
            leaving.delete_account(request.user, request.POST.get("password"))
        except services.TableError as exc:
            error = exc.message
        else:
            logout(request)
            messages.success(request, _("Your account is deleted. Thank you for playing."))
            return redirect("tables:lobby")
    return render(request, "tables/delete_account.html", {"error": error}, status=400 if error else 200)


@require_POST
@login_required
def become_bot(request):
    """The profile's "Make this a bot account" (tables.bot_accounts): refused once the account has rated games."""
    try:
        bot_accounts.become_bot(request.user)
    except services.TableError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("This account is now a bot account."))
    return redirect(reverse("accounts:profile") + "#bot-account")
