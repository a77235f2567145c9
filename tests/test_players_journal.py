"""What the engine gives the live table for its players (D26): fighters hidden
from them, the commands they sent from their phones, and the journal as they may see it
(engine/journal.py ``Players``, engine/table.py ``Table.journal``)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, precondition, rule
from strategies import Playing, options_for, sheets

import engine
from engine import save
from engine.journal import Players, journal
from engine.players import PNJ_DETAILS, SHOWN
from engine.table import Table
from tests.casts import CASTS
from tests.long_fight import long_fight


def table(*commands: dict[str, Any]) -> Table:
    t = Table(rng=random.Random(1))
    for command in commands:
        answer = t.apply(command)
        assert answer["ok"], answer
    return t


ALDRIC = {"type": "add_combatant", "combatant": CASTS["aldric"]}
ORQUE = {"type": "add_combatant", "combatant": CASTS["orque"]}
HIDDEN = {"type": "add_combatant", "combatant": {**CASTS["gobelin"], "id": "embuscade", "name": "Embusqué", "hidden": True}}
START = {"type": "start_round", "rolls": {"aldric": 6, "orque": 1, "embuscade": 3}}


def names(entries: list[dict[str, Any]]) -> set[str]:
    out = set()
    for e in entries:
        out |= {e.get(k) for k in ("name", "target", "against", "to") if e.get(k)}
        out |= {i["name"] for i in e.get("initiatives", [])}
    return out


def test_a_hidden_fighter_is_on_the_board_but_not_in_the_players_journal() -> None:
    t = table(ALDRIC, ORQUE, HIDDEN, START,
              {"type": "act", "actor": "aldric", "action": "attaque_melee", "target": "embuscade"},
              {"type": "interrupt", "actor": "embuscade", "action": "bloquer", "against": "aldric"})
    board = t.show()["board"]
    assert board["combatants"]["embuscade"]["hidden"] is True  # the game master sees it, marked
    assert "Embusqué" in names(t.journal()["entries"])
    seen = t.journal(players=True)["entries"]
    assert "Embusqué" not in names(seen), seen
    started = next(e for e in seen if e["kind"] == "round_started")
    assert [i["id"] for i in started["initiatives"]] == ["aldric", "orque"]
    # Revealed: what it does from now on is seen; what it did hidden stays with the game master.
    t.apply({"type": "update_combatant", "id": "embuscade", "changes": {"hidden": False}})
    t.apply({"type": "act", "actor": "aldric", "action": "se_deplacer"})
    t.apply({"type": "interrupt", "actor": "embuscade", "action": "intercepter", "against": "aldric"})
    seen = t.journal(players=True)["entries"]
    assert [e["action"] for e in seen if e["kind"] == "action" and e["name"] == "Embusqué"] == ["intercepter"]
    assert [e for e in seen if e.get("target") == "Embusqué"] == []


@pytest.mark.parametrize("commands", [
    [{"type": "pass", "actor": "aldric"}, {"type": "pass", "actor": "embuscade"}],
    [{"type": "update_combatant", "id": "embuscade", "changes": {"wounds": 2}}],
    [{"type": "add_condition", "id": "embuscade", "condition": "Sonné"}],
    [{"type": "pass", "actor": "aldric"}, {"type": "act", "actor": "embuscade", "action": "attaque_melee", "target": "aldric"},
     {"type": "interrupt", "actor": "aldric", "action": "parer", "against": "embuscade"}],
    [{"type": "remove_combatant", "id": "embuscade"}],
], ids=["passes", "wounded", "condition", "parried", "removed"])
def test_nothing_done_by_or_to_a_hidden_fighter_reaches_the_players(commands: list[dict[str, Any]]) -> None:
    """D26: what a hidden fighter does, what is done to it (a parry against it, its wounds,
    a condition) and its leaving the fight are the game master's lines only; and once it
    has left, its arrival stays hidden too (the players never learn an ambush was there)."""
    t = table(ALDRIC, ORQUE, HIDDEN, START)
    told, seen = t.journal()["entries"], t.journal(players=True)["entries"]
    for command in commands:
        assert t.apply(command)["ok"]
    assert len(t.journal()["entries"]) > len(told)
    after = t.journal(players=True)["entries"]
    assert "Embusqué" not in names(after), after
    assert [e for e in after if e.get("name") != "Aldric"] == [e for e in seen if e.get("name") != "Aldric"]


def test_a_fighter_hidden_later_takes_its_earlier_lines_away_from_the_players() -> None:
    """An ambush prepared in two steps (added, then hidden): the players never read that it came."""
    t = table(ALDRIC, {"type": "add_combatant", "combatant": {**CASTS["gobelin"], "id": "g", "name": "Guetteur"}},
              {"type": "update_combatant", "id": "g", "changes": {"hidden": True}})
    assert "Guetteur" in names(t.journal()["entries"])
    assert "Guetteur" not in names(t.journal(players=True)["entries"])


def test_a_pnj_values_stay_with_the_game_master_unless_shown() -> None:
    t = table(ALDRIC, ORQUE, {"type": "start_round", "rolls": {"aldric": 1, "orque": 6}},
              {"type": "act", "actor": "orque", "action": "observer"}, {"type": "pass", "actor": "orque"},
              {"type": "update_combatant", "id": "orque", "changes": {"notes": "fuit à 3 blessures"}})
    hidden = t.journal(players=True)["entries"]
    shown = t.journal(players=True, pnj_details=True)["entries"]
    assert shown == t.journal()["entries"]
    orque = next(e for e in hidden if e["kind"] == "action")
    assert [orque[k] for k in ("pi_before", "pi_after", "hope_before", "hope_after")] == [None] * 4
    assert orque["cost"] == 5  # the action and its cost are what the table sees
    # D14: the test it names, without the values of its sheet (not on the players' board)
    assert [(x["characteristic"], x["characteristic_value"], x["skill_level"]) for x in orque["tests"]] == [("vue", None, None)]
    assert next(e for e in shown if e["kind"] == "action")["tests"][0]["characteristic_value"] is not None
    assert [e for e in hidden if e["kind"] == "notes"] == []  # its notes, the game master's
    assert [e["notes"] for e in shown if e["kind"] == "notes"] == ["fuit à 3 blessures"]
    assert next(e for e in hidden if e["kind"] == "passed")["pi"] is None
    initiatives = {i["id"]: i for i in next(e for e in hidden if e["kind"] == "round_started")["initiatives"]}
    assert (initiatives["orque"]["d6"], initiatives["orque"]["initiative"]) == (None, None)
    assert initiatives["aldric"]["d6"] == 1  # a PJ's own die is the players'


def test_a_command_sent_by_a_player_says_so_in_the_journal() -> None:
    t = table(ALDRIC, ORQUE, {"type": "start_round", "rolls": {"aldric": 6, "orque": 1}},
              {"type": "act", "actor": "aldric", "action": "observer", "by_player": True},
              {"type": "interrupt", "actor": "orque", "action": "bloquer", "against": "aldric"})
    actions = [(e["name"], e["by_player"]) for e in t.journal()["entries"] if e["kind"] == "action"]
    assert actions == [("Aldric", True), ("Orque", False)]


@pytest.mark.parametrize("value", [False, 1, "yes", None])
def test_by_player_is_true_or_left_out(value: object) -> None:
    state = engine.replay([ALDRIC, ORQUE, {"type": "start_round", "rolls": {"aldric": 6, "orque": 1}}])["state"]
    result = engine.apply(state, {"type": "act", "actor": "aldric", "action": "observer", "by_player": value})
    assert result["ok"] is False
    assert (result["error"]["code"], result["error"]["key"], result["error"]["params"]["field"]) == ("bad_value", "true_only", "by_player")
    assert result["state"] == state


def test_hidden_is_a_boolean() -> None:
    result = engine.apply(engine.new_encounter(), {"type": "add_combatant", "combatant": {"name": "X", "hidden": "oui"}})
    assert (result["ok"], result["error"]["key"], result["error"]["params"]["field"]) == (False, "boolean", "hidden")


LOG = long_fight(400, fighters=6)


# At most the profile's count (15 under `make mutants`, where it runs once per mutant).
@settings(max_examples=min(40, settings.default.max_examples), deadline=None)
@given(last=st.integers(min_value=0, max_value=len(LOG)), every=st.sampled_from([1, 7, 50]))
def test_the_last_commands_journal_is_the_tail_of_the_whole_one(last: int, every: int) -> None:
    """From whichever checkpoint: the entries of the last ``last`` commands are those the
    whole journal has for them."""
    t = Table(rng=random.Random(2), every=every)
    assert t.load(engine_save(LOG))["ok"]
    assert t.journal(last=last)["entries"] == journal(LOG, skip=len(LOG) - last)
    assert t.journal(players=True, last=last)["entries"] == journal(LOG, skip=len(LOG) - last, players=Players())


def engine_save(log: list[dict[str, Any]]) -> str:
    return save.dump_texts([save.command_text(c) for c in log], None)


def test_a_pnjs_wounds_and_espoir_stay_with_the_game_master_unless_shown() -> None:
    """D26: a PNJ's wounds and Espoir are kept by the game master (not in the players'
    journal unless ``pnj_details``); a PJ's are seen, and so is a PNJ's new name."""
    t = table(ALDRIC, ORQUE,
              {"type": "update_combatant", "id": "orque", "changes": {"wounds": 2, "hope": 1, "name": "Grand orque"}},
              {"type": "update_combatant", "id": "aldric", "changes": {"wounds": 1}})
    kinds = [(e["kind"], e["name"]) for e in t.journal()["entries"] if e["kind"] in ("wounds", "hope", "renamed")]
    assert ("wounds", "Orque") in kinds and ("hope", "Orque") in kinds  # the game master's own journal
    seen = [(e["kind"], e["name"]) for e in t.journal(players=True)["entries"] if e["kind"] in ("wounds", "hope", "renamed")]
    assert seen == [("renamed", "Orque"), ("wounds", "Aldric")]
    shown = [(e["kind"], e["name"]) for e in t.journal(players=True, pnj_details=True)["entries"]
             if e["kind"] in ("wounds", "hope", "renamed")]
    assert sorted(shown) == sorted(kinds)


def test_who_could_still_act_when_the_gm_ended_the_round_keeps_a_pnj_s_p_i_and_a_hidden_fighter() -> None:
    """R2.4, D26: the GM's end of a round names who could still act; the players see a
    PNJ's name without its P.I., and nothing of a fighter hidden from them."""
    log = [{"type": "add_combatant", "combatant": CASTS["aldric"]}, {"type": "add_combatant", "combatant": CASTS["orque"]},
           {"type": "add_combatant", "combatant": {**CASTS["orque"], "id": "embusque", "name": "Embusqué", "hidden": True}},
           {"type": "start_round", "rolls": {"aldric": 4, "orque": 1, "embusque": 1}}, {"type": "end_round"}]
    result = engine.replay(log)
    assert result["ok"], result
    ended = journal(result["commands"])[-1]
    assert [h["name"] for h in ended["holding"]] == ["Aldric", "Orque", "Embusqué"]
    seen = journal(result["commands"], players=Players(pnj_details=False))[-1]
    assert seen["kind"] == "round_ended"
    assert [(h["name"], h["pi"] is None) for h in seen["holding"]] == [("Aldric", False), ("Orque", True)]


#: What the players' board hides of a PNJ (engine/players.py) and where a journal entry
#: would carry it, each field by name; with ``pnj_details`` it is told.
#: Its P.I. and Espoir (PNJ_DETAILS) before and after an action, and its P.I. as it passed
#: or as the game master ended the round (``holding``):
ACTION_VALUES = ("pi_before", "pi_after", "hope_before", "hope_after")
#: its die and initiative (PNJ_DETAILS), in each round's ``initiatives``:
ROLL_VALUES = ("d6", "initiative")
#: the values of its sheet a test names (D14): its characteristics and skills (not in SHOWN):
TEST_VALUES = ("characteristic_value", "skill_level")
#: its wounds and Espoir (PNJ_DETAILS) and its notes (not in SHOWN), each an entry of its own:
PNJ_ENTRIES = ("wounds", "hope", "notes")


def test_the_fields_cut_are_those_the_players_board_hides() -> None:
    assert {"pi", "hope", "wounds", *ROLL_VALUES} <= set(PNJ_DETAILS)
    assert not {"characteristics", "skills", "notes"} & set(SHOWN)


def cut(e: dict[str, Any], pnj: set[str], hidden: set[str], details: bool) -> None:
    """``e``, an entry of the players' journal: none of ``hidden`` (D26), and a PNJ's values
    (of ``pnj``, names or ids) told only with ``details``."""
    named = {e.get(k) for k in ("name", "target", "against", "to")}
    named |= {x[k] for x in (*e.get("initiatives", []), *e.get("holding", [])) for k in ("id", "name")}
    assert not named & hidden, e
    by_pnj = e.get("name") in pnj

    def told(value: object) -> bool:
        return value is not None if details else value is None

    if e["kind"] in PNJ_ENTRIES:
        assert details or not by_pnj, e
    if e["kind"] == "action" and by_pnj:
        assert all(told(e[k]) for k in ACTION_VALUES), e
        for test in e["tests"]:  # a value for each test the sheet gives one to: a characteristic, a skill named
            assert told(test["characteristic_value"]) or test["characteristic"] is None, e
            assert told(test["skill_level"]) or not test["skill"], e
    if e["kind"] == "passed" and by_pnj:
        assert told(e["pi"]), e
    for i in e.get("initiatives", []):
        assert all(told(i[k]) for k in ROLL_VALUES) or i["id"] not in pnj, e
    for h in e.get("holding", []):
        assert told(h["pi"]) or h["id"] not in pnj, e


class PlayersJournal(Playing):
    """Random fights of PJ and PNJ, some hidden from the players (D26), played with legal
    commands read off the board, the game master changing wounds, Espoir, notes, sides and
    who is hidden. After each command, its entries in the players' journal: with
    ``pnj_details`` False, no PNJ value the players' board hides (each field named above)
    and nothing of a hidden fighter; with it True, the PNJ's values are there."""

    def __init__(self) -> None:
        super().__init__()
        self.table = Table(rng=random.Random(0))
        self.last = self.table.show()
        self.added = 0

    def remember(self, answer: dict[str, Any]) -> None:
        before, self.last = self.last["board"], answer
        if not answer["ok"] or "command" not in answer:
            return
        pnj: set[str] = set()
        hidden: set[str] = set()
        for f in (*before["combatants"].values(), *answer["board"]["combatants"].values()):  # before or after it
            if f["side"] == "pnj":
                pnj |= {f["id"], f["name"]}
            if f["hidden"]:
                hidden |= {f["id"], f["name"]}
        for e in self.table.journal(players=True, last=1)["entries"]:
            cut(e, pnj, hidden, details=False)
        shown = self.table.journal(players=True, pnj_details=True, last=1)["entries"]
        for e in shown:
            cut(e, pnj, hidden, details=True)
        if not hidden:
            assert shown == self.table.journal(last=1)["entries"]

    @precondition(lambda self: len(self.last["board"]["combatants"]) < 7)
    @rule(sheet=sheets(), hidden=st.sampled_from([False, False, True]))
    def add(self, sheet: dict[str, Any], hidden: bool) -> None:
        self.added += 1  # a name of its own: the journal names fighters
        self.remember(self.table.apply({"type": "add_combatant", "combatant": {**sheet, "name": f"F{self.added}", "hidden": hidden}}))

    @rule(data=st.data())
    def interrupt(self, data: st.DataObject) -> None:
        board = self.last["board"]
        able = [(fid, a) for fid, f in board["combatants"].items() for a, x in f["actions"].items()
                if x["allowed"] and x["category"] == "interruption"]
        if able:
            fid, action = data.draw(st.sampled_from(able))
            others = [c for c in board["combatants"] if c != fid]
            options = options_for(action, board["combatants"][fid], others, data.draw)
            if others and data.draw(st.booleans()):
                options["against"] = data.draw(st.sampled_from(others))
            self.remember(self.table.apply({"type": "interrupt", "actor": fid, "action": action, **options}))

    @rule(data=st.data())
    def pass_or_end(self, data: st.DataObject) -> None:
        board = self.last["board"]
        if board["active"] and data.draw(st.booleans()):
            self.remember(self.table.apply({"type": "pass", "actor": data.draw(st.sampled_from(board["active"]))}))
        else:
            self.remember(self.table.apply({"type": "end_round"}))

    @rule(data=st.data())
    def gm_changes(self, data: st.DataObject) -> None:
        board = self.last["board"]
        if not board["combatants"]:
            return
        fid = data.draw(st.sampled_from(list(board["combatants"])))
        keys = data.draw(st.lists(st.sampled_from(["wounds", "hope", "notes", "side", "hidden", "hors_combat"]), min_size=1,
                                  max_size=3, unique=True))
        values = {"wounds": st.integers(0, 4), "hope": st.integers(0, 2), "notes": st.sampled_from(["", "fuit", "saigne"]),
                  "side": st.sampled_from(["pj", "pnj"]), "hidden": st.booleans(), "hors_combat": st.booleans()}
        answer = self.table.apply({"type": "update_combatant", "id": fid, "changes": {k: data.draw(values[k]) for k in keys}})
        assert answer["ok"], answer
        self.remember(answer)

    @invariant()
    def nothing_of_a_fighter_hidden_now(self) -> None:
        """D26: a fighter hidden now takes its earlier lines away too."""
        hidden = {x for f in self.last["board"]["combatants"].values() if f["hidden"] for x in (f["id"], f["name"])}
        for e in self.table.journal(players=True)["entries"]:
            cut(e, set(), hidden, details=True)


TestPlayersJournal = PlayersJournal.TestCase
