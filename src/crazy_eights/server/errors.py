"""The one error type of the HTTP API: a status, a short code and a readable reason."""

from __future__ import annotations


class ApiError(Exception):
    """Answered as ``{"error": code, "detail": detail}`` with ``status``."""

    def __init__(
        self, status: int, code: str, detail: str, *, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.headers = headers
