"""The deck builder of every game whose registration builds decks: the card catalog, a player's decks, the
starters.

Each page serves one game, ``game`` (its slug, from the address); without one, the first deck-building game of
the registry (the addresses /decks/… kept from when one game built decks). What is the game's own (its cards,
filters, a deck's make-up, its templates) comes from its registration's ``Decks`` entry; nothing here names a
game. A deck being edited is a draft held by the page (hidden inputs); htmx posts it to ``draft`` with one
operation (add, remove, import, clear) and gets the editor panel back. Saving writes it to the Deck.
Legality is always the game's ``validate_deck`` (through its builder's ``deck_summary``).
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


def _game(slug=None):
    """The registration of the deck-building game a page serves (404 when it builds no decks)."""
    entry = deck_helpers.deck_game(slug)
    if entry is None:
        raise Http404("No game builds decks here.")
    return entry


def _page(entry, name: str) -> str:
    return f"{entry.decks.templates}{name}"


def _redirect(entry, name: str, **kwargs):
    return redirect(deck_helpers.deck_url(entry.slug, name, **kwargs))


def _starter(entry, code):
    for starter in entry.decks.rules.starter_decks():
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


def catalog(request, game=None):
    entry = _game(game)
    builder = entry.decks.builder
    cards, params = builder.filter_catalog(request.GET)
    ctx = {
        "game": entry,
        "cards": cards,
        "params": params,
        "filters": builder.catalog_filters(),
        "total": builder.catalog_size(),
        "addable": request.GET.get("pick") == "1" and request.user.is_authenticated,
    }
    if request.htmx:
        return render(request, _page(entry, "_results.html"), ctx)
    return render(request, _page(entry, "catalog.html"), ctx)


@login_required
def deck_list(request, game=None):
    entry = _game(game)
    summary = entry.decks.builder.deck_summary
    rows = [
        {"deck": deck, "summary": summary(deck.cards)}
        for deck in Deck.objects.filter(owner=request.user, game=entry.slug)
    ]
    starters = [{"starter": s, "summary": summary(s["cards"])} for s in entry.decks.rules.starter_decks()]
    return render(request, _page(entry, "list.html"), {"game": entry, "rows": rows, "starters": starters})


def _editor(request, entry, *, deck, name, cards, dirty=False, error=None, status=200):
    builder = entry.decks.builder
    catalog_cards, params = builder.filter_catalog({})  # every card, as the catalog shows it
    ctx = {
        "game": entry,
        "deck": deck,
        "name": name,
        "cards": cards,
        "summary": builder.deck_summary(cards),
        "dirty": dirty,
        "error": error,
        "filters": builder.catalog_filters(),
        "params": params,
        "catalog_cards": catalog_cards,
        "addable": True,
    }
    return render(request, _page(entry, "editor.html"), ctx, status=status)


def tell_saved(request, deck, entry) -> None:
    """A legal deck is saved (green); an unfinished one is kept as a draft, which the rules still refuse at a
    table: said plainly (the editor lists what it lacks), never as a success beside the refusal."""
    if entry.decks.rules.validate_deck(list(deck.cards)):
        messages.warning(
            request,
            _("Deck “%(name)s” kept as a draft: it cannot be played until it is complete.")
            % {"name": deck.name},
        )
    else:
        messages.success(request, _("Deck “%(name)s” saved.") % {"name": deck.name})


@login_required
def new_deck(request, game=None):
    entry = _game(game)
    if request.method == "POST":
        name, cards, error = _posted(request)
        error = error or entry.decks.builder.unsavable(cards)
        if error is None:
            try:
                deck = Deck.create_for(request.user, name, cards, entry.slug)
            except LimitReached as exc:
                error = exc.message
        if error:
            return _editor(
                request, entry, deck=None, name=name, cards=cards, dirty=True, error=error, status=400
            )
        tell_saved(request, deck, entry)
        return _redirect(entry, "edit", pk=deck.pk)
    cards, error, name = [], None, _("New deck")
    code = request.GET.get("code")
    if code:
        try:
            cards = entry.decks.rules.decode_deck(code)
            name = _("Imported deck")
        except ValueError as exc:
            error = in_words(exc)
    starter = request.GET.get("starter")
    if starter:
        s = _starter(entry, starter)
        cards, name = list(s["cards"]), _("%(name)s (copy)") % {"name": s["name"]}
    return _editor(request, entry, deck=None, name=name, cards=cards, dirty=bool(cards), error=error)


@login_required
def edit_deck(request, pk, game=None):
    entry = _game(game)
    deck = get_object_or_404(Deck, pk=pk, owner=request.user, game=entry.slug)
    if request.method == "POST":
        name, cards, error = _posted(request, deck.name)
        error = error or entry.decks.builder.unsavable(cards)
        if error:
            return _editor(
                request, entry, deck=deck, name=name, cards=cards, dirty=True, error=error, status=400
            )
        deck.name, deck.cards = name, cards
        deck.save()
        tell_saved(request, deck, entry)
        return _redirect(entry, "edit", pk=deck.pk)
    return _editor(request, entry, deck=deck, name=deck.name, cards=list(deck.cards))


@login_required
@require_POST
def draft(request, game=None):
    """One edit of the draft; answers the editor panel (no database write)."""
    entry = _game(game)
    name, cards, refused = _posted(request)
    op = request.POST.get("op")
    card = request.POST.get("card", "")
    error = None
    deck = None
    deck_id = parse_id(request.POST.get("deck", ""))
    if deck_id is not None:
        deck = get_object_or_404(Deck, pk=deck_id, owner=request.user, game=entry.slug)
    if op == "add":
        if not entry.decks.builder.is_card(card):
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
            cards = entry.decks.rules.decode_deck(request.POST.get("code", ""))
        except ValueError as exc:
            error = in_words(exc)
    elif op == "clear":
        cards = []
    else:
        error = _("Unknown change.")
    ctx = {"game": entry, "deck": deck, "name": name, "cards": cards}
    ctx.update(summary=entry.decks.builder.deck_summary(cards), dirty=True, error=error or refused)
    return render(request, _page(entry, "editor.html#panel"), ctx)


@login_required
@require_POST
def duplicate_deck(request, pk, game=None):
    entry = _game(game)
    deck = get_object_or_404(Deck, pk=pk, owner=request.user, game=entry.slug)
    try:
        copy = Deck.create_for(
            request.user,
            _clean_name(_("%(name)s (copy)") % {"name": deck.name}),
            list(deck.cards),
            entry.slug,
        )
    except LimitReached as exc:
        messages.error(request, exc.message)
        return _redirect(entry, "list")
    messages.success(request, _("Copied into “%(name)s”.") % {"name": copy.name})
    return _redirect(entry, "edit", pk=copy.pk)


@login_required
@require_POST
def delete_deck(request, pk, game=None):
    entry = _game(game)
    deck = get_object_or_404(Deck, pk=pk, owner=request.user, game=entry.slug)
    name = deck.name
    deck.delete()
    messages.success(request, _("Deck “%(name)s” deleted.") % {"name": name})
    return _redirect(entry, "list")


def starter(request, code, game=None):
    entry = _game(game)
    s = _starter(entry, code)
    ctx = {"game": entry, "starter": s, "summary": entry.decks.builder.deck_summary(s["cards"])}
    return render(request, _page(entry, "starter.html"), ctx)


@login_required
@require_POST
def copy_starter(request, code, game=None):
    entry = _game(game)
    s = _starter(entry, code)
    try:
        deck = Deck.create_for(request.user, _clean_name(s["name"]), list(s["cards"]), entry.slug)
    except LimitReached as exc:
        messages.error(request, exc.message)
        return _redirect(entry, "list")
    messages.success(
        request, _("“%(name)s” is now one of your decks: edit it as you like.") % {"name": s["name"]}
    )
    return _redirect(entry, "edit", pk=deck.pk)
