"""Refusals: why the engine said no, with a stable code and a French message.

Inside the engine a refusal is raised as :class:`Refusal`; :func:`engine.apply` turns it
into ``{"code", "message"}`` at the boundary, so callers never see an exception.
"""

from __future__ import annotations

from typing import Any

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


#: The reasons the board can give for an action it refuses (eligibility, the R4
#: preconditions, the weapon), each a stable key that the page words in its language
#: (web/lang/*.js, ``reasons``); their ``params`` are named in the comment.
REASONS = (
    "round_not_started",  # R1
    "hors_combat",  # name; D6
    "not_in_round",  # name; D6, D7
    "interrupt_own_phase",  # R5.1, D22
    "no_hope",  # name; R5.2
    "round_finished",  # R2.4
    "passed",  # name; D5
    "other_phase",  # D22
    "no_pi",  # name; R2.3
    "not_highest",  # R2.1
    "arrow_already_nocked",  # D18
    "no_arrow_nocked",  # R4
    "nothing_in_hand",  # R4
    "no_dodge_after_charge",  # R4.2
    "engaged_no_charge",  # R4.2
    "standing_to_run",  # R4
    "already_in_cover",  # R4, D10
    "already_prone",  # R4
    "already_standing",  # R4
    "needs_bow",  # R4
    "needs_aimable",  # R4.1
    "needs_thrown",  # R4
    "needs_parry_weapon",  # R4
    "nothing_to_ready",  # R4
    "needs_melee",  # R4, R4.2
    "weapon_unfit",  # weapon, why (another reason's key)
    "weapon_already_in_hand",  # weapon
)


#: What a value check can say about one field of a sheet (engine/sheet.py
#: :func:`~engine.sheet.field_errors`): a stable key the page words in its language
#: (web/lang/*.js, ``fieldErrors``), naming the field; its ``params`` in the comment.
CHECKS = (
    "integer",  # low, high: not a whole number
    "range",  # low, high: a whole number out of bounds
    "number",  # low, high
    "text",  # max: not a text
    "text_length",  # min, max
    "identifier",  # max
    "object",
    "list",
    "too_many",  # max
    "choice",  # allowed
    "boolean",
    "required",
    "unknown_field",
    "duplicate",
    "unknown_weapon",
    "invalid",
)


class Refusal(Exception):
    """A command the rules refuse: a stable ``code``, a French ``message``, and for the
    reasons the board shows, a ``key`` of :data:`REASONS` with its ``params``.

    >>> r = Refusal("no_pi", "Plus de P.I. (R2.3).")
    >>> r.as_json()
    {'code': 'no_pi', 'message': 'Plus de P.I. (R2.3).'}
    >>> Refusal("no_pi", "Aldric n'a plus de P.I.", "no_pi", name="Aldric").as_json()["params"]
    {'name': 'Aldric'}
    """

    def __init__(self, code: str, message: str, key: str | None = None, **params: object) -> None:
        assert code in CODES, code
        assert key is None or key in REASONS, key
        super().__init__(message)
        self.code = code
        self.message = message
        self.key = key
        self.params = params

    def field_json(self) -> dict[str, Any]:
        """The failed check as the form shows it: ``{"field", "key", "params"}``.

        >>> from engine.values import integer
        >>> try:
        ...     integer("x", "characteristics.tir", low=0)
        ... except Refusal as r:
        ...     r.field_json()
        {'field': 'characteristics.tir', 'key': 'integer', 'params': {'low': 0, 'high': 999}}
        """
        params = dict(self.params)
        return {"field": params.pop("field", None), "key": params.pop("check", "invalid"), "params": params}

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.key is not None:
            out["key"] = self.key
        if self.key is not None or self.params:  # a value refused names its field (values.py)
            out["params"] = self.params
        return out
