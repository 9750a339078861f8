"""A real IRC server (Debian's ngircd, ``tests/services.Ngircd``) for the chat host's tests,
and the card room's database fixtures (a SQLite file, a PostgreSQL database) for the
tests of its tables in the room."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ..server.conftest import (  # noqa: F401 - the card room's database fixtures
    database_url,
    fast_settings,
    postgres_template,
)
from ..services import Ngircd, ServiceUnavailable


@pytest.fixture
def ngircd(tmp_path: Path) -> Iterator[Ngircd]:
    """An ngircd on a free loopback port for this test alone (skipped if not installed)."""
    server = Ngircd(tmp_path / "ngircd")
    try:
        server.start()
    except ServiceUnavailable as exc:
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()
