"""A real IRC server (Debian's ngircd, ``tests/services.Ngircd``) for the chat host's tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

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
