"""The Chronica Universalis deck builder: the card catalog, a player's decks, the starters.

A deck being edited is a draft held by the page (hidden inputs); htmx posts it to ``draft`` with one
operation (add, remove, import, clear) and gets the editor panel back. Saving writes it to the Deck.
Legality is always rules.chronica.validate_deck's (through accounts.decks.deck_summary).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import decks as deck_helpers
from accounts.limits import CONTROL_CHARACTERS_MESSAGE, LimitReached, has_control_characters, parse_id
from accounts.models import Deck
from accounts.preferences import in_words

NAME_MAX = Deck._meta.get_field("name").max_length


def _chronica():
    import rules.chronica as chronica

    return chronica


def _starter(code):
    for starter in _chronica().starter_decks():
        if starter["code"] == code:
            return starter
    raise Http404("No such starter deck.")


def _clean_name(raw, default=None) -> str:
    name = " ".join((raw or "").split())[:NAME_MAX]
    return name or default or _("New deck")


def _posted(request, default_name=None) -> tuple[str, list[str], str | None]:
    """The posted draft: its name, its well-shaped card codes, and a message for what was refused."""
    name = _clean_name(request.POST.get("name"), default_name)
    cards, error = deck_helpers.shaped_codes(request.POST.getlist("cards"))
    if has_control_characters(name):
        name = _clean_name("".join(ch for ch in name if not has_control_characters(ch)), default_name)
        error = _("Deck name: %(problem)s") % {"problem": CONTROL_CHARACTERS_MESSAGE}
    return name, cards, error


def catalog(request):
    cards, params = deck_helpers.filter_catalog(request.GET)
    ctx = {
        "cards": cards,
        "params": params,
        "filters": deck_helpers.catalog_filters(),
        "total": len(_chronica().catalog()),
        "addable": request.GET.get("pick") == "1" and request.user.is_authenticated,
    }
    if request.htmx:
        return render(request, "decks/_results.html", ctx)
    return render(request, "decks/catalog.html", ctx)


@login_required
def deck_list(request):
    rows = [
        {"deck": deck, "summary": deck_helpers.deck_summary(deck.cards)}
        for deck in Deck.objects.filter(owner=request.user)
    ]
    starters = [
        {"starter": s, "summary": deck_helpers.deck_summary(s["cards"])} for s in _chronica().starter_decks()
    ]
    return render(request, "decks/list.html", {"rows": rows, "starters": starters})


def _editor(request, *, deck, name, cards, dirty=False, error=None, status=200):
    catalog_cards, params = deck_helpers.filter_catalog({})  # every card, with its power's text
    ctx = {
        "deck": deck,
        "name": name,
        "cards": cards,
        "summary": deck_helpers.deck_summary(cards),
        "dirty": dirty,
        "error": error,
        "filters": deck_helpers.catalog_filters(),
        "params": params,
        "catalog_cards": catalog_cards,
        "addable": True,
    }
    return render(request, "decks/editor.html", ctx, status=status)


def tell_saved(request, deck) -> None:
    """A legal deck is saved (green); an unfinished one is kept as a draft, which the rules still refuse at a
    table: said plainly (the editor lists what it lacks), never as a success beside the refusal."""
    if _chronica().validate_deck(list(deck.cards)):
        messages.warning(
            request,
            _("Deck “%(name)s” kept as a draft: it cannot be played until it is complete.")
            % {"name": deck.name},
        )
    else:
        messages.success(request, _("Deck “%(name)s” saved.") % {"name": deck.name})


@login_required
def new_deck(request):
    if request.method == "POST":
        name, cards, error = _posted(request)
        error = error or deck_helpers.unsavable(cards)
        if error is None:
            try:
                deck = Deck.create_for(request.user, name, cards)
            except LimitReached as exc:
                error = exc.message
        if error:
            return _editor(request, deck=None, name=name, cards=cards, dirty=True, error=error, status=400)
        tell_saved(request, deck)
        return redirect("decks:edit", pk=deck.pk)
    cards, error, name = [], None, _("New deck")
    code = request.GET.get("code")
    if code:
        try:
            cards = _chronica().decode_deck(code)
            name = _("Imported deck")
        except ValueError as exc:
            error = in_words(exc)
    starter = request.GET.get("starter")
    if starter:
        s = _starter(starter)
        cards, name = list(s["cards"]), _("%(name)s (copy)") % {"name": s["name"]}
    return _editor(request, deck=None, name=name, cards=cards, dirty=bool(cards), error=error)


@login_required
def edit_deck(request, pk):
    deck = get_object_or_404(Deck, pk=pk, owner=request.user)
    if request.method == "POST":
        name, cards, error = _posted(request, deck.name)
        error = error or deck_helpers.unsavable(cards)
        if error:
            return _editor(request, deck=deck, name=name, cards=cards, dirty=True, error=error, status=400)
        deck.name, deck.cards = name, cards
        deck.save()
        tell_saved(request, deck)
        return redirect("decks:edit", pk=deck.pk)
    return _editor(request, deck=deck, name=deck.name, cards=list(deck.cards))


@login_required
@require_POST
def draft(request):
    """One edit of the draft; answers the editor panel (no database write)."""
    name, cards, refused = _posted(request)
    op = request.POST.get("op")
    card = request.POST.get("card", "")
    error = None
    deck = None
    deck_id = parse_id(request.POST.get("deck", ""))
    if deck_id is not None:
        deck = get_object_or_404(Deck, pk=deck_id, owner=request.user)
    if op == "add":
        if card not in _chronica().cards.CARD_BY_CODE:
            error = _("There is no such card in the catalog.")
        elif len(cards) >= deck_helpers.MAX_DRAFT:
            error = _("This deck is far too big already.")
        else:
            cards.append(card)
    elif op == "remove":
        if card in cards:
            cards.remove(card)
    elif op == "import":
        try:
            cards = _chronica().decode_deck(request.POST.get("code", ""))
        except ValueError as exc:
            error = in_words(exc)
    elif op == "clear":
        cards = []
    else:
        error = _("Unknown change.")
    ctx = {"deck": deck, "name": name, "cards": cards, "summary": deck_helpers.deck_summary(cards)}
    ctx.update(dirty=True, error=error or refused)
    return render(request, "decks/editor.html#panel", ctx)


@login_required
@require_POST
def duplicate_deck(request, pk):
    deck = get_object_or_404(Deck, pk=pk, owner=request.user)
    try:
        copy = Deck.create_for(
            request.user, _clean_name(_("%(name)s (copy)") % {"name": deck.name}), list(deck.cards)
        )
    except LimitReached as exc:
        messages.error(request, exc.message)
        return redirect("decks:list")
    messages.success(request, _("Copied into “%(name)s”.") % {"name": copy.name})
    return redirect("decks:edit", pk=copy.pk)


@login_required
@require_POST
def delete_deck(request, pk):
    deck = get_object_or_404(Deck, pk=pk, owner=request.user)
    name = deck.name
    deck.delete()
    messages.success(request, _("Deck “%(name)s” deleted.") % {"name": name})
    return redirect("decks:list")


def starter(request, code):
    s = _starter(code)
    return render(
        request, "decks/starter.html", {"starter": s, "summary": deck_helpers.deck_summary(s["cards"])}
    )


@login_required
@require_POST
def copy_starter(request, code):
    s = _starter(code)
    try:
        deck = Deck.create_for(request.user, _clean_name(s["name"]), list(s["cards"]))
    except LimitReached as exc:
        messages.error(request, exc.message)
        return redirect("decks:list")
    messages.success(
        request, _("“%(name)s” is now one of your decks: edit it as you like.") % {"name": s["name"]}
    )
    return redirect("decks:edit", pk=deck.pk)
