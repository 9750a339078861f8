"""docs/architecture.md names every module of the package, so a newcomer finds each one.

A Python module counts as named when the page mentions it by its path below
``src/crazy_eights`` (``server/table/actor.py``), by its path below its top package
(``table/actor.py``), by its dotted name (``crazy_eights.server.table.actor`` or
``server.table.actor``), or, for a module directly in a top package (``server/app.py``,
``engine/cards.py``, ``cli.py``), by its file name (``app.py``). A package's
``__init__.py`` is the package, named with it. A folder of Python files that is no
package (Alembic's ``server/migrations/``) counts as one unit, named by its folder
(``migrations/``). A browser module counts as named by its path below ``web/js/``
(``table.js``, or ``table/socket.js`` in a folder).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "crazy_eights"
DOC = ROOT / "docs" / "architecture.md"


def _words(text: str) -> set[str]:
    """Every run of path or dotted-name characters in ``text`` (``server/app.py``,
    ``crazy_eights.engine.game``, ``migrations/``), for exact lookups."""
    return set(re.findall(r"[A-Za-z0-9_./-]+", text))


def python_names(path: Path) -> set[str]:
    """The ways the page may name the Python module at ``path`` (see the docstring)."""
    rel = path.relative_to(PACKAGE)
    parts = rel.with_suffix("").parts
    names = {rel.as_posix(), "crazy_eights." + ".".join(parts)}
    if len(parts) > 1:
        names.add(".".join(parts))
    if len(parts) > 2:
        names.add(Path(*rel.parts[1:]).as_posix())
        names.add(".".join(parts[1:]))
    if len(parts) <= 2:
        names.add(rel.name)
    return names


def python_units() -> dict[str, set[str]]:
    """Each Python module, or folder of scripts outside any package, by its path below
    ``src/crazy_eights``, with the names that count for it."""
    units: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "__init__.py":
            continue
        folder = path.parent
        if not (folder / "__init__.py").exists():
            while not (folder.parent / "__init__.py").exists():
                folder = folder.parent
            rel = folder.relative_to(PACKAGE).as_posix()
            units[rel + "/"] = {rel + "/", folder.name + "/"}
            continue
        units[path.relative_to(PACKAGE).as_posix()] = python_names(path)
    return units


def browser_units() -> dict[str, set[str]]:
    """Each browser module, by its path below ``src/crazy_eights``, with the names that
    count for it."""
    js = PACKAGE / "web" / "js"
    return {
        path.relative_to(PACKAGE).as_posix(): {
            path.relative_to(js).as_posix(),
            path.relative_to(PACKAGE).as_posix(),
        }
        for path in sorted(js.rglob("*.js"))
    }


def missing_modules(doc: str) -> list[str]:
    """The modules (paths below ``src/crazy_eights``) that ``doc`` names in no way."""
    words = _words(doc)
    units = {**python_units(), **browser_units()}
    return [unit for unit, names in units.items() if not names & words]


def test_the_name_rules_see_the_modules() -> None:
    units = python_units()
    assert "server/table/actor.py" in units and "engine/shedding.py" in units
    assert "table/actor.py" in units["server/table/actor.py"]
    assert "server/migrations/" in units
    assert "js/table/index.js" not in units and "web/js/table/index.js" in browser_units()
    assert missing_modules("`engine/shedding.py`, `table.js`") != missing_modules("")
    assert "server/app.py" not in missing_modules("`app.py`")
    assert "server/table/actor.py" in missing_modules("`actor.py`")
    assert "server/errors.py" in missing_modules("readable errors")  # a word is no name
    assert "cli.py" in missing_modules("the cli and its commands")


def test_architecture_doc_names_every_module() -> None:
    missing = missing_modules(DOC.read_text())
    assert not missing, (
        f"docs/architecture.md does not name {len(missing)} module(s) of src/crazy_eights "
        "(add each to the module tables): " + ", ".join(missing)
    )
