"""The wall clock beside the fight, never in it: the times of the log's commands (kept in
the save beside the log, dropped by undo, given back by redo), the summary's durations,
the turn clock and the cue of a PJ's turn. No rule reads any of it (the rules are
deterministic: R1-R5 know no clock)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import save
from engine.table import Table
from tests.casts import CASTS

ALDRIC = {"name": "Aldric", "side": "pj"}
ORQUE = {"name": "Orque"}
T0 = 1_765_000_000_000  # ms since 1970, as the page's Date.now() gives it


def call(t: Table, clock: int | None, **request: Any) -> dict[str, Any]:
    if clock is not None:
        request["clock"] = clock
    answer: dict[str, Any] = json.loads(t.call(json.dumps(request)))
    return answer


def fight(t: Table) -> None:
    """Two fighters, a round of three turns: Aldric acts 20 s after the round starts,
    the Orque passes 40 s later, then Aldric 15 s later spends its last P.I. (R2.4)."""
    call(t, T0, op="apply", command={"type": "add_combatant", "combatant": ALDRIC})
    call(t, T0 + 1_000, op="apply", command={"type": "add_combatant", "combatant": ORQUE})
    call(t, T0 + 10_000, op="apply", command={"type": "start_round", "rolls": {"c1": 6, "c2": 3}})
    call(t, T0 + 30_000, op="apply", command={"type": "act", "actor": "c1", "action": "observer"})
    call(t, T0 + 70_000, op="apply", command={"type": "pass", "actor": "c2"})


def test_times_are_kept_beside_the_log_not_in_it() -> None:
    t = Table()
    fight(t)
    text = t.export(True)["text"]
    data = json.loads(text)
    assert all("clock" not in c and "at" not in c for c in data["commands"])
    assert data["board"]["times"] == [T0 // 1000, 1, 9, 20, 40]
    # The rules never see it: the same log, replayed without times, gives the same board.
    bare = Table()
    bare.load(save.dump(t._log))
    assert bare.show()["board"] == t.show()["board"]
    # Read back, the times are the same and so are the durations.
    again = Table()
    reopened = again.load(text, kept=True)
    assert reopened["ok"] and "save" not in reopened  # the autosave reopened is written again as it was
    assert again._times.times == t._times.times
    assert again.summary() == t.summary()


def test_the_summary_says_each_rounds_and_each_turns_time() -> None:
    t = Table()
    fight(t)
    call(t, T0 + 85_000, op="apply", command={"type": "end_round"})
    s = t.summary()["summary"]
    assert s["rounds"][0]["seconds"] == 75  # from its start to the game master's end
    aldric, orque = s["fighters"]
    assert (aldric["seconds"], aldric["turns_timed"], aldric["longest"]) == (20, 1, 20)
    assert (orque["seconds"], orque["turns_timed"], orque["longest"]) == (40, 1, 40)
    assert s["totals"]["seconds"] == 75


def test_an_old_fight_without_times_has_no_durations() -> None:
    before = Table()  # an earlier release's page: no clock given
    for command in ({"type": "add_combatant", "combatant": ALDRIC}, {"type": "start_round", "rolls": {"c1": 6}},
                    {"type": "act", "actor": "c1", "action": "observer"}, {"type": "end_round"}):
        before.apply(command)
    old = before.export(True)["text"]
    assert "times" not in json.loads(old)["board"]
    t = Table()
    answer = t.load(old, kept=True)
    assert answer["ok"] and "save" not in answer  # the same text as it was: nothing to write again
    s = t.summary()["summary"]
    assert s["rounds"][0]["seconds"] is None and s["fighters"][0]["seconds"] is None
    assert s["totals"]["seconds"] is None
    # Played on today, its new commands are timed; the old ones stay unknown.
    call(t, T0, op="apply", command={"type": "start_round", "rolls": {"c1": 6}})
    call(t, T0 + 12_000, op="apply", command={"type": "act", "actor": "c1", "action": "observer"})
    assert t._times.times == [None, None, None, None, T0 // 1000, T0 // 1000 + 12]
    assert t.summary()["summary"]["fighters"][0]["seconds"] == 12
    assert json.loads(t.export(True)["text"])["board"]["times"] == [None, None, None, None, T0 // 1000, 12]


def test_undo_drops_a_commands_time_and_redo_gives_it_back() -> None:
    t = Table()
    fight(t)
    call(t, T0 + 100_000, op="undo")
    assert len(t._times) == 4 and t._times.times[-1] == T0 // 1000 + 30
    assert json.loads(t.export(True)["text"])["board"]["times"] == [T0 // 1000, 1, 9, 20]
    call(t, T0 + 500_000, op="redo")  # later: the command keeps the time it was played at
    assert t._times.times[-1] == T0 // 1000 + 70
    call(t, T0 + 600_000, op="undo")
    call(t, T0 + 610_000, op="apply", command={"type": "end_round"})  # a new command: nothing to redo
    assert t._times.times[-1] == T0 // 1000 + 610 and t._undone_times == []


def test_a_change_s_log_composes_to_the_save_with_its_times() -> None:
    t = Table()
    first = t.new()
    changes = [call(t, T0 + n * 1000, op="apply", command={"type": "add_combatant", "combatant": {"name": f"F{n}"}})["log"]
               for n in range(3)]
    changes.append(call(t, T0 + 9000, op="undo")["log"])
    assert save.follow(first["save"], changes) == t.export(True)["text"]


def test_the_turn_clock_restarts_when_the_turn_passes_and_is_never_in_the_log() -> None:
    t = Table()
    fight(t)
    turn = call(t, T0 + 71_000, op="show")["turn"]
    assert turn == {"id": "c1", "since": T0 + 70_000, "limit": None}  # the Orque passed at 70 s
    log = list(t._log)
    on = call(t, T0 + 72_000, op="host", do={"what": "clock", "limit": 60})
    assert on["turn"]["limit"] == 60 and t._log == log  # a setting of the device: no command
    assert call(t, T0 + 72_000, op="host", do={"what": "clock", "limit": 5})["turn"]["limit"] is None  # out of range: off


def test_a_reloaded_fight_s_turn_clock_goes_on_from_the_last_command() -> None:
    """A reload, or a tab that follows, opens the save: the turn held since the Orque
    passed (70 s) is still counted from then, not from the load; a save without times
    (an earlier release) starts it at the load; the next turn starts at its command, as ever."""
    t = Table()
    fight(t)
    text = t.export(True)["text"]
    again = Table()
    opened = json.loads(again.call(json.dumps({"op": "load", "text": text, "kept": True, "clock": T0 + 500_000})))
    assert opened["turn"]["id"] == "c1" and opened["turn"]["since"] == T0 + 70_000
    old = Table()
    opened = json.loads(old.call(json.dumps({"op": "load", "text": save.dump(t._log), "clock": T0 + 500_000})))
    assert opened["turn"]["since"] == T0 + 500_000
    after = call(again, T0 + 510_000, op="apply", command={"type": "act", "actor": "c1", "action": "observer"})
    assert after["board"]["round_over"] and after["turn"]["since"] is None  # R2.4: the round is over
    after = call(again, T0 + 520_000, op="apply", command={"type": "start_round", "rolls": {"c1": 6, "c2": 3}})
    assert after["turn"] == {"id": "c1", "since": T0 + 520_000, "limit": None}


def test_the_players_see_the_clock_only_of_a_turn_they_see() -> None:
    t = Table()
    call(t, T0, op="apply", command={"type": "add_combatant", "combatant": ALDRIC})
    call(t, T0, op="apply", command={"type": "add_combatant", "combatant": {**ORQUE, "hidden": True}})
    call(t, T0, op="host", do={"what": "watch", "on": True})
    call(t, T0, op="host", do={"what": "clock", "limit": 60})
    hidden_turn = call(t, T0 + 1000, op="apply", command={"type": "start_round", "rolls": {"c1": 1, "c2": 6}})
    assert hidden_turn["turn"]["id"] == "c2" and hidden_turn["live"]["shown"]["clock"] is None  # D26
    passed = call(t, T0 + 5000, op="apply", command={"type": "pass", "actor": "c2"})
    assert passed["live"]["shown"]["clock"] == {"id": "c1", "limit": 60, "elapsed": 0}
    later = call(t, T0 + 8000, op="host", do={"what": "watch", "on": True})
    assert later["live"]["shown"]["clock"] == {"id": "c1", "limit": 60, "elapsed": 3000}


def test_the_cue_comes_when_a_pjs_turn_comes_not_a_pnjs() -> None:
    t = Table()
    call(t, T0, op="apply", command={"type": "add_combatant", "combatant": ALDRIC})
    call(t, T0, op="apply", command={"type": "add_combatant", "combatant": ORQUE})
    pnj_first = call(t, T0, op="apply", command={"type": "start_round", "rolls": {"c1": 3, "c2": 6}})
    assert "cue" not in pnj_first  # the Orque's turn
    pj_next = call(t, T0, op="apply", command={"type": "pass", "actor": "c2"})
    assert pj_next["cue"] == "pj_turn"
    assert "cue" not in call(t, T0, op="undo")  # taken back: no sound
    assert call(t, T0, op="redo")["cue"] == "pj_turn"


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["add", "undo", "redo", "reload"]), max_size=25))
def test_times_follow_the_log_through_undo_redo_and_reload(steps: list[str]) -> None:
    """However undo, redo and a reload mix, each command keeps the second it was first
    played at, and the save holds exactly the log's times."""
    t = Table()
    played: dict[int, int] = {}  # the n-th fighter added → its time in seconds
    clock = T0
    for kind in steps:
        clock += 7_000
        if kind == "add":
            n = len(played)
            a = call(t, clock, op="apply", command={"type": "add_combatant", "combatant": {"name": f"F{n}"}})
            played = {k: v for k, v in played.items() if k < len(t._log) - 1}
            played[len(t._log) - 1] = clock // 1000
            assert a["ok"]
        elif kind == "reload":
            text = t.export(True)["text"]
            t = Table()
            assert t.load(text)["ok"]
            played = {k: v for k, v in played.items() if k < len(t._log)}
        else:
            call(t, clock, op=kind)
        assert len(t._times) == len(t._log)
        assert t._times.times == [played[k] for k in range(len(t._log))]
        assert json.loads(t.export(True)["text"])["board"].get("times") == save.Times(t._times.times).saved()


def test_the_cue_comes_when_a_players_play_waits_for_the_game_master() -> None:
    """D27: a play that waits for « Appliquer » (the players' mode « confirm ») cues the
    game master's device once; the same phone's next message, a claim, does not."""
    a = "a" * 64
    t = Table()
    for name in ("aldric", "lyra", "orque"):
        assert t.apply({"type": "add_combatant", "combatant": CASTS[name]})["ok"]
    t.apply({"type": "start_round", "rolls": {"lyra": 6, "aldric": 1, "orque": 1}})
    t.phone(a, "open", 1000, None)
    claimed = t.hear(a, {"t": "claim", "id": "lyra"})
    assert "cue" not in claimed
    played = t.hear(a, {"t": "pass", "n": 1})
    assert played["live"]["view"]["lines"] and played["cue"] == "answer"
    again = t.hear(a, {"t": "claim", "id": "lyra"})
    assert "cue" not in again
