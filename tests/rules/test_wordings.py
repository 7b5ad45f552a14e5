"""Every sentence the rules write for a person reads in every language (rules.core's wordings).

The rules write a refusal once, as an English template: ``require(ok, "{card} is face down.", card=...)``,
``IllegalMove(...)``, ``InvalidSetup(...)`` or ``Text(...)``. This test reads the source of ``rules/``:
each template must be a plain string (an f-string would put words in English only), registered in
every other language with the same fields. A function that passes one of its parameters on as the
message (``def _whole(value, message): require(..., message)``) is followed to its callers.
"""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from rules import registry
from rules.core import LANGUAGES, WORDINGS, IllegalMove, InvalidSetup, Text, each_language, require

RULES = Path(__file__).resolve().parents[2] / "rules"
# The callables whose argument at this position is a sentence for a person.
SENTENCE_AT = {"IllegalMove": 0, "InvalidSetup": 0, "Refusal": 0, "Text": 0, "require": 1}


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _functions(tree: ast.AST):
    """Every function and method of a module."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def _sentence_takers(tree: ast.AST) -> dict[str, int]:
    """SENTENCE_AT plus this module's pass-throughs: a function handing one of its parameters on as a
    sentence takes a sentence there itself (its callers' arguments are then checked)."""
    sentence_at = dict(SENTENCE_AT)
    changed = True
    while changed:
        changed = False
        for func in _functions(tree):
            if func.name.startswith("__") or func.name in sentence_at:
                continue
            params = [a.arg for a in func.args.posonlyargs + func.args.args]
            offset = 1 if params[:1] in (["self"], ["cls"]) else 0
            for call in ast.walk(func):
                at = sentence_at.get(_name(call.func)) if isinstance(call, ast.Call) else None
                if at is not None and at < len(call.args):
                    arg = call.args[at]
                    if isinstance(arg, ast.Name) and arg.id in params:
                        sentence_at[func.name] = params.index(arg.id) - offset
                        changed = True
                        break
    return sentence_at


def _scan() -> tuple[list[tuple[str, int, str]], list[str]]:
    """(template, line, file) for every sentence in rules/, and the problems found."""
    found, problems = [], []
    for path in sorted(RULES.rglob("*.py")):
        tree = ast.parse(path.read_text())
        where = path.relative_to(RULES.parent)
        sentence_at = _sentence_takers(tree)
        handed_on = {}  # for each call inside a function: that function's parameters (handed on as Names)
        for func in _functions(tree):
            params = {a.arg for a in func.args.posonlyargs + func.args.args}
            for call in ast.walk(func):
                handed_on[id(call)] = params
        constants = {  # module-level NAME = "sentence"
            node.targets[0].id: node.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        }
        for call in ast.walk(tree):
            at = sentence_at.get(_name(call.func)) if isinstance(call, ast.Call) else None
            if at is None or at >= len(call.args):
                continue
            arg = call.args[at]
            if (
                isinstance(arg, ast.Name)
                and arg.id in constants
                and arg.id not in handed_on.get(id(call), set())
            ):
                arg = constants[arg.id]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.append((arg.value, call.lineno, str(where)))
            elif not (isinstance(arg, ast.Name) and arg.id in handed_on.get(id(call), set())):
                kind = "an f-string" if isinstance(arg, ast.JoinedStr) else ast.dump(arg)[:60]
                problems.append(f"{where}:{call.lineno}: the sentence is {kind}, not a template with fields")
    return found, problems


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_sentence_of_the_rules_is_a_template():
    registry.games()  # every game registers its wordings when imported
    found, problems = _scan()
    assert len(found) > 100, "the scan finds the rules' sentences"
    assert problems == []


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_sentence_of_the_rules_has_a_wording_in(lang):
    registry.games()
    found, _ = _scan()
    missing = sorted({f"{where}:{line}: {t!r}" for t, line, where in found if t not in WORDINGS[lang]})
    assert missing == []
    wrong = sorted(
        f"{where}:{line}: {t!r} -> {WORDINGS[lang][t]!r}"
        for t, line, where in found
        if _fields(WORDINGS[lang][t]) != _fields(t)
    )
    assert wrong == [], "a wording has the fields of its English template"
    for template, line, where in found:  # a literal brace is doubled, or formatting fails
        text = Text(template, **{name: "x" for name in _fields(template)})
        assert text.words(lang), f"{where}:{line}"


def test_no_wording_is_left_over():
    """A wording whose English template is gone from rules/ is dead text."""
    registry.games()
    found = {t for t, _, _ in _scan()[0]}
    for lang, table in WORDINGS.items():
        assert sorted(set(table) - found) == [], lang


def test_a_refusal_reads_in_each_language():
    names = {"en": "Falling Star", "fr": "Étoile filante"}
    with pytest.raises(IllegalMove) as caught:
        require(False, "It is not your turn.")
    assert str(caught.value) == "It is not your turn."
    assert caught.value.words("fr") == "Ce n’est pas votre tour."
    assert caught.value.words("xx") == "It is not your turn."  # an unknown language reads English
    text = Text("{game} takes {low} to {high} players.", game=names, low=2, high=6)
    assert text == "Falling Star takes 2 to 6 players."  # as a str: English
    assert text.words("fr") == "Étoile filante se joue de 2 à 6 joueurs."
    refused = InvalidSetup("Unknown option: {names}.", names="colour")
    assert isinstance(refused, ValueError) and str(refused) == "Unknown option: colour."
    assert refused.words("fr") == "Option inconnue : colour."
    assert each_language(lambda code, lang: f"{code}-{lang}", "x") == {"en": "x-en", "fr": "x-fr"}


def test_a_move_refused_by_a_game_reads_in_french():
    game = registry.get("cosmic_crowns")
    state = game.setup(players=2, seed=1)
    other = 1 - game.to_act(state)[0]
    with pytest.raises(IllegalMove) as caught:
        game.apply(state, other, {"type": "play", "card": "x"})
    assert caught.value.words("fr") == "Ce n’est pas votre tour."
