"""The one error a browser is ever told about: what was wrong, as a code and a sentence."""

from __future__ import annotations

__all__ = ["WebError"]


class WebError(Exception):
    """A request or message the server refuses; nothing changed.

    Attributes:
        code: a short stable name for the cause (``not_your_turn``, ``bad_token``...),
            for pages and tests.
        message: the cause in words, saying what is allowed.
        status: the HTTP status of the refusal (websocket messages carry the code only).
    """

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_json(self) -> dict[str, str]:
        """The error as a websocket message or an HTTP body."""
        return {"type": "error", "code": self.code, "message": self.message}
