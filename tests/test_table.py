"""The table session (engine/table.py): undo, redo, saves, new fights and the page's
one entry point, in CPython. The page's behaviour rests on these answers."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from strategies import MALFORMED, Playing

import engine
from engine import link as link_module
from engine import regles, save
from engine.journal import journal
from engine.table import MAX_REQUEST, Table
from tests.casts import CASTS

HERE = Path(__file__).parent
EMPTY = engine.view(engine.new_encounter())


def seeded() -> Table:
    """Two fighters in round 1, Aldric to act."""
    table = Table(rng=random.Random(1))
    for name in ("aldric", "orque"):
        assert table.apply({"type": "add_combatant", "combatant": CASTS[name]})["ok"]
    assert table.apply({"type": "start_round", "rolls": {"aldric": 6, "orque": 1}})["ok"]
    return table


def test_an_accepted_command_is_saved_and_can_be_undone() -> None:
    table = seeded()
    before = table.export(True)["text"]
    answer = table.apply({"type": "act", "actor": "aldric", "action": "observer"})
    assert answer["ok"], answer
    assert (answer["undo"], answer["redo"]) == (4, 0)
    assert answer["command"]["action"] == "observer"
    assert [e["type"] for e in answer["events"]][:1] == ["action_taken"]
    saved = save.follow(before, [answer["log"]])
    assert saved == table.export(True)["text"]
    reread = save.read(saved)
    assert reread["ok"], reread
    assert reread["board"] == answer["board"]
    assert json.loads(saved)["board"] == save.painted(answer["board"])


def test_a_refusal_changes_nothing_and_writes_nothing() -> None:
    table = seeded()
    before = table.export(True)["text"]
    answer = table.apply({"type": "act", "actor": "orque", "action": "observer"})
    assert answer["ok"] is False
    assert answer["error"]["code"] == "not_your_turn"
    assert "save" not in answer and "log" not in answer and "seq" not in answer
    assert (answer["undo"], answer["redo"]) == (3, 0)
    assert table.export(True)["text"] == before


def test_check_says_what_apply_would_say_and_changes_nothing() -> None:
    table = seeded()
    before = table.export(True)["text"]
    assert table.check({"type": "act", "actor": "aldric", "action": "observer"}) == {"ok": True, "error": None}
    assert table.check({"type": "act", "actor": "orque", "action": "observer"})["error"]["code"] == "not_your_turn"
    assert table.export(True)["text"] == before


def test_undo_then_redo_gives_back_the_same_fight() -> None:
    table = seeded()
    table.apply({"type": "act", "actor": "aldric", "action": "charge", "target": "orque", "distance": 4, "test_result": 2})
    after = table.export(True)["text"]
    undone = table.undo()
    assert undone["undone"]["action"] == "charge"
    assert (undone["undo"], undone["redo"]) == (3, 1)
    assert undone["board"]["combatants"]["aldric"]["charged"] is False
    redone = table.redo()
    assert (redone["undo"], redone["redo"]) == (4, 0)
    assert table.export(True)["text"] == after


def test_a_new_command_after_undo_clears_redo() -> None:
    table = seeded()
    table.apply({"type": "act", "actor": "aldric", "action": "observer"})
    table.undo()
    answer = table.apply({"type": "pass", "actor": "aldric"})
    assert answer["redo"] == 0
    assert "save" not in table.redo()


def test_undo_of_everything_is_the_empty_encounter() -> None:
    table = seeded()
    for _ in range(3):
        table.undo()
    answer = table.undo()  # one more than the log: nothing to undo, nothing changes
    assert answer["board"] == EMPTY
    assert (answer["undo"], answer["redo"]) == (0, 3)
    assert "save" not in answer


def test_load_of_export_is_the_identity() -> None:
    table = seeded()
    table.apply({"type": "act", "actor": "aldric", "action": "encocher_fleche"})
    text = table.export()["text"]
    board = table.show()["board"]
    other = Table()
    answer = other.load(text)
    assert answer["ok"], answer
    assert answer["board"] == board
    assert other.export()["text"] == text
    assert answer["summary"] == {"round": 1, "fighters": ["Aldric", "Orque"], "pj": 1}
    assert answer["redo"] == 0


def test_a_refused_save_leaves_the_fight_as_it_was() -> None:
    table = seeded()
    before = table.export(True)["text"]
    for text, code in (("{", "not_json"), ('{"format": 99, "commands": []}', "newer_format"),
                       ('{"app": "riposte", "format": 2, "commands": [{"type": "pass", "actor": "x"}]}', "bad_log"),
                       ("x" * (save.MAX_CHARS + 1), "too_big"), (42, "not_an_encounter")):
        answer = table.load(text)
        assert answer["ok"] is False and answer["error"]["code"] == code, answer
        assert "save" not in answer
        assert table.export(True)["text"] == before


def test_load_of_nothing_is_an_empty_fight() -> None:
    answer = seeded().load(None)
    assert answer["ok"] and answer["board"] == EMPTY and answer["undo"] == 0
    assert json.loads(answer["save"])["commands"] == []


def test_a_new_fight_with_the_party_keeps_the_pj_as_they_are() -> None:
    table = seeded()
    table.apply({"type": "update_combatant", "id": "aldric", "changes": {"wounds": 3}})
    answer = table.new(True)
    fighters = answer["board"]["combatants"]
    assert list(fighters) == ["aldric"]
    assert fighters["aldric"]["wounds"] == 3
    assert answer["board"]["round"] == 0 and answer["undo"] == 1 and answer["redo"] == 0
    assert seeded().new(False)["board"] == EMPTY


def after_a_fight() -> Table:
    """Aldric (edited to hold his sword and his dagger) and his copy, Orque; Aldric threw
    his dagger (D19) and dropped his sword, took 4 wounds, spent a point d'Espoir, a
    condition and a note."""
    table = Table(rng=random.Random(1))
    log = [{"type": "add_combatant", "combatant": CASTS["aldric"]}, {"type": "add_combatant", "combatant": CASTS["orque"]},
           {"type": "update_combatant", "id": "aldric", "changes": {"in_hand": ["epee", "dague"]}},
           {"type": "duplicate_combatant", "id": "aldric", "ids": ["copie"]},
           {"type": "start_round", "rolls": {"aldric": 6, "copie": 1, "orque": 1}},
           {"type": "act", "actor": "aldric", "action": "lancer_arme", "weapon": "dague", "target": "orque"},
           {"type": "act", "actor": "aldric", "action": "lacher_objet"},
           {"type": "update_combatant", "id": "aldric", "changes": {"wounds": 6, "hope": 1}},
           {"type": "add_condition", "id": "aldric", "condition": "étourdi"},
           {"type": "update_combatant", "id": "aldric", "changes": {"notes": "saigne"}}]
    for command in log:
        assert table.apply(command)["ok"], command
    return table


def test_a_new_fight_with_the_party_resets_what_the_fight_left_and_asks_about_wounds_and_espoir() -> None:
    """docs/TABLE.md, "A new fight with the party": the new fight gives each PJ
    its hands as its sheet set them last (the form's edit: sword and dagger, the thrown one
    back), standing, none of the fight's marks; wounds and Espoir as they are, or with
    ``restore`` as it joined the fight (a copy: as its original was when copied)."""
    table = after_a_fight()
    assert table.show()["board"]["combatants"]["aldric"]["in_hand"] == []  # the fight left him bare-handed
    kept = table.new(True)["board"]["combatants"]
    assert list(kept) == ["aldric", "copie"]  # the PJ only
    aldric = kept["aldric"]
    assert (aldric["in_hand"], aldric["wounds"], aldric["hope"]) == (["epee", "dague"], 6, 1)
    assert (aldric["conditions"], aldric["notes"], aldric["posture"], aldric["aim_bonus"], aldric["cover"]) == ([], "", "debout", 0, False)
    assert (kept["copie"]["in_hand"], kept["copie"]["wounds"], kept["copie"]["hope"]) == (["epee", "dague"], 2, 2)
    restored = after_a_fight().new(True, True)["board"]["combatants"]
    assert [(f["in_hand"], f["wounds"], f["hope"]) for f in restored.values()] == [(["epee", "dague"], 2, 2)] * 2


def test_a_new_fight_restores_a_copy_as_its_original_was_and_a_bare_sheet_as_it_came() -> None:
    """With ``restore``: a copy wounded after it was made comes back as its original joined
    (the copy's own sheet is the original's), and a PJ whose sheet gave no Espoir and no
    hands comes back with none, whatever the fight gave it."""
    table = after_a_fight()
    joined = {k: CASTS["aldric"][k] for k in ("wounds", "hope")}
    assert table.apply({"type": "update_combatant", "id": "copie", "changes": {"wounds": 5, "hope": 0}})["ok"]
    assert table.apply({"type": "add_combatant", "combatant": {"id": "brune", "name": "Brune", "side": "pj"}})["ok"]
    assert table.apply({"type": "update_combatant", "id": "brune", "changes": {"hope": 2, "wounds": 1}})["ok"]
    restored = table.new(True, True)["board"]["combatants"]
    assert {k: restored["copie"][k] for k in joined} == joined
    assert (restored["brune"]["in_hand"], restored["brune"]["wounds"], restored["brune"]["hope"]) == ([], 0, 0)


def test_the_attackers_are_those_of_this_round() -> None:
    """Whom an interruption sheet names as the attacker (D16's ``against``): who last
    attacked that fighter this round, a shot and a charge included, never one of a round
    before nor a move."""
    table = seeded()
    answer = table.apply({"type": "act", "actor": "aldric", "action": "attaque_melee", "target": "orque"})
    assert answer["attackers"] == {"orque": "aldric"}
    answer = table.apply({"type": "act", "actor": "orque", "action": "se_deplacer"})
    assert answer["attackers"] == {"orque": "aldric"}
    table.apply({"type": "end_round"})
    assert table.show()["attackers"] == {"orque": "aldric"}  # answerable until the next round (D20)
    assert table.apply({"type": "start_round", "rolls": {"aldric": 6, "orque": 1}})["attackers"] == {}


def test_the_first_release_save_opens_in_a_table() -> None:
    text = (HERE / "saves" / "format-1.json").read_text(encoding="utf-8")
    answer = Table().load(text)
    assert answer["ok"], answer
    assert json.loads(answer["save"])["format"] == save.SAVE_FORMAT
    assert answer["board"] == save.read(text)["board"]


# --- the page's one entry point ---------------------------------------------------------
def call(table: Table, request: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(table.call(request if isinstance(request, str) else json.dumps(request)))
    return out


@pytest.mark.parametrize("request_text", ["", "[", "[1]", "null", '"apply"', '{"op": 3}', '{"op": "__init__"}',
                                          '{"op": "_commit"}', "[" * 100_000, "x" * (3 * save.MAX_CHARS + 1)])
def test_an_unreadable_request_is_refused_and_changes_nothing(request_text: str) -> None:
    table = seeded()
    before = table.export(True)["text"]
    answer = call(table, request_text)
    assert answer["ok"] is False and answer["error"]["code"] == "bad_command", answer
    assert answer["board"]["round"] == 1
    assert table.export(True)["text"] == before


def test_calls_by_name_reach_the_table() -> None:
    table = seeded()
    assert call(table, {"op": "apply", "command": {"type": "pass", "actor": "aldric"}})["undo"] == 4
    assert call(table, {"op": "undo"})["redo"] == 1
    assert call(table, {"op": "journal"})["entries"][0]["kind"] == "joined"
    assert call(table, {"op": "inspect", "text": table.export()["text"]})["summary"]["round"] == 1
    assert json.loads(call(table, {"op": "export", "board": True})["text"])["board"]["round"] == 1
    assert json.loads(call(table, {"op": "export"})["text"])["board"] is None
    assert json.loads(table.call('{"op": "undo"}', boot="cold"))["boot"] == "cold"


def test_a_fault_of_the_table_answers_internal(monkeypatch: pytest.MonkeyPatch) -> None:
    table = seeded()

    def broken(*args: Any) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(table, "journal", broken)
    answer = call(table, {"op": "journal"})
    assert answer == {"ok": False, "error": {"code": "internal", "message": "Erreur interne du moteur : KeyError: 'boom'.",
                                             "key": "internal", "params": {"error": "KeyError: 'boom'"}}}


@pytest.mark.parametrize("players", [False, True])
def test_a_fault_of_a_rule_in_the_journal_answers_internal(monkeypatch: pytest.MonkeyPatch, players: bool) -> None:
    """A rule that fails while the journal replays the log is a fault (the page's reload),
    not a journal that ends early; the fight is kept as it was."""
    import engine.journal as journal_module

    table = seeded()
    before = table.export(True)["text"]

    def broken(*args: Any) -> None:
        raise RuntimeError("a rule's bug")

    monkeypatch.setattr(journal_module, "step", broken)
    answer = call(table, {"op": "journal", "players": players})
    assert (answer["ok"], answer["error"]["code"], answer["error"]["params"]) == (
        False, "internal", {"error": "RuntimeError: a rule's bug"})
    assert table.export(True)["text"] == before


def test_answers_are_ascii_json_even_with_lone_surrogates() -> None:
    text = seeded().call('{"op": "apply", "command": {"type": "pass", "actor": "\\ud800"}}')
    assert text.isascii()
    assert json.loads(text)["error"]["code"] == "unknown_combatant"


# --- properties --------------------------------------------------------------------------
class Session(Playing):
    """Random play at the table, with undo, redo, saves reopened and garbage sent."""

    @initialize()
    def start(self) -> None:
        self.table = Table(rng=random.Random(0))
        self.last = self.table.load(None)
        self.history: list[str] = []  # the export after each accepted command, oldest first

    def remember(self, answer: dict[str, Any]) -> None:
        if answer["ok"] and "command" in answer:
            self.history = [*self.history[: answer["undo"] - 1], self.table.export(True)["text"]]
        self.last = answer

    @rule(command=MALFORMED)
    def garbage(self, command: Any) -> None:
        before = self.table.export(True)["text"]
        answer = self.table.apply(command)
        if not answer["ok"]:
            assert self.table.export(True)["text"] == before
            assert "save" not in answer
        self.remember(answer)

    @precondition(lambda self: self.last["undo"] > 0)
    @rule()
    def undo_then_redo_is_the_identity(self) -> None:
        before = self.table.export(True)["text"]
        undone = self.table.undo()
        assert undone["undo"] == self.last["undo"] - 1
        if undone["undo"] >= 1:
            assert self.table.export(True)["text"] == self.history[undone["undo"] - 1]
        redone = self.table.redo()
        assert redone["ok"], redone
        assert self.table.export(True)["text"] == before
        self.last = redone

    @rule()
    def reopen_the_export(self) -> None:
        text = self.table.export()["text"]
        board = self.table.show()["board"]
        other = Table()
        answer = other.load(text)
        assert answer["ok"], answer
        assert answer["board"] == board
        assert other.export()["text"] == text

    @invariant()
    def the_save_reads_back_as_the_board(self) -> None:
        if "save" in self.last:
            reread = save.read(self.last["save"])
            assert reread["ok"], reread
            assert reread["board"] == self.last["board"]

    @precondition(lambda self: self.last["undo"] > 0)
    @rule()
    def undo_everything_then_redo_everything(self) -> None:
        before = self.table.export(True)["text"]
        count = self.last["undo"]
        for _ in range(count):
            answer = self.table.undo()
        assert answer["board"] == EMPTY and answer["undo"] == 0 and answer["redo"] == count
        for _ in range(count):
            answer = self.table.redo()
            assert answer["ok"], answer
        assert self.table.export(True)["text"] == before
        self.last = answer


TestSession = Session.TestCase


# --- limits: whatever is accepted can be read again ---------------------------
def big_fight(fighters: int, rounds: int) -> Table:
    """``fighters`` from the casts (numbered names), then ``rounds`` start/end pairs."""
    names = list(CASTS)
    log: list[dict[str, Any]] = [
        {"type": "add_combatant", "combatant": {**{k: x for k, x in CASTS[names[i % len(names)]].items() if k != "id"},
                                                "name": f"Soldat {i + 1}"}} for i in range(fighters)]
    log += [{"type": "start_round"}, {"type": "end_round"}] * rounds
    table = Table(rng=random.Random(7))
    assert table.load(save.dump(log))["ok"]  # the dice resolved as taps would
    return table


def test_a_fight_of_30_fighters_and_300_rounds_saves_reloads_and_travels() -> None:
    table = big_fight(30, 300)
    autosave = save.follow(table.export(True)["text"], [table.apply({"type": "start_round"})["log"]])
    assert len(autosave) <= save.MAX_CHARS
    reloaded = Table()
    assert reloaded.load(autosave)["ok"]
    assert reloaded.show()["board"] == table.show()["board"]
    for with_board in (True, False):  # the exported file, the share link
        text = table.export(with_board)["text"]
        assert reloaded.inspect(text)["ok"]
        assert Table().load(text)["board"] == table.show()["board"]


def test_the_65th_fighter_is_refused_where_it_is_added() -> None:
    table = big_fight(64, 0)
    answer = table.apply({"type": "add_combatant", "combatant": {"name": "Renfort"}})
    assert not answer["ok"] and answer["error"]["code"] == "too_many_fighters"
    assert "64" in answer["error"]["message"] and "save" not in answer
    assert table.check({"type": "add_combatant", "combatant": {"name": "Renfort"}})["error"]["code"] == "too_many_fighters"
    assert table.apply({"type": "start_round"})["ok"]  # 64 can still play
    log = json.loads(table.export()["text"])["commands"]
    bad = [*log[:64], {"type": "add_combatant", "combatant": {"name": "Renfort"}}]
    answer = Table().load(save.dump(bad))  # the same limit from a file or a link
    assert answer["error"]["code"] == "bad_log" and answer["error"]["params"]["refused"]["key"] == "too_many_fighters"


def test_a_command_past_the_longest_log_is_refused_and_the_fight_stays_readable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(save, "MAX_COMMANDS", 12)
    table = big_fight(2, 5)  # 12 commands
    text = table.export(True)["text"]
    for command in ({"type": "start_round"}, {"type": "add_combatant", "combatant": {"name": "Renfort"}}):
        assert table.check(command)["error"]["code"] == "too_long"
        answer = table.apply(command)
        assert not answer["ok"] and answer["error"]["code"] == "too_long" and "save" not in answer
        assert "au plus 12" in answer["error"]["message"]
    assert table.undo()["ok"] and table.redo()["ok"]  # undo then redo is not a new command
    assert table.export(True)["text"] == text and Table().load(text)["ok"]


def test_a_command_that_would_make_the_save_too_big_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    table = big_fight(2, 0)
    size = len(table.export(True)["text"])
    monkeypatch.setattr(save, "MAX_CHARS", size + 50)  # room for a short command, not a sheet
    assert table.apply({"type": "end_round"})["ok"]
    answer = table.apply({"type": "add_combatant", "combatant": CASTS["lyra"]})
    assert not answer["ok"] and answer["error"]["code"] == "too_big" and "save" not in answer
    assert len(table.show()["board"]["combatants"]) == 2
    assert Table().load(table.export(True)["text"])["ok"]


def test_a_save_that_would_grow_too_big_once_reopened_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A log alone (a link) that fits, but not once saved with its board: refused on the
    way in, by inspect as by load, so no autosave is ever written that cannot be read."""
    table, other = big_fight(4, 1), seeded()
    before = other.show()
    link = table.export(False)["text"]
    monkeypatch.setattr(save, "MAX_CHARS", len(link) + 10)
    assert other.inspect(link)["error"]["code"] == "too_big"
    answer = other.load(link)
    assert answer["error"]["code"] == "too_big" and "save" not in answer
    assert other.show() == before


def test_a_short_link_of_a_huge_log_is_refused_before_any_replay() -> None:
    """64 fighters and 20,000 start/end pairs, dice left to the engine, fit in
    a 4 KB link; replaying them would stop the engine. The log is counted first."""
    commands = [{"type": "add_combatant", "combatant": {"name": f"F{i}"}} for i in range(64)]
    commands += [{"type": "start_round"}, {"type": "end_round"}] * 20_000
    text = save.dump(commands)
    assert len(text) <= save.MAX_CHARS  # the size alone does not refuse it
    table = seeded()
    before = table.show()
    for answer in (table.inspect(text), table.load(text), save.parse(text)):
        assert answer["error"]["code"] == "too_long", answer
        assert f"{len(commands)} commandes (au plus {save.MAX_COMMANDS}" in answer["error"]["message"]
    assert table.show() == before
    assert Table().load(save.dump(commands[:save.MAX_COMMANDS + 1]))["error"]["code"] == "too_long"


# --- what each answer holds, exactly (the page reads these keys) -------------------------
def test_inspect_tells_what_a_save_holds_and_opens_nothing() -> None:
    table = seeded()
    before = table.export(True)["text"]
    text = Table().load(save.dump([{"type": "add_combatant", "combatant": CASTS["lyra"]}]))["save"]
    assert table.inspect(text) == {"ok": True, "summary": {"round": 0, "fighters": ["Lyra"], "pj": 1}, "error": None}
    refused = table.inspect("{")
    assert (refused["ok"], refused["summary"], refused["error"]["code"]) == (False, None, "not_json")
    assert table.export(True)["text"] == before


def test_the_journal_of_a_table_is_that_of_its_log() -> None:
    table = seeded()
    table.apply({"type": "act", "actor": "aldric", "action": "observer"})
    log = json.loads(table.export()["text"])["commands"]
    assert table.journal() == {"ok": True, "entries": journal(log)}
    assert [e["kind"] for e in table.journal()["entries"]] == ["joined", "joined", "round_started", "action"]


def test_a_new_fight_is_empty_unless_the_party_is_asked_for() -> None:
    answer = seeded().new()
    assert answer["ok"] and answer["board"] == EMPTY and answer["undo"] == 0
    assert json.loads(answer["save"])["commands"] == []


def test_the_dice_come_from_the_table_s_own_source() -> None:
    """R1.2: the engine rolls the dice nobody typed, from the table's random source, so a
    seeded table rolls the same dice each time (the end-to-end tests rely on it)."""
    fighters = [{"type": "add_combatant", "combatant": {"name": f"F{i}", "side": "pnj"}} for i in range(8)]
    rolls = []
    for _ in range(2):
        table = Table(rng=random.Random(7))
        for command in fighters:
            table.apply(command)
        rolls.append(table.apply({"type": "start_round"})["command"]["rolls"])
    expected = random.Random(7)
    assert rolls[0] == rolls[1] == {f"c{i + 1}": expected.randint(1, 6) for i in range(8)}


def test_checking_a_command_never_moves_the_table_s_dice() -> None:
    """R1.2: the page checks a round's start before sending it; the dice the engine then
    rolls are those it would have rolled unchecked (a seeded fight replays the same)."""
    fighters = [{"type": "add_combatant", "combatant": {"name": f"F{i}", "side": "pnj"}} for i in range(8)]
    rolls = []
    for checks in (0, 3):
        table = Table(rng=random.Random(7))
        for command in fighters:
            table.apply(command)
        for _ in range(checks):
            assert table.check({"type": "start_round"})["ok"]
        rolls.append(table.apply({"type": "start_round"})["command"]["rolls"])
    assert rolls[0] == rolls[1]


def test_a_save_with_dice_left_to_roll_is_opened_with_the_table_s_dice() -> None:
    fighters = [{"type": "add_combatant", "combatant": {"name": f"F{i}", "side": "pnj"}} for i in range(8)]
    text = save.dump([*fighters, {"type": "start_round"}])
    saves = [Table(rng=random.Random(3)).load(text)["save"] for _ in range(2)]
    expected = random.Random(3)
    assert saves[0] == saves[1]
    assert json.loads(saves[0])["commands"][-1]["rolls"] == {f"c{i + 1}": expected.randint(1, 6) for i in range(8)}


def test_undo_writes_the_save_of_the_fight_it_goes_back_to() -> None:
    table = seeded()
    before = table.export(True)["text"]
    done = table.apply({"type": "act", "actor": "aldric", "action": "observer"})
    undone = table.undo()
    assert (undone["log"]["from"], undone["log"]["add"]) == (3, "")
    assert save.follow(before, [done["log"], undone["log"]]) == before
    assert json.loads(save.follow(before, [done["log"], undone["log"]]))["board"] == save.painted(undone["board"])


def test_the_autosave_reopened_as_it_is_is_not_sent_back() -> None:
    """The page's start: the autosave, loaded with ``kept``, answers without a
    save text when it would write the same one; a save written otherwise (an older form,
    no board) is sent back to be written; a file or link (no ``kept``) always is."""
    text = seeded().export(True)["text"]
    answer = Table().load(text, kept=True)
    assert answer["ok"] and "save" not in answer and answer["board"] == seeded().show()["board"]
    assert Table().load(text)["save"] == text
    log_only = seeded().export()["text"]
    assert Table().load(log_only, kept=True)["save"] == text
    called = json.loads(Table().call(json.dumps({"op": "load", "text": text, "kept": True})))
    assert called["ok"] and "save" not in called


def test_export_is_the_log_alone_unless_the_board_is_asked_for() -> None:
    table = seeded()
    link = table.export()
    assert link["ok"] is True and json.loads(link["text"])["board"] is None
    assert json.loads(table.export(True)["text"])["board"] == save.painted(table.show()["board"])


def test_a_request_of_any_type_is_answered_not_raised() -> None:
    for request in (None, 42, b'{"op": "show"}', {"op": "show"}):
        answer = json.loads(seeded().call(request))
        assert answer["ok"] is False and answer["error"]["code"] == "bad_command"


def test_a_request_up_to_the_limit_is_read() -> None:
    head = '{"op": "show", "pad": "'
    request = head + "x" * (MAX_REQUEST - len(head) - 2) + '"}'
    assert len(request) == MAX_REQUEST
    assert json.loads(seeded().call(request))["ok"] is True
    assert json.loads(seeded().call(request[:-2] + 'x"}'))["error"]["code"] == "bad_command"


def test_refused_requests_say_why() -> None:
    unreadable = call(seeded(), "[1]")["error"]
    assert unreadable["code"] == "bad_command" and "objet JSON" in unreadable["message"]
    unknown = call(seeded(), {"op": "voler"})["error"]
    assert unknown["code"] == "bad_command" and "'voler'" in unknown["message"]


def test_what_a_refusal_quotes_of_a_request_is_cut_short() -> None:
    error = call(seeded(), {"op": "v" * 100})["error"]
    assert error["params"]["got"] == "'" + "v" * 36 + "..."
    assert error["message"] == f"Opération inconnue : {error['params']['got']}."


def test_a_fault_is_told_in_at_most_300_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    table = seeded()

    def broken(*args: Any) -> None:
        raise ValueError("x" * 1000)

    monkeypatch.setattr(table, "journal", broken)
    assert call(table, {"op": "journal"})["error"]["params"] == {"error": "ValueError: " + "x" * 288}


def test_each_answer_names_the_command_undo_and_redo_would_take() -> None:
    """The page labels « Annuler » and « Rétablir » with them."""
    table = seeded()
    observed = table.apply({"type": "act", "actor": "aldric", "action": "observer"})
    assert observed["last"] == {"type": "act", "actor": "aldric", "action": "observer"} and observed["next"] is None
    undone = table.undo()
    assert undone["last"]["type"] == "start_round" and undone["next"] == observed["last"]
    assert table.redo()["last"] == observed["last"]
    assert Table().show()["last"] is None


def test_each_answer_says_the_last_action_of_each_fighter() -> None:
    """Interruptions are not the fighter's usual action; undo forgets what it takes back."""
    table = seeded()
    assert table.show()["used"] == {}
    assert table.apply({"type": "act", "actor": "aldric", "action": "observer"})["used"] == {"aldric": "observer"}
    answer = table.apply({"type": "interrupt", "actor": "orque", "action": "parer", "against": "aldric"})
    assert answer["ok"] and answer["used"] == {"aldric": "observer"}
    assert table.undo()["used"] == {"aldric": "observer"}
    assert table.undo()["used"] == {}


def rounds_table(rounds: int, every: int = 10) -> Table:
    """Two fighters and ``rounds`` rounds started and ended: 2 + 2 × rounds commands."""
    table = Table(random.Random(1), every=every)
    for name in ("A", "B"):
        table.apply({"type": "add_combatant", "combatant": {"name": name}})
    for _ in range(rounds):
        table.apply({"type": "start_round"})
        table.apply({"type": "end_round"})
    return table


def test_a_command_refused_past_a_checkpoint_is_named_by_its_place_in_the_whole_log() -> None:
    data = json.loads(rounds_table(12).export()["text"])
    data["commands"][17] = {"type": "pass", "actor": "zz"}
    other = Table(every=10)
    error = other.load(json.dumps(data))["error"]
    assert (error["code"], error["params"]["index"], error["params"]["refused"]["key"]) == ("bad_log", 17, "unknown_combatant")
    assert error["message"].startswith("Commande n° 18 refusée par les règles")
    assert other.show()["board"]["combatants"] == {}


def test_a_log_that_grows_too_big_over_several_checkpoints_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The size is counted over the whole replay, not one stretch between checkpoints."""
    text = rounds_table(12).export(False)["text"]
    commands = json.loads(text)["commands"]
    longest_stretch = max(sum(len(save.command_text(c)) for c in commands[i:i + 10]) for i in range(0, len(commands), 10))
    monkeypatch.setattr(save, "MAX_CHARS", longest_stretch + 1)
    answer = Table(every=10).load(text)
    assert answer["error"]["code"] == "too_big"


def test_a_load_hands_over_its_last_checkpoint_unless_it_came_from_it() -> None:
    """The autosave keeps the last checkpoint beside the log: a load that replayed the log,
    or started from an older checkpoint, hands over the last one; a load that started from
    that very checkpoint has nothing new to keep, until the fight reaches the next one."""
    saved = json.loads(rounds_table(12).export()["text"])  # 26 commands: checkpoints at 10 and 20
    text = json.dumps(saved)
    replayed = Table(every=10).load(text)
    assert json.loads(replayed["checkpoint"])["at"] == 20
    restored = Table(every=10)
    answer = restored.load(text, replayed["checkpoint"])
    assert answer["ok"] and "checkpoint" not in answer
    assert "checkpoint" not in restored.apply({"type": "start_round"})  # 27
    assert "checkpoint" not in restored.apply({"type": "end_round"})  # 28
    assert "checkpoint" not in restored.apply({"type": "start_round"})  # 29
    assert json.loads(restored.apply({"type": "end_round"})["checkpoint"])["at"] == 30
    first_15 = Table(every=10).load(json.dumps({**saved, "commands": saved["commands"][:15]}))["checkpoint"]
    assert json.loads(first_15)["at"] == 10
    from_older = Table(every=10).load(text, first_15)
    assert from_older["ok"] and json.loads(from_older["checkpoint"])["at"] == 20


def test_check_of_a_sheet_change_names_the_fields_it_would_refuse() -> None:
    """The fighter form asks before it sends (web/views/cast-view.js): the changed fields only."""
    table = Table()
    table.apply({"type": "add_combatant", "combatant": {"name": "A"}})
    answer = table.check({"type": "update_combatant", "id": "c1", "changes": {"wounds": -1, "hope": 2}})
    assert answer["fields"] == [{"field": "wounds", "key": "range", "params": {"low": 0, "high": 999}}]
    assert table.check({"type": "update_combatant", "id": "c1", "changes": {"hope": 2}})["fields"] == []
    assert "fields" not in table.check({"type": "pass", "actor": "c1"})


def test_the_longest_log_is_taken_whole_and_the_next_command_is_refused_with_its_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(save, "MAX_COMMANDS", 13)
    table = big_fight(2, 5)  # 12 commands
    assert table.apply({"type": "start_round"})["ok"]  # the 13th: at the limit, taken
    error = table.apply({"type": "end_round"})["error"]
    assert error["code"] == "too_long"
    assert (error["key"], error["params"]) == ("fight_too_long", {"count": 14, "max": 13})
    assert error["message"] == ("Combat trop long : 14 commandes (au plus 13, pour qu'il se rejoue vite). "
                                "Exportez-le (menu Partie), puis commencez un nouveau combat avec le groupe.")


def test_the_biggest_fight_is_taken_whole_and_the_next_command_is_refused_with_its_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fight whose save would pass MAX_CHARS refuses the command that would make it so,
    and says what to do (export it, start anew with the party); the fight stays as it was."""
    twin = big_fight(2, 5)  # the same dice
    assert twin.apply({"type": "start_round"})["ok"]
    at_the_limit = len(twin.export(True)["text"])
    table = big_fight(2, 5)
    text = table.export(True)["text"]
    monkeypatch.setattr(save, "MAX_CHARS", at_the_limit - 1)
    error = table.apply({"type": "start_round"})["error"]
    assert (error["code"], error["key"]) == ("too_big", "fight_too_big")
    assert error["message"].endswith("Exportez-le (menu Partie), puis commencez un nouveau combat avec le groupe.")
    assert table.export(True)["text"] == text
    monkeypatch.setattr(save, "MAX_CHARS", at_the_limit)
    assert table.apply({"type": "start_round"})["ok"]  # exactly at the limit: taken
    assert len(table.export(True)["text"]) == at_the_limit


@pytest.mark.parametrize("at", [0, -10, 5, 30, "10"])
def test_a_checkpoint_at_no_place_of_the_log_is_ignored(at: Any) -> None:
    """A checkpoint is used only at a multiple of the interval within the log; otherwise
    the log is replayed (and the load still right)."""
    saved = json.loads(rounds_table(9).export()["text"])  # 20 commands
    text = json.dumps(saved)
    good = json.loads(Table(every=10).load(text)["checkpoint"])
    assert good["at"] == 20
    other = Table(every=10)
    answer = other.load(text, json.dumps({**good, "at": at}))
    assert answer["ok"] and json.loads(answer["checkpoint"])["at"] == 20  # replayed, so handed over again
    restored = Table(every=10)
    assert "checkpoint" not in restored.load(text, json.dumps(good))  # the one at the very end is used


def test_the_form_s_limits_and_a_link_are_answers_like_the_others() -> None:
    """The page reads every answer's ``ok`` first (web/infra/session.js): these too."""
    table = rounds_table(1)
    assert table.limits() == {"ok": True, "limits": {"name": 60, "value": {"low": 0, "high": 999},
                                                     "initiative_bonus": {"low": -999, "high": 999}, "weapons": 16,
                                                     "notes": 120, "condition": 40, "items": 16, "fighters": 64,
                                                     "copies": {"low": 1, "high": 64}, "commands": 12_000,
                                                     "chars": 2_000_000, "file": 20_000_000,
                                                     "regles": regles.screen(), "rule_sets": 200_000, "invitations": 8}}
    assert [f["name"] for f in table.limits()["limits"]["regles"]] == list(regles.FIELDS)
    answer = table.link()
    assert answer["ok"] is True
    assert link_module.unpack(answer["text"]) == list(save.parse(table.export(False)["text"])["commands"])


def test_a_long_replay_says_how_far_it_is() -> None:
    """Opening, inspecting and undoing below a restored checkpoint tell ``pulse`` as they
    go (the worker's signs of life, web/boot/bridge.py), the last time with all done."""
    source = Table(rng=random.Random(3))
    log = [{"type": "add_combatant", "combatant": {"name": name}} for name in ("Aldric", "Orque")]
    log += [{"type": "start_round"}, {"type": "end_round"}] * 59
    for command in log:  # 120 commands
        assert source.apply(command)["ok"]
    text = source.export(True)["text"]
    table = Table()
    seen: list[tuple[int, int]] = []
    table.pulse = lambda done, total: seen.append((done, total))
    assert table.load(text)["ok"]
    assert seen == [(50, 120), (100, 120), (120, 120)]
    seen.clear()
    assert table.inspect(text)["ok"]
    assert seen == [(50, 120), (100, 120), (120, 120)]
    seen.clear()
    checkpoint = table.load(text)["checkpoint"]
    seen.clear()
    table.load(text, checkpoint)  # from the checkpoint at 100: the 20 after it replayed
    assert seen == [(120, 120)]
    seen.clear()
    for _ in range(21):  # below the checkpoint: the ones before it rebuilt
        assert table.undo()["ok"]
    assert seen == [(1, 1)]


# --- the page keeps the save by its changes ---------------------------------------------
NAMES = st.sampled_from(["Aldric", "Épée-de-Lune", "🗡 Lame", "\ud800 moitié", "\u202eRenversé", "x" * 60])
COMMANDS = st.one_of(
    st.builds(lambda name: {"type": "add_combatant", "combatant": {"name": name}}, NAMES),
    st.just({"type": "start_round"}), st.just({"type": "end_round"}),
    st.builds(lambda n: {"type": "pass", "actor": f"c{n}"}, st.integers(1, 3)),
    st.builds(lambda n: {"type": "remove_combatant", "id": f"c{n}"}, st.integers(1, 3)),
)


class KeptByChanges(RuleBasedStateMachine):
    """What the page keeps of the open fight (web/infra/open-fight.js): the last whole save
    text the table handed over, then each answer's ``log``. Applied in order to that text
    (:func:`engine.save.follow`), they always give exactly the save text of the fight,
    through new commands, undo, redo, a fight opened or made, a revert, and the page
    composing them into a new whole text now and then (its compaction)."""

    @initialize()
    def start(self) -> None:
        self.table = Table(rng=random.Random(0), every=3)  # checkpoints often: undo crosses them
        answer = self.table.load(None)
        self.whole, self.changes, self.seq = answer["save"], [], answer["seq"]
        self.either = False  # reverted: the page may hold either fight until the next whole text

    def took(self, answer: dict[str, Any]) -> None:
        if "seq" not in answer:
            assert "save" not in answer and "log" not in answer
            return
        assert answer["seq"] == self.seq + 1  # each answer to a change follows the one before
        self.seq = answer["seq"]
        if "save" in answer:
            assert "log" not in answer
            self.whole, self.changes, self.either = answer["save"], [], False
        else:
            assert not self.either, "after a revert, the next change hands over the whole save"
            self.changes.append(answer["log"])

    @rule(command=COMMANDS)
    def play(self, command: dict[str, Any]) -> None:
        self.took(self.table.apply(command))

    @rule()
    def undo(self) -> None:
        self.took(self.table.undo())

    @rule()
    def redo(self) -> None:
        self.took(self.table.redo())

    @rule(party=st.booleans())
    def another_fight(self, party: bool) -> None:
        self.took(self.table.new(party))

    @rule()
    def reopened(self) -> None:
        self.took(self.table.load(self.table.export(True)["text"]))

    @rule()
    def reverted(self) -> None:
        answer = self.table.revert()
        self.took(answer)
        self.either = self.either or answer["ok"]

    @rule()
    def asked_whole(self) -> None:
        self.took(self.table.whole())

    @rule()
    def compacted(self) -> None:
        self.whole, self.changes = save.follow(self.whole, self.changes), []

    @invariant()
    def the_changes_give_the_save(self) -> None:
        shown = self.table.show()["board"]
        expected = save.dump_texts([save.command_text(c) for c in self.table._log], save.painted(shown))
        assert expected == self.table.export(True)["text"]
        assert self.either or save.follow(self.whole, self.changes) == expected


TestKeptByChanges = KeptByChanges.TestCase
