"""Checkpoints of the table session (engine/table.py): undo, redo and loading
from checkpoints give the same fight as a full replay of the log, whatever the interval.

What the tests look at is what the table answers: its boards, its save text (the log), the
checkpoints it hands over, what ``fill`` says is left; and how many commands it replays
(``fold`` counted): the speed checkpoints are for."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, precondition, rule
from strategies import Playing

from engine import save
from engine.codec import decode, encode
from engine.play import fold
from engine.table import CHECKPOINT_EVERY, ENGINE, Table, _seal
from engine.view import board


def replayed(log: list[Any]) -> Any:
    """The encounter a full replay of ``log`` gives, from an empty fight."""
    enc, result = fold(log)
    assert result["ok"], result
    return enc


def log_of(table: Table) -> list[Any]:
    """The table's resolved log, as its save text holds it."""
    commands: list[Any] = save.parse(table.export()["text"])["commands"]
    return commands


def is_its_log_replayed(table: Table) -> bool:
    """The table's fight (its board) is the one a full replay of its log gives."""
    return bool(table.show()["board"] == board(replayed(log_of(table))))


class Checkpoints(Playing):
    """Random play with undo, redo and reloads on a table whose checkpoints come every 1
    to 6 commands (the real interval is too long for a short random fight)."""

    @initialize(every=st.integers(1, 6))
    def start(self, every: int) -> None:
        self.every = every
        self.table = Table(rng=random.Random(0), every=every)
        self.kept: str | None = None
        self.last: dict[str, Any] = {}
        self.remember(self.table.load(None))

    @precondition(lambda self: self.last["undo"] > 0)
    @rule(count=st.integers(1, 8))
    def undo(self, count: int) -> None:
        for _ in range(count):
            self.remember(self.table.undo())

    @precondition(lambda self: self.last["redo"] > 0)
    @rule(count=st.integers(1, 8))
    def redo(self, count: int) -> None:
        for _ in range(count):
            self.remember(self.table.redo())
            assert self.last["ok"], self.last

    def remember(self, answer: dict[str, Any]) -> None:
        """What the autosave keeps beside the log: the checkpoint an answer hands over."""
        if "checkpoint" in answer:
            self.kept = answer["checkpoint"]
        self.last = answer

    @rule(with_checkpoint=st.booleans())
    def reload(self, with_checkpoint: bool) -> None:
        """The autosave opened again, as a reload of the page does (with the checkpoint
        kept beside it, or without): nothing to redo."""
        text = self.table.export(True)["text"]
        other = Table(rng=random.Random(0), every=self.every)
        answer = other.load(text, self.kept if with_checkpoint else None)
        assert answer["ok"], answer
        assert answer["board"] == self.last["board"]
        self.table = other
        self.remember(answer)

    @rule(garbage=st.sampled_from(["", "{", "[]", '{"at": 1, "hash": "x", "state": {}}']))
    def reload_with_a_foreign_checkpoint(self, garbage: str) -> None:
        """A checkpoint that does not belong to the log is ignored: the log is replayed."""
        text = self.table.export(True)["text"]
        other = Table(rng=random.Random(0), every=self.every)
        answer = other.load(text, garbage)
        assert answer["ok"], answer
        assert answer["board"] == self.last["board"]
        self.table = other
        self.remember(answer)

    @rule()
    def reload_with_an_older_checkpoint_of_another_fight(self) -> None:
        """The kept checkpoint against a log that differs from its first commands: ignored."""
        if not self.kept or not log_of(self.table):
            return
        other = Table(rng=random.Random(0), every=self.every)
        answer = other.load(save.dump([{"type": "add_combatant", "combatant": {"name": "Intrus", "side": "pnj"}}]),
                            self.kept)
        assert answer["ok"], answer
        assert list(answer["board"]["combatants"]) == ["c1"]
        assert is_its_log_replayed(other)
        self.remember(other.load(self.table.export(True)["text"], self.kept))
        self.table = other

    @rule()
    def fill(self) -> None:
        assert self.table.fill()["ok"]

    @invariant()
    def the_fight_is_the_full_replay_of_its_log(self) -> None:
        log = log_of(self.table)
        enc = replayed(log)
        assert self.last["board"] == self.table.show()["board"] == board(enc)
        assert self.table.export(True)["text"] == save.dump(log, save.painted(board(enc)))

    @invariant()
    def the_checkpoint_handed_over_is_the_replay_of_its_prefix(self) -> None:
        """The last checkpoint the autosave was given: at a multiple of the interval, within
        the log, the encounter its first commands give; once the log is shorter, dropped."""
        if self.kept is None:
            return
        kept, log = json.loads(self.kept), log_of(self.table)
        assert kept["at"] % self.every == 0 and 0 < kept["at"] <= len(log)
        assert decode(kept["state"]) == replayed(log[: kept["at"]])


TestCheckpoints = Checkpoints.TestCase


def test_undo_replays_at_most_one_interval(monkeypatch: Any) -> None:
    """A long fight: each undo folds fewer commands than the interval, never the log."""
    import engine.table as table_module

    folded: list[int] = []
    real = table_module.fold

    def counting(commands: list[Any], *args: Any, **kwargs: Any) -> Any:
        folded.append(len(commands))
        return real(commands, *args, **kwargs)

    table = Table(rng=random.Random(3))
    assert table.apply({"type": "add_combatant", "combatant": {"name": "F", "side": "pnj"}})["ok"]
    for n in range(3 * CHECKPOINT_EVERY + 6):  # within the 64 fighters of a fight: the wounds change
        assert table.apply({"type": "update_combatant", "id": "c1", "changes": {"wounds": n % 10}})["ok"]
    monkeypatch.setattr(table_module, "fold", counting)
    for _ in range(2 * CHECKPOINT_EVERY):
        table.undo()
    assert folded and max(folded) < CHECKPOINT_EVERY
    assert is_its_log_replayed(table)


EVERY = 4


@pytest.mark.parametrize("every", [1, EVERY, CHECKPOINT_EVERY])
def test_undo_of_the_tables_own_last_commands_replays_nothing(monkeypatch: Any, every: int) -> None:
    """The table keeps the encounter before each of its last ``every`` commands: undoing
    them (and what redo played again) replays nothing; one more undo, below them, replays
    from a checkpoint. Every board is the full replay of its log."""
    table = Table(rng=random.Random(0), every=every)
    wounded(table, every + 3)
    folds = Folds(monkeypatch)
    for _ in range(every):
        assert table.undo()["ok"] and is_its_log_replayed(table)
    assert table.redo()["ok"] and table.undo()["ok"] and is_its_log_replayed(table)
    assert folds.sizes == []
    assert table.undo()["ok"] and is_its_log_replayed(table)
    assert len(folds.sizes) >= 1 and max(folds.sizes) <= every


def wounded(table: Table, count: int) -> list[dict[str, Any]]:
    """One fighter added, then ``count`` changes of its wounds: every answer, in order."""
    answers = [table.apply({"type": "add_combatant", "combatant": {"name": "F", "side": "pnj"}})]
    answers += [table.apply({"type": "update_combatant", "id": "c1", "changes": {"wounds": n % 10}}) for n in range(count)]
    assert all(a["ok"] for a in answers)
    return answers


def last_kept(table: Table) -> str:
    """Ten changes of wounds on ``table`` (:func:`wounded`): the last checkpoint they handed
    over, as the page keeps it (JSON text)."""
    kept: str = [a["checkpoint"] for a in wounded(table, 10) if "checkpoint" in a][-1]
    return kept


class Folds:
    """Counts the commands the table replays (engine.fold) while patched in."""

    def __init__(self, monkeypatch: Any) -> None:
        import engine.table as table_module

        self.sizes: list[int] = []
        real = table_module.fold

        def counting(commands: list[Any], *args: Any, **kwargs: Any) -> Any:
            self.sizes.append(len(commands))
            return real(commands, *args, **kwargs)

        monkeypatch.setattr(table_module, "fold", counting)


@pytest.mark.parametrize("every, at", [(EVERY, [4, 8]), (1, list(range(1, 12))), (0, list(range(1, 12)))])
def test_a_checkpoint_is_handed_over_each_time_the_log_reaches_one(every: int, at: list[int]) -> None:
    """The autosave is given a checkpoint exactly when a new one is made: at ``at``
    commands, tied to them by their hash, holding the encounter they give (an interval
    under 1 is 1)."""
    table = Table(rng=random.Random(0), every=every)
    answers = wounded(table, 10)
    given = [n + 1 for n, a in enumerate(answers) if "checkpoint" in a]
    assert given == at
    for at in given:
        kept = json.loads(answers[at - 1]["checkpoint"])
        assert (kept["at"], kept["engine"]) == (at, ENGINE)
        assert decode(kept["state"]) == replayed(log_of(table)[:at])


def test_a_reload_with_its_checkpoint_replays_only_what_follows(monkeypatch: Any) -> None:
    """The autosave and the checkpoint kept beside it reopen the fight by
    replaying the commands after the checkpoint only; the ones before wait for ``fill``."""
    table = Table(rng=random.Random(0), every=EVERY)
    kept = last_kept(table)
    text = table.export(True)["text"]
    folds = Folds(monkeypatch)
    other = Table(rng=random.Random(0), every=EVERY)
    answer = other.load(text, kept)
    assert answer["ok"], answer
    assert sum(folds.sizes) == 11 - 8
    assert "checkpoint" not in answer  # the page has it already
    assert is_its_log_replayed(other) and log_of(other) == log_of(table)
    folds.sizes.clear()
    assert other.fill() == {"ok": True, "left": 0}  # the one checkpoint before it, rebuilt
    assert folds.sizes == [EVERY]
    folds.sizes.clear()
    assert other.fill() == {"ok": True, "left": 0} and folds.sizes == []  # none left to rebuild


def test_a_reload_without_a_checkpoint_replays_all_and_hands_one_over(monkeypatch: Any) -> None:
    table = Table(rng=random.Random(0), every=EVERY)
    wounded(table, 10)
    folds = Folds(monkeypatch)
    answer = Table(rng=random.Random(0), every=EVERY).load(table.export(True)["text"])
    assert sum(folds.sizes) == 11 and max(folds.sizes) <= EVERY
    assert json.loads(answer["checkpoint"])["at"] == 8


@pytest.mark.parametrize("change", [
    lambda k: {**k, "at": k["at"] - 1}, lambda k: {**k, "at": 0}, lambda k: {**k, "at": -EVERY},
    lambda k: {**k, "at": 12}, lambda k: {**k, "at": "8"}, lambda k: {**k, "hash": k["hash"][::-1]},
    lambda k: {**k, "state": {"combatants": 3}}, lambda k: [k],
    lambda k: {key: x for key, x in k.items() if key != "engine"}, lambda k: {**k, "engine": "0" * 32},
])
def test_a_checkpoint_that_does_not_fit_the_log_is_ignored(monkeypatch: Any, change: Any) -> None:
    """The log stays the truth: a checkpoint with another count, another hash or an
    unreadable state is ignored and the whole log replayed, to the same fight."""
    table = Table(rng=random.Random(0), every=EVERY)
    kept = json.loads(last_kept(table))
    folds = Folds(monkeypatch)
    other = Table(rng=random.Random(0), every=EVERY)
    answer = other.load(table.export(True)["text"], json.dumps(change(kept)))
    assert answer["ok"], answer
    assert sum(folds.sizes) == 11
    assert answer["board"] == table.show()["board"] and is_its_log_replayed(other)
    folds.sizes.clear()
    assert other.fill() == {"ok": True, "left": 0} and folds.sizes == []  # every checkpoint made on the way


def test_a_sealed_checkpoint_whose_state_the_codec_refuses_is_ignored(monkeypatch: Any) -> None:
    """A checkpoint tied to this log by its seal, but whose state the codec refuses (a
    format it does not read): ignored, the whole log replayed."""
    table = Table(rng=random.Random(0), every=EVERY)
    kept = json.loads(last_kept(table))
    state = {**kept["state"], "format": 999}
    texts = [save.command_text(c) for c in log_of(table)]
    folds = Folds(monkeypatch)
    other = Table(rng=random.Random(0), every=EVERY)
    answer = other.load(table.export(True)["text"], json.dumps({**kept, "state": state, "hash": _seal(texts[:kept["at"]], state)}))
    assert answer["ok"], answer
    assert sum(folds.sizes) == 11 and is_its_log_replayed(other)


@pytest.mark.parametrize("where", ["decode", "_seal"])
def test_a_fault_while_reading_a_checkpoint_answers_internal(monkeypatch: Any, where: str) -> None:
    """Only an unreadable or foreign checkpoint is ignored: an exception of the engine's own
    code while reading one (here the codec's decode, or the seal) is a fault, answered as
    one (the page's reload), not hidden by a full replay; the fight open stays as it was."""
    import engine.table as table_module

    table = Table(rng=random.Random(0), every=EVERY)
    kept = last_kept(table)
    other = Table(rng=random.Random(0), every=EVERY)
    assert other.apply({"type": "add_combatant", "combatant": {"name": "Seul"}})["ok"]
    before = other.export(True)["text"]

    def broken(*args: Any) -> None:
        raise RuntimeError("a codec's bug")

    monkeypatch.setattr(table_module, where, broken)
    answer = json.loads(other.call(json.dumps({"op": "load", "text": table.export(True)["text"], "checkpoint": kept})))
    assert (answer["ok"], answer["error"]["code"], answer["error"]["params"]) == (
        False, "internal", {"error": "RuntimeError: a codec's bug"})
    assert other.export(True)["text"] == before


def test_undo_below_a_restored_checkpoint_rebuilds_the_one_it_needs(monkeypatch: Any) -> None:
    table = Table(rng=random.Random(0), every=EVERY)
    kept = last_kept(table)
    other = Table(rng=random.Random(0), every=EVERY)
    other.load(table.export(True)["text"], kept)
    folds = Folds(monkeypatch)
    for _ in range(5):  # 11 -> 6 commands: below the checkpoint at 8
        assert other.undo()["ok"]
    assert is_its_log_replayed(other) and len(log_of(other)) == 6
    assert max(folds.sizes) <= EVERY  # from the checkpoint at 4, rebuilt once
    folds.sizes.clear()
    assert other.fill() == {"ok": True, "left": 0} and folds.sizes == []


def ghost(kept: dict[str, Any], seal: bool) -> dict[str, Any]:
    """``kept`` with one more fighter in its state: the trial's hand edit;
    ``seal``: its hash made again over the state, as someone who read this code would."""
    enc = decode(kept["state"])
    state = encode(replace(enc, combatants=(*enc.combatants, replace(enc.combatants[0], id="c99", name="Fantôme"))))
    changed = {**kept, "state": state}
    if seal:
        changed["hash"] = _seal(["x"], state)  # a seal, but not of this log
    return changed


@pytest.mark.parametrize("seal", [False, True])
def test_a_checkpoint_whose_state_was_edited_is_not_trusted(seal: bool) -> None:
    """The hash covers the state and the engine's version, not the log
    alone; a ghost fighter put into a kept checkpoint never reaches the fight, which stays
    the replay of its log and keeps exporting a save the engine reads back."""
    table = Table(rng=random.Random(0), every=EVERY)
    kept = json.loads(last_kept(table))
    edited = ghost(kept, seal)
    assert decode(edited["state"]) != decode(kept["state"])  # the edit is real
    other = Table(rng=random.Random(0), every=EVERY)
    answer = other.load(table.export(True)["text"], json.dumps(edited))
    assert answer["ok"], answer
    assert list(answer["board"]["combatants"]) == ["c1"]
    assert is_its_log_replayed(other)
    assert Table().load(other.export(True)["text"])["ok"]


def reordered(value: Any) -> Any:
    """The same JSON value, every object's keys in the reverse order."""
    if isinstance(value, dict):
        return {k: reordered(value[k]) for k in reversed(value)}
    return [reordered(x) for x in value] if isinstance(value, list) else value


def test_a_checkpoint_written_with_its_keys_in_another_order_is_trusted(monkeypatch: Any) -> None:
    """The seal is of the state, not of how its JSON was written: a checkpoint whose objects
    list their keys in another order (another JSON writer) is the same checkpoint, used."""
    table = Table(rng=random.Random(0), every=EVERY)
    kept = json.loads(last_kept(table))
    rewritten = {**kept, "state": reordered(kept["state"])}
    assert json.dumps(rewritten["state"]) != json.dumps(kept["state"])
    folds = Folds(monkeypatch)
    other = Table(rng=random.Random(0), every=EVERY)
    answer = other.load(table.export(True)["text"], json.dumps(rewritten))
    assert answer["ok"] and sum(folds.sizes) == 11 - 8 and "checkpoint" not in answer
    assert is_its_log_replayed(other)


def test_a_checkpoint_from_another_engine_is_not_trusted(monkeypatch: Any) -> None:
    """A release that changes a rule has another ENGINE: the checkpoint an older one kept,
    right for its own rules, is replayed over, not trusted."""
    import engine.table as table_module

    table = Table(rng=random.Random(0), every=EVERY)
    kept = last_kept(table)
    monkeypatch.setattr(table_module, "ENGINE", "another release")
    folds = Folds(monkeypatch)
    answer = Table(rng=random.Random(0), every=EVERY).load(table.export(True)["text"], kept)
    assert answer["ok"] and sum(folds.sizes) == 11
    assert json.loads(answer["checkpoint"])["engine"] == "another release"


def test_the_engine_version_is_a_hash_of_its_code() -> None:
    """The same code gives the same ENGINE (a reload trusts its own checkpoints); it is
    computed from the package's modules, not written by hand."""
    import engine.table as table_module

    assert table_module._fingerprint() == ENGINE and len(ENGINE) == 32


def test_revert_brings_back_the_fight_before_a_load_with_its_undo() -> None:
    """The page opened another fight and could not write it (web/infra/fight-list.js): the
    engine goes back to the fight its board shows, undo and redo included; once anything is
    played, or after one revert, there is nothing to revert."""
    table = Table(rng=random.Random(0), every=EVERY)
    wounded(table, 6)
    table.undo()
    before = (table.export(True)["text"], table.show()["undo"], table.show()["redo"])
    assert table.load(save.dump([]))["ok"]
    answer = table.revert()
    assert answer["ok"] and (table.export(True)["text"], answer["undo"], answer["redo"]) == before
    assert table.revert()["error"]["key"] == "nothing_to_revert"
    assert table.new()["ok"] and table.apply({"type": "add_combatant", "combatant": {"name": "G"}})["ok"]
    assert table.revert()["error"]["key"] == "nothing_to_revert"
    assert table.apply({"type": "update_combatant", "id": "c1", "changes": {"side": "pj"}})["ok"]
    assert table.new(True)["undo"] == 1 and table.undo()["undo"] == 0  # an undo is played too
    assert table.revert()["error"]["key"] == "nothing_to_revert"
    assert Table().revert()["error"]["key"] == "nothing_to_revert"  # a fresh table: none before it
