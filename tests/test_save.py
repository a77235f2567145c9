"""The save format (engine/save.py): what the autosave, exported files and shared links
hold, how an old format is migrated, and how anything else is refused (never raised)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import engine
from engine import save
from engine.errors import CODES, Refusal
from engine.table import Table
from engine.wire import unpack
from tests.casts import CASTS
from tests.strategies import JSON

SAVES = Path(__file__).parent / "saves"


def fight() -> list[dict[str, Any]]:
    """A short resolved log: two fighters, a round, one action."""
    log = [{"type": "add_combatant", "combatant": CASTS["aldric"]}, {"type": "add_combatant", "combatant": CASTS["orque"]},
           {"type": "start_round", "rolls": {"aldric": 5, "orque": 2}},
           {"type": "act", "actor": "aldric", "action": "observer"}]
    result = engine.replay(log)
    assert result["ok"], result
    return list(result["commands"])


def test_a_save_reads_back_as_the_same_encounter() -> None:
    log = fight()
    result = save.read(save.dump(log, engine.view(engine.replay(log)["state"])))
    assert result["ok"], result
    assert result["commands"] == log
    assert result["state"] == engine.replay(log)["state"]
    assert result["summary"] == {"round": 1, "fighters": ["Aldric", "Orque"], "pj": 1}


def test_the_first_release_format_1_is_migrated() -> None:
    """tests/saves/format-1.json was written by the first release's autosave."""
    text = (SAVES / "format-1.json").read_text(encoding="utf-8")
    result = save.read(text)
    assert result["ok"], result
    assert result["format"] == 1
    assert result["state"] == engine.replay(json.loads(text)["commands"])["state"]
    assert save.migrate(json.loads(text)) == {"app": "riposte", "format": save.SAVE_FORMAT,
                                             "commands": json.loads(text)["commands"], "board": None}


def test_format_2_full_commands_are_migrated_and_replay_identically() -> None:
    """tests/saves/format-2.json was written by the release before the compact log."""
    text = (SAVES / "format-2.json").read_text(encoding="utf-8")
    old = json.loads(text)
    result = save.read(text)
    assert result["ok"], result
    assert result["format"] == 2
    assert result["commands"] == old["commands"]  # every resolved command as it was
    assert result["state"] == engine.replay(old["commands"])["state"]
    rewritten = json.loads(save.dump(result["commands"], old["board"]))
    assert rewritten["format"] == save.SAVE_FORMAT
    assert [c.get("engine_rolled") for c in rewritten["commands"] if c["type"] == "start_round"] == [["orque", "lyra"], True]
    assert save.read(save.dump(result["commands"]))["commands"] == old["commands"]


def test_the_log_is_kept_compact_and_read_back_exactly() -> None:
    """A start_round of 64 dice rolled by the engine names its fighters once, not twice."""
    rolled = {f"c{i}": 1 + i % 6 for i in range(64)}
    full = {"type": "start_round", "rolls": rolled, "engine_rolled": list(rolled)}
    some = {"type": "start_round", "rolls": rolled, "engine_rolled": ["c3", "c1"]}
    log = [full, {"type": "end_round"}, some]
    kept = json.loads(save.dump(log))["commands"]
    assert kept[0]["engine_rolled"] is True and kept[2] == some
    assert len(json.dumps(kept[0])) < 0.65 * len(json.dumps(full))
    assert save.parse(save.dump(log))["commands"] == log
    # "true" is a format-3 spelling only: an older save that says it is refused as before.
    older = json.dumps({"app": "riposte", "format": 2, "commands": [{"type": "start_round", "engine_rolled": True}]})
    assert save.parse(older)["commands"] == [{"type": "start_round", "engine_rolled": True}]


def test_every_older_format_has_a_migration_and_a_fixture() -> None:
    for n in range(1, save.SAVE_FORMAT):
        assert n in save.MIGRATIONS
        assert (SAVES / f"format-{n}.json").exists()


def refused(text: object, code: str) -> dict[str, Any]:
    result = save.read(text)
    assert result["ok"] is False, result
    assert result["error"]["code"] == code, result
    assert result["error"]["message"]
    return result


def test_a_newer_format_is_refused_and_says_to_update() -> None:
    result = refused(json.dumps({"app": "riposte", "format": save.SAVE_FORMAT + 1, "commands": []}), "newer_format")
    assert "plus récente" in result["error"]["message"]


def test_what_is_not_an_encounter_is_refused() -> None:
    for data in ([], {"format": 2, "commands": []}, {"app": "riposte", "format": "2", "commands": []},
                 {"app": "riposte", "format": 2, "commands": {}}, {"format": 0, "commands": []},
                 {"format": True, "commands": []}, "bonjour", 3):
        refused(json.dumps(data), "not_an_encounter")
    refused(None, "not_an_encounter")


def test_a_truncated_save_is_not_json() -> None:
    text = save.dump(fight())
    for cut in (1, len(text) // 3, len(text) - 1):
        refused(text[:cut], "not_json")


def test_deep_nesting_is_refused_before_parsing() -> None:
    """Parsing deep nesting can overflow the WebAssembly stack in the page: refused first."""
    for text in ("[" * 100_000 + "]" * 100_000, '{"app": "riposte", "format": 2, "commands": ' + "[" * 65 + "]" * 65 + "}"):
        result = refused(text, "not_json")
        assert "imbrication trop profonde" in result["error"]["message"]
    assert save.read(save.dump(fight(), engine.view(engine.replay(fight())["state"])))["ok"]  # a real save is far from it


def test_nesting_deeper_than_python_goes_is_too_deep(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within MAX_DEPTH, a smaller stack (Pyodide's) may still overflow: the same refusal."""
    def overflow(text: str) -> None:
        raise RecursionError

    monkeypatch.setattr(save.json, "loads", overflow)
    with pytest.raises(Refusal) as caught:
        save.loads("[[1]]")
    error = caught.value.as_json()
    assert (error["key"], error["params"]) == ("too_deep", {"max": save.MAX_DEPTH})
    assert f"plus de {save.MAX_DEPTH} niveaux" in error["message"]


def test_a_save_over_the_limit_is_refused_before_parsing() -> None:
    result = refused(" " * (save.MAX_CHARS + 1), "too_big")
    assert "ko" in result["error"]["message"]


def test_a_log_too_long_to_replay_is_refused_before_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted before any command is replayed: commands the rules would refuse at once
    (index 0) are never looked at."""
    log = [{"type": "pass", "actor": "nobody"}] * (save.MAX_COMMANDS + 1)
    result = refused(save.dump(log), "too_long")
    assert result["error"]["params"] == {"count": save.MAX_COMMANDS + 1, "max": save.MAX_COMMANDS}
    assert f"{save.MAX_COMMANDS + 1} commandes (au plus {save.MAX_COMMANDS}" in result["error"]["message"]
    assert refused(save.dump(log[:save.MAX_COMMANDS]), "bad_log")["error"]["params"]["index"] == 0
    calls: list[object] = []
    monkeypatch.setattr(save, "fold", lambda *a, **k: calls.append(a))
    refused(save.dump(log), "too_long")
    assert calls == []


def test_a_save_is_read_only_if_it_could_be_written_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same limits both ways: a log that fits alone but not with the board the
    autosave adds is refused on the way in."""
    log = fight()
    monkeypatch.setattr(save, "MAX_CHARS", len(save.dump(log)) + 10)
    result = refused(save.dump(log), "too_big")
    assert result["error"]["params"]["max_kb"] == save.MAX_CHARS // 1000


def test_a_save_is_read_only_if_its_log_resolved_could_be_written_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The autosave writes each command resolved (its dice and declarations filled in): a
    log that fits as it came, without dice, but not resolved, is refused on the way in."""
    log = [{"type": "add_combatant", "combatant": {"name": name}} for name in "AB"]
    log += [{"type": "start_round"}, {"type": "end_round"}] * 20
    read = save.read(save.dump(log))
    assert read["ok"], read
    written = save.checked_texts([save.command_text(c) for c in read["commands"]], save.painted(read["board"]))
    assert len(save.dump(log)) < len(written) - 1
    monkeypatch.setattr(save, "MAX_CHARS", len(written) - 1)
    refused(save.dump(log), "too_big")


def test_a_log_the_rules_refuse_names_the_command() -> None:
    log = fight()
    log.insert(3, {"type": "act", "actor": "orque", "action": "observer"})  # not Orque's turn (R2.1)
    error = refused(save.dump(log), "bad_log")["error"]
    assert (error["params"]["index"], error["params"]["number"]) == (3, 4)
    assert error["params"]["refused"] == {"key": "not_highest", "params": {}}
    assert error["message"] == ("Commande n° 4 refusée par les règles : "
                                "Ce n'est pas son tour : le plus haut total de P.I. agit.")


def test_html_in_names_is_kept_as_data() -> None:
    """Names are text: the save keeps them as they were typed (the page renders text)."""
    hostile = "<img src=x onerror=alert(1)>"
    log = [{"type": "add_combatant", "combatant": {"name": hostile, "side": "pj"}}]
    result = save.read(save.dump(log))
    assert result["summary"]["fighters"] == [hostile]


def read_or_refused(text: str) -> dict[str, Any]:
    """``save.read(text)``, which must not raise, checked against its contract: read, the
    log replays to the state given; refused, a stable code and a message."""
    result = save.read(text)
    if result["ok"] is True:
        assert result["state"] == engine.replay(result["commands"])["state"]
    else:
        assert result["ok"] is False, result
        assert CODES[result["error"]["code"]] == "save", result
        assert isinstance(result["error"]["message"], str) and result["error"]["message"], result
    return result


@given(st.text(max_size=200))
def test_any_text_is_read_or_refused(text: str) -> None:
    result = read_or_refused(text)
    try:
        json.loads(text)
    except ValueError:  # what is not JSON is refused as such
        assert result["ok"] is False and result["error"]["code"] == "not_json", result


@given(JSON)
def test_any_json_is_read_or_refused(data: Any) -> None:
    result = read_or_refused(json.dumps(data))
    if not isinstance(data, dict) or not isinstance(data.get("commands"), list):  # a save is an object with a log
        assert result["ok"] is False, result


@given(st.lists(JSON, max_size=5))
def test_any_command_list_in_a_save_is_read_or_refused(commands: list[Any]) -> None:
    result = read_or_refused(json.dumps({"app": "riposte", "format": 2, "commands": commands}))
    if result["ok"]:
        assert result["commands"] == engine.replay(commands)["commands"]
    else:
        assert result["error"]["code"] == "bad_log"


# --- the exact shape of what is written and the limits (saves are links: every byte counts)
def test_a_save_is_compact_json_that_keeps_accents_as_written() -> None:
    assert save.dump([]) == f'{{"app":"riposte","format":{save.SAVE_FORMAT},"commands":[],"board":null}}'
    text = save.dump([{"type": "add_combatant", "combatant": {"name": "Éloïse", "side": "pj"}}])
    assert "Éloïse" in text and ", " not in text and ": " not in text


def test_the_painted_board_keeps_the_cards_and_drops_the_verdicts() -> None:
    board = engine.view(engine.replay(fight())["state"])
    painted = save.painted(board)
    assert set(painted) == set(board) - {"catalogue", "targets"}
    for cid, fighter in board["combatants"].items():
        unpainted = {"actions", "declarations", "suggested_declaration", "likely", "never"}
        assert unpainted <= set(fighter)
        assert painted["combatants"][cid] == {k: x for k, x in fighter.items() if k not in unpainted}


def test_nesting_up_to_the_limit_is_read() -> None:
    deepest = "[" * save.MAX_DEPTH + "]" * save.MAX_DEPTH
    assert save.depth(deepest) == save.MAX_DEPTH
    assert save.loads(deepest) is not None
    refused(deepest, "not_an_encounter")  # parsed, then refused for what it is
    refused("[" + deepest + "]", "not_json")


def test_a_save_at_the_size_limit_is_read_and_one_character_more_is_not() -> None:
    text = save.dump(fight())
    padded = text[:-1] + " " * (save.MAX_CHARS - len(text)) + "}"
    assert len(padded) == save.MAX_CHARS
    assert save.read(padded)["ok"]
    result = refused(padded + " ", "too_big")
    assert "2001 ko (au plus 2000 ko)" in result["error"]["message"]  # rounded up


def test_a_number_of_5000_digits_is_said_as_such_not_as_nesting() -> None:
    """The trial's 5,000-digit number was reported as « imbrication trop
    profonde »; it is a number too long, with the limit Python converts."""
    result = refused('{"app": "riposte", "format": 2, "commands": [{"type": "add_combatant", "combatant": '
                     '{"name": "A", "value": ' + "7" * 5000 + "}}]}", "not_json")
    assert result["error"]["key"] == "number_too_long"
    assert "un nombre de plus de 4300 chiffres" in result["error"]["message"]


def test_the_summary_counts_the_pj() -> None:
    log = [{"type": "add_combatant", "combatant": CASTS[name]} for name in ("aldric", "orque", "lyra", "gobelin")]
    assert save.read(save.dump(log))["summary"] == {"round": 0, "fighters": ["Aldric", "Orque", "Lyra", "Gobelin"], "pj": 2}


def test_every_refusal_carries_a_message() -> None:
    for text, code in ((None, "not_an_encounter"), ("x" * (save.MAX_CHARS + 1), "too_big"), ("{", "not_json"),
                       ("[]", "not_an_encounter"), ('{"format": 9, "commands": []}', "newer_format")):
        message = refused(text, code)["error"]["message"]
        assert isinstance(message, str) and len(message) > 10


def nesting(value: Any) -> int:
    """How deeply arrays and objects nest in a parsed JSON value."""
    if isinstance(value, list):
        return 1 + max(map(nesting, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(nesting, value.values()), default=0)
    return 0


@given(JSON, st.booleans(), st.sampled_from([None, 1]))
def test_depth_is_the_nesting_of_any_json_text(value: Any, ascii_only: bool, indent: int | None) -> None:
    """Brackets and quotes inside strings (escaped or not) never count."""
    assert save.depth(json.dumps(value, ensure_ascii=ascii_only, indent=indent)) == nesting(value)


def test_depth_counts_nesting_after_closed_brackets() -> None:
    """Depth goes down as brackets close: the deepest point of ``[[]][[[]]]`` is 3."""
    assert save.depth("[[]][[[]]]") == 3
    assert save.depth('{"a": [], "b": {"c": [[]]}}') == 4


@pytest.mark.parametrize(("text", "message"), [
    ("", "Ce n'est pas du JSON lisible (ligne 1, colonne 1)."),
    ('{"format": 3,\n  "commands": [}', "Ce n'est pas du JSON lisible (ligne 2, colonne 16)."),
    ("[" * (save.MAX_DEPTH + 1) + "]" * (save.MAX_DEPTH + 1),
     f"Ce n'est pas du JSON lisible (imbrication trop profonde : plus de {save.MAX_DEPTH} niveaux)."),
])
def test_a_file_that_is_not_json_is_refused_in_french_with_where_it_stops(text: str, message: str) -> None:
    """The French page shows the engine's words as they are: no Python (English) inside."""
    error = save.parse(text)["error"]
    assert (error["code"], error["message"]) == ("not_json", message)


def as_the_browser_writes(text: str) -> str:
    """``text`` as a file or a link carries it: the page's string (UTF-16) encoded as UTF-8
    (``Blob``, ``TextEncoder``), where a lone surrogate becomes U+FFFD; read back."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace").encode("utf-8").decode("utf-8")


def call(table: Table, request: dict[str, Any]) -> dict[str, Any]:
    """``request`` as the page sends it (JSON text), the answer as the page reads it (its
    board put back: engine/wire.py)."""
    answer: dict[str, Any] = json.loads(table.call(json.dumps(request)))
    if isinstance(answer.get("board"), dict):
        answer["board"] = unpack(answer["board"])
    return answer


#: Any text, halves of a character (lone surrogates) often among its characters.
ANY_TEXT = st.text(st.characters(exclude_categories=()) | st.characters(categories=["Cs"]), min_size=1, max_size=12)


#: A name the engine may take: any text but halves of a character, with something that shows in it.
ANY_NAME = st.builds(lambda a, b: a + "x" + b, *[st.text(st.characters(exclude_categories=["Cs"]), max_size=6)] * 2)


@given(ANY_NAME, ANY_NAME, ANY_TEXT)
def test_every_accepted_name_exported_reimports_equal(name: str, weapon: str, notes: str) -> None:
    """A name (of a fighter, a weapon, a skill) or notes, from a file, a link or the
    clipboard: what the engine accepts, a file and a link carry exactly."""
    table = Table()
    sheet = {"name": name, "skills": {"w": 2}, "weapons": [{"id": "w", "name": weapon, "kind": "melee", "skill": "w"}]}
    added = call(table, {"op": "apply", "command": {"type": "add_combatant", "combatant": sheet}})
    assume(added["ok"])
    assert call(table, {"op": "apply", "command": {"type": "update_combatant", "id": "c1", "changes": {"notes": notes}}})["ok"]
    board = call(table, {"op": "show"})["board"]
    for op in ("export", "link"):
        text = call(table, {"op": op, "board": True} if op == "export" else {"op": op})["text"]
        again = Table()
        loaded = call(again, {"op": "load", "text": as_the_browser_writes(text)})
        assert loaded["ok"], loaded["error"]
        assert loaded["board"] == board, op


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-le", "surrogatepass")


@given(st.text(alphabet=st.sampled_from(["a", "é", "🗡", "𝄞", "\ud800", "\udc00"]), max_size=16), st.integers(0, 40))
def test_utf16_lengths_and_cuts_are_javascripts(text: str, units: int) -> None:
    """``save.utf16`` and ``save._cut`` count and cut as JavaScript does (UTF-16 code
    units), without the UTF-16 codec the page's Python does not ship: as that codec says."""
    assert save.utf16(text) == len(_utf16(text)) // 2
    assert _utf16(save._cut(text, units)) == _utf16(text)[:2 * units]
