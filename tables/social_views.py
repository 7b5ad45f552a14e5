"""The social table's pages: chat, muting, invitations and take-backs (thin: check, call a service, render)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from tables import access, selectors, services, social
from tables.models import Invitation


def page_context(request, table, seats) -> dict:
    """What the table page adds for the social parts: the chat, and while open, the invite panel."""
    ctx = social.chat_context(table, seats, request.user)
    ctx["takeback_moves"] = sorted(table.engine.takeback_moves)
    # The link as this visitor reached the site (the proxy's scheme honoured where settings trust it).
    ctx["invite_url"] = request.build_absolute_uri(table.invite_path)
    if table.status == table.OPEN:
        ctx.update(invite_context(request, table, seats))
    return ctx


def invite_context(request, table, seats) -> dict:
    user = request.user
    can = user.is_authenticated and (
        table.created_by_id == user.pk or services.seat_of(seats, user) is not None
    )
    ctx = {"can_invite": can, "recent_opponents": [], "invited": []}
    if can:
        seated = {s.user_id for s in seats if s.user_id}
        names = {s.user.username for s in seats if s.user_id}
        ctx["recent_opponents"] = [name for name in services.recent_opponents(user) if name not in names]
        ctx["invited"] = list(
            Invitation.objects.filter(table=table)
            .exclude(user_id__in=seated)
            .values_list("user__username", flat=True)
        )
    return ctx


def _session_invite(request, pk):
    return access.session_invite(request.session, pk)


def _visible(request, pk):
    try:
        return access.table_for(pk, request.user, request.GET.get("invite"), _session_invite(request, pk))
    except services.NotFound:
        raise Http404("No such table.") from None


def _message(text: str, status: int) -> HttpResponse:
    """A short answer swapped into the place the form names (escaped: it is plain text)."""
    return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")


@require_POST
def chat(request, pk):
    """Post a chat line (text, or a quick phrase); the line itself arrives over the socket."""
    if not request.user.is_authenticated:
        return _message(gettext("Sign in to write in the chat."), 403)
    phrase = request.POST.get("phrase")
    try:
        services.post_chat(
            pk,
            request.user,
            text=request.POST.get("text"),
            phrase=phrase,
            invite=_session_invite(request, pk),
        )
    except services.NotFound:
        raise Http404("No such table.") from None
    except services.TableError as exc:
        return _message(exc.message, exc.status)
    if not request.htmx:
        return redirect("tables:table", pk=pk)
    return _message("", 200)


@require_POST
@login_required
def chat_mute(request, pk):
    table = _visible(request, pk)
    try:
        services.mute_chat(pk, request.user, request.POST.get("muted") == "1")
    except services.TableError as exc:
        return _message(exc.message, exc.status)
    if not request.htmx:
        return redirect(table)
    seats = selectors.read_seats(table)
    ctx = {"table": table, **social.chat_context(table, seats, request.user)}
    ctx["takeback_moves"] = sorted(table.engine.takeback_moves)
    return render(request, "tables/_chat.html", ctx)


@require_POST
@login_required
def invite(request, pk):
    table = _visible(request, pk)
    ctx = {"table": table, "invite_url": request.build_absolute_uri(table.invite_path)}
    try:
        invitation = services.invite(pk, request.user, request.POST.get("username"))
        ctx["invite_message"] = gettext(
            "%(name)s is invited: they will see it on their “Your turn” page."
        ) % {"name": invitation.user.username}
    except services.TableError as exc:
        ctx["invite_error"] = exc.message
    table.refresh_from_db()
    if not request.htmx:
        return redirect(table)
    ctx.update(invite_context(request, table, selectors.read_seats(table)))
    return render(request, "tables/_invite.html", ctx)
