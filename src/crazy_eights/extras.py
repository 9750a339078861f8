"""Optional dependencies: a feature that needs one asks for it here, and a missing one is
an error that names the extra to install, instead of a bare ``ModuleNotFoundError``.

The extras (``pyproject.toml``): ``postgres`` (asyncpg), ``cluster`` (redis, with
``postgres``), ``lab`` (matplotlib), ``lab-cluster`` (Dask distributed), ``rl``
(OpenSpiel, PettingZoo, numpy), ``chat`` (irc, matrix-nio), ``dev``.
"""

from __future__ import annotations

import importlib
from types import ModuleType


class MissingExtra(ImportError):
    """A feature needs a package of an extra that is not installed.

    >>> print(MissingExtra("--plot", "lab", "matplotlib"))
    --plot needs the 'lab' extra (matplotlib is missing): pip install 'crazy-eights[lab]'
    """

    def __init__(self, feature: str, extra: str, module: str) -> None:
        super().__init__(
            f"{feature} needs the {extra!r} extra ({module} is missing): "
            f"pip install 'crazy-eights[{extra}]'",
            name=module,
        )
        self.feature = feature
        self.extra = extra


def require(module: str, *, extra: str, feature: str) -> ModuleType:
    """Import ``module`` for ``feature``, or raise ``MissingExtra`` naming ``extra``.

    Only the module itself being absent counts as missing; an import error inside an
    installed package is left as it is.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        top = module.partition(".")[0]
        if exc.name not in (module, top):
            raise
        raise MissingExtra(feature, extra, top) from None
