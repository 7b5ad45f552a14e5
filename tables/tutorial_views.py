"""Learn to play: the button that opens a guided first game (tables.tutorial)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from tables import services, tutorial


@require_POST
@login_required
def learn(request, slug):
    try:
        table = tutorial.start_guided(request.user, slug)
    except services.TableError as exc:
        messages.error(request, exc.message)
        return redirect("tables:lobby")
    return redirect(table)
