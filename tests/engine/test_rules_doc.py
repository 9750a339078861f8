"""The repository documents itself: every rule id of ``docs/rules.md`` has a test named
after it, and every engine event kind is in ``docs/protocol.md``."""

from __future__ import annotations

import re
from pathlib import Path

from crazy_eights.engine.events import EVENT_TYPES

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"^- \*\*([A-Z]+\d+)\b", re.MULTILINE)
TEST_NAME = re.compile(r"def test_([a-z]+\d+)_\w*", re.IGNORECASE)


def rule_ids() -> list[str]:
    return RULE_ID.findall((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))


def ids_with_tests() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        found.update(m.upper() for m in TEST_NAME.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_rule_of_the_rulebook_has_a_test_named_after_it() -> None:
    ids = rule_ids()
    assert len(ids) == len(set(ids)), "a rule id is used twice in docs/rules.md"
    assert {"G1", "C11", "U10", "K8", "Y17", "OS10", "T3"} <= set(ids)
    missing = [i for i in ids if i not in ids_with_tests()]
    assert not missing, f"rules without a test named test_<id>_...: {missing}"


def test_every_test_named_after_a_rule_names_a_rule_of_the_rulebook() -> None:
    unknown = ids_with_tests() - set(rule_ids())
    assert not unknown, f"tests named after rules docs/rules.md does not have: {unknown}"


def test_every_event_kind_is_in_the_protocol() -> None:
    protocol = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = protocol[protocol.index("## Engine events and legal moves") :]
    for kind in EVENT_TYPES:
        assert f"| `{kind}`" in section, kind


def test_the_repository_points_nowhere_outside_it() -> None:
    for path in [ROOT / "README.md", *ROOT.joinpath("src").rglob("*.py")]:
        assert "../shared" not in path.read_text(encoding="utf-8"), path
