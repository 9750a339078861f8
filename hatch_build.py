"""The wheel's build hook: the rules engine compiled with mypyc, or pure Python.

A regular install (``pip install .``, a wheel built from the sdist) compiles
``src/crazy_eights/engine`` with mypyc (hatch-mypyc, configured under
``[tool.hatch.build.targets.wheel.hooks.custom]`` in pyproject.toml): the same code,
about five times faster. Where it cannot be compiled (no C compiler, an interpreter
mypyc does not support) the build says why and ships the pure Python engine instead.
An editable install (``pip install -e .``, for working on the code) is never compiled,
so that edits take effect; ``CRAZY_EIGHTS_PURE=1`` asks for the pure build anywhere.
``crazy_eights.engine.game.COMPILED`` tells which build is installed.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from typing import Any

from hatch_mypyc.plugin import MypycBuildHook


class EngineBuildHook(MypycBuildHook):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        if os.environ.get("CRAZY_EIGHTS_PURE", "") not in ("", "0"):
            self.app.display_info("crazy-eights: CRAZY_EIGHTS_PURE is set: pure Python engine")
            return
        announce(
            "crazy-eights: compiling the rules engine with mypyc (a minute or two; "
            "CRAZY_EIGHTS_PURE=1 skips it)"
        )
        started = time.monotonic()
        try:
            super().initialize(version, build_data)
        except Exception as exc:  # no compiler, or mypyc refused: fall back, and say so
            self.clean([version])
            first = str(exc).strip().splitlines()[:12]
            announce(
                "crazy-eights: the engine could not be compiled with mypyc, so this build "
                "has the pure Python engine (slower, the same rules):\n" + "\n".join(first),
                again=True,
            )
            return
        seconds = time.monotonic() - started
        announce(
            f"crazy-eights: the rules engine is compiled with mypyc ({seconds:.0f} s)", again=True
        )


def announce(line: str, *, again: bool = False) -> None:
    """Say what the build is doing where a person sees it.

    pip runs a build backend with its output captured and shows it only with ``pip -v``
    or when the build fails (pypa/pip#6634: there is no channel from a backend to pip's
    screen), so a compile of a minute or two would pass in silence behind pip's
    spinner. The line goes to the captured output (``pip -v``, ``python -m build``, logs)
    and, when that is not a terminal, also to the terminal pip was started from, if any:
    under pip it appears after "Preparing metadata (pyproject.toml) ...", the step in
    which pip has hatchling build the wheel. A line written ``again`` starts with a
    carriage return: it overwrites the one character of pip's spinner that may stand at
    the start of the line below the first."""
    # The terminal first: pip's spinner turns on each line it captures, and its character
    # would stand before this one.
    if not sys.stderr.isatty():
        with contextlib.suppress(OSError), open("/dev/tty", "w") as tty:
            tty.write(("\r" if again else "") + line + "\n")
    print(line, file=sys.stderr, flush=True)


def get_build_hook() -> type[EngineBuildHook]:
    """The hook of this file (hatchling asks: ``MypycBuildHook`` is imported here too)."""
    return EngineBuildHook
