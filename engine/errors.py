"""Refusals: why the engine said no, with a stable code, a reason key and its params.

Every failure the engine (and the page beside it) can report is a :class:`Refusal`: a
``key`` of :data:`REASONS`, which says its ``code`` (one of :data:`CODES`, the one table
of codes), and the ``params`` the sentence names. The sentences live once, in the
language catalogues ``engine/lang/fr.json`` and ``en.json``: the engine's plain
``message`` (the CPython API, its tests, the ``reason`` of a verdict) is the French one,
and the page words the same key and params in its reader's language (web/lang/*.js
import these very files). :func:`engine.apply` and the table turn a refusal into
``{"code", "message", "key", "params"}`` at the boundary: callers never see an exception.

A sentence names its params in braces, filled in by :func:`sentence` (and by the page's
``web/infra/i18n.js``, by the same rules): ``field``, ``option`` and ``action`` are the
engine's names of a field, an option and an action, which the engine quotes (« name »)
and the page words as its own labels; ``why`` is another reason's key, told as a clause
(its first letter in lower case, without its full stop); ``refused`` is another refusal,
``{"key", "params"}``, told whole; a list is its items joined by commas; any other param
as it is.

>>> r = Refusal("no_pi", name="Aldric")
>>> r.code, r.message, r.params
('no_pi', "Aldric n'a plus de P.I. : il ne peut plus entamer d'action.", {'name': 'Aldric'})
>>> sentence("en", "weapon_unfit", {"weapon": "Arc court", "why": "needs_melee"})
'Arc court does not fit: needs a melee weapon in hand, or bare hands.'
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

#: Every error code, once: code -> who gives it. ``rules``: the engine contract
#: (RULES.md: ``apply``, ``replay``); ``save``: a save text, a file or a link read
#: (engine/save.py); ``table``: the table session's own (engine/table.py: a fault of the
#: engine's code, after which the page offers a reload); ``page``: the page's own, worded
#: by the same catalogues (web/infra/refusals.js): a tab that follows another one
#: read-only, a fight opening, a write the browser's storage did not do, a save held
#: unwritten, a tap made while the engine started dropped after a refusal, work stopped as
#: asked, a file, a link or the saved fight not opened (``unreadable``: the browser could
#: not read it, or the engine refused it, its refusal inside), a player's message the game
#: master's page refused (``live``: web/live/host.js, the engine's refusal inside when it
#: judged).
CODES = {
    "bad_command": "rules",
    "bad_value": "rules",
    "unknown_combatant": "rules",
    "unknown_action": "rules",
    "not_your_turn": "rules",
    "no_pi": "rules",
    "no_hope": "rules",
    "not_allowed": "rules",
    "too_far": "rules",
    "round_in_progress": "rules",
    "round_over": "rules",
    "too_many_fighters": "rules",
    "too_big": "save",
    "too_long": "save",
    "not_json": "save",
    "not_an_encounter": "save",
    "newer_format": "save",
    "bad_log": "save",
    "internal": "table",
    "read_only": "page",
    "busy": "page",
    "storage": "page",
    "held": "page",
    "discarded": "page",
    "stopped": "page",
    "unreadable": "page",
    "live": "page",
}

#: Every reason a refusal gives: key -> its code. The params each sentence names are in
#: the catalogues (engine/lang/*.json); a test holds that both languages have every key
#: with the same params.
REASONS = {
    # who may act now (rules.eligibility: R1, R2.1, R2.3, R2.4, R5.1, R5.2, D5, D6, D7, D22)
    "round_not_started": "round_over",
    "hors_combat": "not_allowed",
    "not_in_round": "not_allowed",
    "interrupt_own_phase": "not_allowed",
    "no_hope": "no_hope",
    "round_finished": "round_over",
    "passed": "not_allowed",
    "other_phase": "not_your_turn",
    "no_pi": "no_pi",
    "not_highest": "not_your_turn",
    # the R4 preconditions (an action's ``Need``) and the weapon it uses (``Uses``)
    "arrow_already_nocked": "not_allowed",
    "no_arrow_nocked": "not_allowed",
    "nothing_in_hand": "not_allowed",
    "no_dodge_after_charge": "not_allowed",
    "engaged_no_charge": "not_allowed",
    "standing_to_run": "not_allowed",
    "already_in_cover": "not_allowed",
    "already_prone": "not_allowed",
    "already_standing": "not_allowed",
    "same_posture": "not_allowed",
    "aim_capped": "not_allowed",
    "passing_off": "not_allowed",
    "needs_bow": "not_allowed",
    "needs_aimable": "not_allowed",
    "needs_thrown": "not_allowed",
    "needs_parry_weapon": "not_allowed",
    "nothing_to_ready": "not_allowed",
    "needs_melee": "not_allowed",
    "weapon_unfit": "not_allowed",
    "weapon_already_in_hand": "not_allowed",
    "drop_at_most": "not_allowed",
    "item_not_in_hand": "not_allowed",
    "too_far": "too_far",
    # the round and the fighters (engine/decide.py)
    "not_declarable": "not_allowed",
    "rolls_hors_combat": "not_allowed",
    "nobody_fights": "not_allowed",
    "joins_next_round": "round_over",
    "round_in_progress": "round_in_progress",
    "too_many_fighters": "too_many_fighters",
    "too_many_copies": "too_many_fighters",
    "copies_count": "bad_value",
    "unknown_combatant": "unknown_combatant",
    "unknown_action": "unknown_action",
    "no_such_condition": "not_allowed",
    # the command's shape (engine/commands.py, engine/decide.py)
    "use_interrupt": "bad_command",
    "use_act": "bad_command",
    "option_not_taken": "bad_command",
    "option_required": "bad_command",
    "not_a_command": "bad_command",
    "unknown_type": "bad_command",
    "missing_key": "bad_command",
    "unknown_key": "bad_command",
    "not_a_log": "bad_command",
    "unresolved_log": "bad_command",
    "bad_state": "bad_value",
    # a value refused: each names its ``field`` (engine/values.py, engine/sheet.py); the
    # first ones are the CHECKS below
    "integer": "bad_value",
    "range": "bad_value",
    "number": "bad_value",
    "text": "bad_value",
    "text_length": "bad_value",
    "identifier": "bad_value",
    "object": "bad_value",
    "list": "bad_value",
    "too_many": "bad_value",
    "choice": "bad_value",
    "boolean": "bad_value",
    "required": "bad_value",
    "unknown_field": "bad_value",
    "duplicate": "bad_value",
    "unknown_weapon": "bad_value",
    "no_such_weapon": "bad_value",
    "id_taken": "bad_value",
    "distinct_ids": "bad_value",
    "app_rolled": "bad_value",
    "pair": "bad_value",
    "at_least": "bad_value",
    "at_most": "bad_value",
    "not_self": "bad_value",
    "empty": "bad_value",
    "acrobatic_tests": "bad_value",
    "true_only": "bad_value",
    "die_missing": "bad_value",
    "half_character": "bad_value",  # a name's (engine/values.py name), and text typed (web/infra/send.js)
    "invisible": "bad_value",  # a name that shows nothing (engine/values.py name)
    "not_a_number": "bad_value",  # the page's own: a die field holding letters (web/controllers/round.js)
    # a save, a file or a link (engine/save.py, engine/link.py)
    "too_big": "too_big",
    "fight_too_big": "too_big",
    "too_long": "too_long",
    "fight_too_long": "too_long",
    "not_json": "not_json",
    "too_deep": "not_json",
    "number_too_long": "not_json",
    "not_an_encounter": "not_an_encounter",
    "not_rule_sets": "not_an_encounter",
    "newer_format": "newer_format",
    "bad_log": "bad_log",
    # the table session (engine/table.py) and the page (web/infra/session.js)
    "bad_request": "bad_command",
    "labo_none": "bad_command",
    "unknown_operation": "bad_command",
    "nothing_to_revert": "bad_command",
    "internal": "internal",
    "read_only": "read_only",
    "switching": "busy",
    "discarded": "discarded",
    "stopped": "stopped",
    # the page's writes to the browser's storage (web/infra/refusals.js `unwritten`): a
    # command's save, the list of fights, a model, the language, the theme, the STUN server
    "storage_full": "storage",
    "storage_unavailable": "storage",
    "held": "held",
    "fights_full": "storage",
    "fights_unavailable": "storage",
    "fights_held": "held",
    "fight_missing": "storage",
    "model_not_saved": "storage",
    "model_not_deleted": "storage",
    "language_not_kept": "storage",
    "theme_not_kept": "storage",
    "setting_not_kept": "storage",
    "stun_not_kept": "storage",
    "fights_left_full": "storage",
    "fights_left_unavailable": "storage",
    # a file, a link, the saved fight at start not opened (web/controllers/menu.js,
    # web/boot/start.js): the page's guards, or the engine's refusal inside (``refused``)
    "file_too_big": "too_big",
    "file_unreadable": "unreadable",
    "file_refused": "unreadable",
    "link_too_big": "too_big",
    "link_damaged": "unreadable",
    "link_refused": "unreadable",
    "read_only_link": "read_only",
    "save_unreadable": "unreadable",
    "save_unreadable_not_kept": "unreadable",
    # a player's message refused by the game master's page (web/live/host.js, plays.js: the
    # wire's `reason`, web/live/guest.js), the engine's refusal inside (``refused``) when it judged
    "live_refused": "live",
    "live_players_off": "live",
    "live_gm_refused": "live",
    "live_fight_switched": "live",
    "live_target": "live",
    "live_too_big": "live",
    "live_not_json": "live",
    "live_version": "live",
    "live_replayed": "live",
    "live_shape": "live",
    "live_rate": "live",
    "live_not_pj": "live",
    "live_taken": "live",
    "live_claim_refused": "live",
    "live_no_claim": "live",
    "live_muted": "live",
    "live_dismissed": "live",
    "live_gm_edited": "live",
}


#: The rule of RULES.md behind each reason that has one (R…, D…): the sentences say the
#: rule in words, for the game master; the code is for whoever looks it up (a refusal's
#: ``rule``, the board's verdicts, docs/ENGINE.md).
RULES: dict[str, str] = {
    "round_not_started": "R1",
    "hors_combat": "D6",
    "not_in_round": "D6, D7",
    "interrupt_own_phase": "R5.1, D22",
    "no_hope": "R5.2",
    "round_finished": "R2.4",
    "passed": "D5",
    "other_phase": "D22",
    "no_pi": "R2.3",
    "not_highest": "R2.1",
    "arrow_already_nocked": "D18",
    "no_arrow_nocked": "R4",
    "nothing_in_hand": "R4",
    "no_dodge_after_charge": "R4.2",
    "engaged_no_charge": "R4.2",
    "standing_to_run": "R4",
    "already_in_cover": "R4, D10",
    "already_prone": "R4",
    "already_standing": "R4",
    "same_posture": "R4",
    "aim_capped": "D17",
    "passing_off": "D5",
    "needs_bow": "R4",
    "needs_aimable": "R4.1",
    "needs_thrown": "R4",
    "needs_parry_weapon": "R4",
    "nothing_to_ready": "R4",
    "needs_melee": "R4",
    "weapon_already_in_hand": "R4",
    "drop_at_most": "R4",
    "item_not_in_hand": "R4",
    "too_far": "R4.2",
    "not_declarable": "D2",
    "rolls_hors_combat": "D6",
    "nobody_fights": "R1",
    "joins_next_round": "D7",
    "round_in_progress": "R2.4",
    "no_such_condition": "D25",
    "unknown_action": "R4",
    "use_interrupt": "R5",
    "use_act": "R5.3",
}

#: The value checks a sheet's fields can fail (:func:`engine.sheet.field_errors`): the
#: form words each next to its field, by the same sentence.
CHECKS = ("integer", "range", "number", "text", "text_length", "identifier", "object", "list", "too_many", "choice",
          "boolean", "required", "unknown_field", "duplicate", "unknown_weapon", "invisible", "half_character")

#: The languages of the catalogues (engine/lang/<code>.json).
LANGUAGES = ("fr", "en")

#: The params named after an engine's name of a field, an option, an action: quoted here,
#: worded by the page in its own labels.
NAMES = ("field", "option", "action")

_PARAM = re.compile(r"\{(\w+)\}")


def _sentences(text: str, name: str) -> dict[str, str]:
    """A catalogue's sentences by reason key, from its JSON ``text``; a file that is not an
    object of sentences is a mistake of the release, said with its ``name``.

    >>> _sentences('{"passed": "{name} a passé."}', "x.json")
    {'passed': '{name} a passé.'}
    """
    data = json.loads(text)
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(x, str) for k, x in data.items()):
        raise TypeError(f"{name} is not an object of sentences")
    return data


def _catalogue(language: str) -> dict[str, str]:
    return _sentences((Path(__file__).parent / "lang" / f"{language}.json").read_text(encoding="utf-8"),
                      f"engine/lang/{language}.json")


#: The sentences of each language, by reason key.
WORDS = {language: _catalogue(language) for language in LANGUAGES}
#: Each sentence cut at its params once: text, param, text… (the board words hundreds).
_PARTS = {language: {key: _PARAM.split(words) for key, words in WORDS[language].items()} for language in LANGUAGES}


def sentence(language: str, key: str, params: Mapping[str, Any]) -> str:
    """The sentence of ``key`` in ``language``, its params filled in (module docstring).

    >>> sentence("fr", "integer", {"field": "wounds", "low": 0, "high": 999})
    '« wounds » : un nombre entier, de 0 à 999.'
    >>> sentence("fr", "bad_log", {"number": 2, "refused": {"key": "passed", "params": {"name": "Orque"}}})
    'Commande n° 2 refusée par les règles : Orque a passé : plus de phase ce tour-ci.'
    """
    parts = _PARTS[language][key]
    if len(parts) == 1:
        return parts[0]
    said = list(parts)
    for i in range(1, len(parts), 2):
        said[i] = _param(language, parts[i], params[parts[i]])
    return "".join(said)


def _param(language: str, name: str, value: Any) -> str:
    if name in NAMES:
        return f"« {value} »"
    if type(value) is str and name != "why":  # most of them: a name, a weapon
        return value
    if name == "why":
        said = sentence(language, value, {})
        return said[:1].lower() + said[1:].removesuffix(".")
    if name == "refused":
        return sentence(language, value["key"], value["params"])
    if isinstance(value, list):
        return ", ".join(str(x) for x in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class Refusal(Exception):
    """A refusal: its ``key`` (:data:`REASONS`), which gives its ``code``, the ``params``
    its sentence names, and that sentence in French as its ``message``.

    >>> Refusal("hors_combat", name="Orque").code
    'not_allowed'
    """

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.code = REASONS[key]
        self.params = params
        self.message = sentence("fr", key, params)
        #: A sheet or a start of round refused: every field it refuses, as the form shows them
        #: (engine/sheet.py, engine/decide.py ``_every``).
        self.fields: list[dict[str, Any]] = []
        super().__init__(self.message)

    def field_json(self) -> dict[str, Any]:
        """The failed value check as the form shows it: ``{"field", "key", "params"}``.

        >>> from engine.values import integer
        >>> try:
        ...     integer("x", "characteristics.tir", low=0)
        ... except Refusal as r:
        ...     r.field_json()
        {'field': 'characteristics.tir', 'key': 'integer', 'params': {'low': 0, 'high': 999}}
        """
        params = dict(self.params)
        return {"field": params.pop("field", None), "key": self.key, "params": params}

    def as_json(self) -> dict[str, Any]:
        """The refusal as callers get it (``error``)."""
        out: dict[str, Any] = {"code": self.code, "message": self.message, "key": self.key, "params": self.params}
        if self.key in RULES:
            out["rule"] = RULES[self.key]
        if self.fields:
            out["fields"] = self.fields
        return out

    def answer(self) -> dict[str, Any]:
        """The refusal as a whole answer: ``{"ok": False, "error": ...}``."""
        return {"ok": False, "error": self.as_json()}
