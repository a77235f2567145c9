"""Refusals: why the engine said no, with a stable code and a French message.

Inside the engine a refusal is raised as :class:`Refusal`; :func:`engine.apply` turns it
into ``{"code", "message"}`` at the boundary, so callers never see an exception.
"""

from __future__ import annotations

CODES = (
    "bad_command",
    "bad_value",
    "unknown_combatant",
    "unknown_action",
    "not_your_turn",
    "no_pi",
    "no_hope",
    "not_allowed",
    "too_far",
    "round_in_progress",
    "round_over",
    "too_many_fighters",
)


class Refusal(Exception):
    """A command the rules refuse.

    >>> r = Refusal("no_pi", "Plus de P.I. (R2.3).")
    >>> r.as_json()
    {'code': 'no_pi', 'message': 'Plus de P.I. (R2.3).'}
    """

    def __init__(self, code: str, message: str) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message

    def as_json(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}
