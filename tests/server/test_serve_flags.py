"""``crazy-eights serve`` takes each setting from its flag or from its environment
variable (the flag's default must not hide the variable)."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import typer
from typer.testing import CliRunner

import crazy_eights.server.settings as settings_module
from crazy_eights.server.commands import serve


def settings_from(args: list[str]) -> dict[str, Any]:
    app = typer.Typer()
    app.command()(serve)
    seen: dict[str, Any] = {}
    real = settings_module.ServerSettings

    def spy(**values: Any) -> Any:
        seen.update(values)
        return real(**values)

    with (
        mock.patch("uvicorn.run"),
        mock.patch.object(settings_module, "ServerSettings", side_effect=spy),
    ):
        result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return seen


def test_environment_variables_reach_the_room(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in {
        "CE_BOT_WORKERS": "0",
        "CE_BOT_DELAY": "0.25",
        "CE_GRACE_SECONDS": "30",
        "CE_AWAY_SECONDS": "5",
        "CE_SECURE_COOKIES": "true",
        "CE_NODE": "east-1",
        "CE_LEASE_TTL": "3",
    }.items():
        monkeypatch.setenv(name, value)
    seen = settings_from(["--db", str(tmp_path / "room.db")])
    assert (seen["bot_workers"], seen["bot_delay"], seen["grace_seconds"]) == (0, 0.25, 30.0)
    assert (seen["secure_cookies"], seen["node"], seen["lease_ttl"]) == (True, "east-1", 3.0)
    assert seen["away_seconds"] == 5.0


def test_flags_win_over_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CE_BOT_WORKERS", "0")
    seen = settings_from(["--db", str(tmp_path / "room.db"), "--bot-workers", "3"])
    assert seen["bot_workers"] == 3
