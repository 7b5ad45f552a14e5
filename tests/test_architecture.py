"""The dependency arrows point one way: tables and accounts use rules; rules uses nothing of ours."""

import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def imported_modules(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_rules_imports_no_django_and_nothing_of_ours():
    forbidden = {"django", "channels", "daphne", "tables", "accounts", "config", "asgiref"}
    offenders = {}
    for path in (ROOT / "rules").rglob("*.py"):
        bad = imported_modules(path) & forbidden
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def test_rules_import_without_django_settings():
    code = (
        "import sys\n"
        "from rules import registry, IllegalMove\n"
        "games = registry.games()\n"
        "assert 'django' not in sys.modules, 'rules pulled in Django'\n"
        "print(sorted(games))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"}
    )
    assert out.returncode == 0, out.stderr
    assert "cosmic_crowns" in out.stdout


def test_engines_use_no_global_random_or_clock():
    offenders = []
    for path in (ROOT / "rules").rglob("*.py"):
        if path.name in ("core.py", "sampling.py", "bots.py") or "bots" in path.parts:
            continue  # core builds the seeded generators; bots and their samplers are tested below
        mods = imported_modules(path)
        if mods & {"random", "time", "datetime", "secrets"}:
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_bots_draw_only_from_their_own_seeded_generator():
    """Bots (rules/<game>/bots.py, rules/bots/) and the games' samplers of hidden cards (rules/<game>/sampling.py)
    use the random.Random they are given or build from a seed, never the global generator."""
    import re

    global_calls = re.compile(
        r"\brandom\.(random|choice|choices|shuffle|randint|randrange|sample|uniform|seed)\("
    )
    offenders = [
        str(path.relative_to(ROOT))
        for path in [
            *(ROOT / "rules" / "bots").rglob("*.py"),
            *(ROOT / "rules").glob("*/bots.py"),
            *(ROOT / "rules").glob("*/sampling.py"),
        ]
        if global_calls.search(path.read_text())
    ]
    assert offenders == []
