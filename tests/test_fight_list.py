"""The list of fights under random use: a Hypothesis state machine drives the
page's own transactions (web/infra/fight-list.js, in Node through
tests/fight_list_driver.mjs) against the real engine (a Table answers the page's
requests, as the worker does) and a storage that refuses writes at random, goes away, or
loses every write once its tab has closed. After every step: no fight is lost, and what
the page said is what happened (its list, the list a reload would find, and the model
kept here from what it said, all agree; a refusal left storage and the engine as they
were). docs/RELIABILITY.md gives the figures of both profiles.

Profiles: ``ci`` (default, ``make test``) and ``long`` (``HYPOTHESIS_PROFILE=long``,
``make test-long``), in :data:`PROFILES`.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test

from engine import save, values
from engine.errors import Refusal
from engine.table import Table
from tests.fight_storage import composed

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "tests" / "fight_list_driver.mjs"
NODE = shutil.which("node")
#: The longest name of a fight: the engine's limit of a name (Table.limits), as the page has it.
NAME_MAX = Table().limits()["limits"]["name"]

#: Sequences and steps of each profile (the engine's own machine has its figures in tests/conftest.py).
PROFILES = {"ci": (30, 25), "long": (1_000, 40), "mutants": (5, 10)}
EXAMPLES, STEPS = PROFILES.get(os.environ.get("HYPOTHESIS_PROFILE", "ci"), PROFILES["ci"])


DEBUG = {"phases": [Phase.generate], "report_multiple_bugs": False} if os.environ.get("FL_DEBUG") else {}
NAMES = ["Aldric", "Orque", "Lyra", "Gobelin", "\u202eRenversé", "Nom de soixante lettres " * 3]


def read_list(stored: dict[str, str]) -> dict[str, Any]:
    """Storage with its list of fights read, so that the same list written with other
    spacing is the same."""
    index = stored.get("riposte.fights")
    try:
        return {**stored, "riposte.fights": json.loads(index)} if index is not None else stored
    except json.JSONDecodeError:
        return stored


class Page:
    """One Node process running the page's list of fights, and the engine it asks."""

    def __init__(self) -> None:
        self.node = subprocess.Popen([str(NODE), "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", str(DRIVER)],
                                     cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     encoding="utf-8", env={**os.environ, "FIGHT_NAME_MAX": str(NAME_MAX)})
        self.table = Table(rng=random.Random(0))
        self.sent = 0
        self.asked: list[dict[str, Any]] = []  # every engine request, in order

    def close(self) -> None:
        assert self.node.stdin is not None
        self.node.stdin.close()
        self.node.wait(timeout=10)

    def send(self, message: dict[str, Any]) -> None:
        assert self.node.stdin is not None
        self.node.stdin.write(json.dumps(message) + "\n")
        self.node.stdin.flush()

    def start(self, do: str, *args: Any) -> int:
        self.sent += 1
        self.send({"id": self.sent, "do": do, "args": list(args)})
        return self.sent

    def until(self, *ids: int) -> list[dict[str, Any]]:
        """The answers of transactions ``ids``, in that order; the engine answers every
        request meanwhile (one engine for all, in the order asked, as in the page)."""
        done: dict[int, dict[str, Any]] = {}
        assert self.node.stdout is not None
        while not all(i in done for i in ids):
            line = self.node.stdout.readline()
            assert line, "the driver stopped"
            message = json.loads(line)
            if "engine" in message:
                self.asked.append(message["engine"])
                answer = json.loads(self.table.call(json.dumps(message["engine"])))
                assert (answer.get("error") or {}).get("code") != "internal", answer
                self.send({"to": message["k"], "answer": answer})
            else:
                assert "error" not in message, message["error"]
                done[message["done"]] = message
        return [done[i] for i in ids]

    def call(self, do: str, *args: Any) -> dict[str, Any]:
        return self.until(self.start(do, *args))[0]

    def reloaded(self) -> dict[str, Any]:
        """What a reload would find: the list and storage after the start's ``prepare``, on
        a copy of this page's storage (the open fight as its records compose)."""
        seen = self.call("view")["result"]
        return {**seen, "storage": composed(seen["storage"])}

    def stored(self) -> dict[str, str]:
        """This page's storage as it is (the open fight as its records compose)."""
        return composed(self.call("faults", {})["storage"])

    def stored_index(self) -> dict[str, Any]:
        """The list as stored."""
        return dict(json.loads(self.stored()["riposte.fights"]))

    def engine(self) -> tuple[str, int, int]:
        """The engine's fight as the board shows it: its save text, undo and redo."""
        shown = self.table.show()
        return self.table.export(True)["text"], shown["undo"], shown["redo"]


@pytest.fixture(scope="module")
def page() -> Iterator[Page]:
    if NODE is None:
        pytest.skip("Node is not installed")
    opened = Page()
    yield opened
    opened.close()


def readable(text: str) -> bool:
    """Whether the engine opens ``text``."""
    return bool(Table().inspect(text)["ok"])


def fight_text(names: list[str], rounds: int = 0) -> str:
    """A save as the engine writes it: ``names`` added, ``rounds`` rounds played."""
    table = Table(rng=random.Random(len(names)))
    for name in names:
        table.apply({"type": "add_combatant", "combatant": {"name": name}})
    for _ in range(rounds):
        table.apply({"type": "start_round"})
        table.apply({"type": "end_round"})
    return str(table.export(True)["text"])


FIGHTS = st.builds(fight_text, st.lists(st.sampled_from(NAMES), max_size=3), st.integers(0, 2))
BAD = st.sampled_from(["{", "[]", save.dump([{"type": "pass", "actor": "c9"}]), '{"app": "riposte", "format": 99, "commands": []}'])
#: What a file or a link may hold: mostly fights, some the engine refuses.
SAVES = st.one_of(FIGHTS, FIGHTS, BAD)
TYPED = st.one_of(st.sampled_from(NAMES), st.text(max_size=70), st.sampled_from(["\ud800 moitié", "  ", "\u200b\u200d", "\x00"]))
#: How the next transaction's writes fail: none; the n-th setItem refused as full; storage
#: switched off; or the tab closed after its n-th write (checked by `crashed`).
FAULTS = st.one_of(
    st.just({}), st.just({}),
    st.builds(lambda full: {"full": sorted(full)}, st.sets(st.integers(1, 6), min_size=1, max_size=3)),
    st.just({"unavailable": True}),
)
CRASH = st.integers(0, 8)


class FightListMachine(RuleBasedStateMachine):
    """The model: each listed fight's name and stored text (the open one's: what its key
    holds), which is open, and how many deleted fights can come back."""

    page: Page

    def __init__(self) -> None:
        super().__init__()
        self.fights: dict[str, dict[str, Any]] = {}
        self.current = ""
        self.deleted: list[dict[str, Any]] = []
        self.last: dict[str, Any] = {}

    # --- the start -------------------------------------------------------------------------
    @initialize(returning=st.one_of(st.none(), FIGHTS))
    def start(self, returning: str | None) -> None:
        """A fresh profile, or a returning user's save from before the list existed."""
        page = self.page
        page.call("storage", {} if returning is None else {"riposte.encounter": returning})
        page.call("restart", True)
        self.reload()
        assert list(self.fights) == [self.current] and self.fights[self.current]["name"] == "Combat 1"
        if returning is not None:
            assert self.fights[self.current]["text"] == returning  # nothing moved, nothing rewritten

    def reload(self) -> None:
        """A new page on this storage: the engine loads the open fight (as boot/start.js
        does), the model is what the page lists."""
        page = self.page
        seen = page.reloaded()
        stored, index = seen["storage"], seen["index"]
        page.table = Table(rng=random.Random(0))
        text = stored.get("riposte.encounter")
        answer = page.table.load(text, stored.get("riposte.checkpoint"), True)
        assert answer["ok"], answer  # every text the page stores is one the engine reads
        if "save" in answer:  # a fresh profile's empty fight, written as the session does
            assert page.call("save", answer)["result"] == "ok"
            text = answer["save"]
        else:  # the page's changes follow the text it keeps
            page.call("known", answer["seq"])
        self.current = index["current"]
        self.fights = {f["id"]: {"name": f["name"], "text": text if f["id"] == self.current else stored[f"riposte.fight.{f['id']}"]}
                       for f in index["fights"]}
        self.deleted = []
        self.last = {}

    def run(self, faults: dict[str, Any], do: str, *args: Any) -> dict[str, Any]:
        """One transaction, with ``faults`` on its writes; checks that a refusal changed
        nothing, the engine included."""
        page = self.page
        before = (page.engine(), page.stored())
        page.call("faults", faults)
        done = page.call(do, *args)
        page.call("faults", {})
        result = done["result"]
        self.last = done
        if faults.get("unavailable"):  # nothing can be written: nothing said done
            assert not result["ok"] or result.get("same") or result.get("added") == [], result
        if not result["ok"]:
            assert page.engine() == before[0], "a refused change left the engine on another fight"
            # The list may have been written back (a refusal after the commit puts it back), as the page writes it.
            assert read_list(page.stored()) == read_list(before[1]), "a refused change changed storage"
        return result

    # --- the transactions ------------------------------------------------------------------
    @rule(faults=FAULTS, data=st.data())
    def open(self, faults: dict[str, Any], data: st.DataObject) -> None:
        target = data.draw(st.sampled_from(sorted(self.fights)))
        engine_before = self.page.engine()[0]
        result = self.run(faults, "switchTo", {"id": target})
        assert result["ok"] or faults or not readable(self.fights[target]["text"]), result
        if result["ok"] and not result.get("same"):
            self.switched(engine_before, target, self.fights[target]["text"])

    @rule(faults=FAULTS, party=st.booleans())
    def new(self, faults: dict[str, Any], party: bool) -> None:
        engine_before = self.page.engine()[0]
        result = self.run(faults, "switchTo", {"request": {"op": "new", "party": party}})
        assert result["ok"] or (faults and result["why"] in ("full", "unavailable")), result
        if result["ok"]:
            self.switched(engine_before, self.last["index"]["current"], self.page.engine()[0])

    @rule(faults=FAULTS, text=SAVES, name=st.one_of(st.none(), TYPED))
    def import_one(self, faults: dict[str, Any], text: str, name: str | None) -> None:
        """A file or a link: a new fight of the list, opened."""
        engine_before = self.page.engine()[0]
        result = self.run(faults, "switchTo", {"request": {"op": "load", "text": text}, "name": name})
        assert result["ok"] == readable(text) or (faults and not result["ok"]), result
        if result["ok"]:
            self.switched(engine_before, self.last["index"]["current"], self.page.engine()[0])

    def switched(self, engine_before: str, target: str, text: str, last: bool = True) -> None:
        """The model after a switch the page said was done: the fight left is in the list
        as the ENGINE had it, the other one open (``last``: the engine
        is still on it)."""
        left = self.current
        self.fights[left]["text"] = engine_before
        self.fights.setdefault(target, {"name": self.entry(target)["name"]})["text"] = text
        self.current = target
        if left != target and left not in {f["id"] for f in self.last["index"]["fights"]}:
            # A file or a link opened over a fight never touched, under the name the list
            # gave it: that empty fight is left out of the list (web/infra/fight-list.js).
            assert json.loads(engine_before)["commands"] == [] and self.fights[left]["name"] == f"Combat {left[1:]}", left
            del self.fights[left]
        assert self.page.engine()[0] == text or not last  # the engine's fight is the one stored as open
        if last and self.last["result"].get("unsaved"):
            # Opened, but not written where the open fight lives (nor undone): kept under its
            # id, which the next start opens (or keeps beside the open fight's key, and says so).
            kept = {f["text"] for k, f in self.fights.items() if k != target}
            self.restarted(kept, {text}, len(self.fights), len(self.fights) + 1)

    def restarted(self, kept: set[str], open_now: set[str], low: int, high: int) -> None:
        """A new page on what storage holds: every fight in ``kept`` is there, the open one
        in one of the versions ``open_now``, and between ``low`` and ``high`` fights."""
        self.page.call("restart", True)
        self.reload()
        texts = {fight["text"] for fight in self.fights.values()}
        assert kept <= texts, "a fight was lost"
        assert open_now & texts, "the open fight was lost"
        assert low <= len(self.fights) <= high

    def entry(self, fight: str) -> dict[str, Any]:
        return next(f for f in self.last["index"]["fights"] if f["id"] == fight)

    @rule(faults=FAULTS, fights=st.lists(st.tuples(st.one_of(st.none(), TYPED), SAVES, st.sampled_from(
        [None, "2026-11-30T10:00:00.000Z", "x" * 100, 3])), max_size=6))
    def import_list(self, faults: dict[str, Any], fights: list[tuple[str | None, str, Any]]) -> None:
        """A file holding a list: each fight the engine reads added, none opened; a partial
        import says which were added and which not, in the file's order."""
        listed = [{"name": name, "save": text, "updated": updated} for name, text, updated in fights]
        ok = [f for f in listed if readable(f["save"])]
        before = set(self.fights)
        result = self.run(faults, "importList", listed)
        assert len(result["refused"]) == len(listed) - len(ok)
        if not result["ok"]:
            assert result["added"] == []
            return
        assert len(result["added"]) + len(result["left"]) == len(ok)
        assert bool(result["left"]) == (result["why"] is not None)
        new = [f for f in self.last["index"]["fights"] if f["id"] not in before]
        assert [f["name"] for f in new] == result["added"]
        for entry, fight in zip(new, ok, strict=False):
            assert len(entry["updated"]) <= 40  # no 3 MB date kept
            assert any(values.shows(c) for c in entry["name"]) and not values.half(entry["name"])  # a name that shows, whole
            self.fights[entry["id"]] = {"name": entry["name"], "text": fight["save"]}

    @rule(faults=FAULTS, data=st.data())
    def duplicate(self, faults: dict[str, Any], data: st.DataObject) -> None:
        source = data.draw(st.sampled_from(sorted(self.fights)))
        before = set(self.fights)
        text = self.page.engine()[0] if source == self.current else self.fights[source]["text"]
        result = self.run(faults, "duplicate", source)
        if result["ok"]:
            (copy,) = [f for f in self.last["index"]["fights"] if f["id"] not in before]
            assert copy["name"] == result["name"] and len(result["name"]) <= NAME_MAX
            self.fights[copy["id"]] = {"name": copy["name"], "text": text}

    @rule(faults=FAULTS, typed=TYPED, data=st.data())
    def rename(self, faults: dict[str, Any], typed: str, data: st.DataObject) -> None:
        fight = data.draw(st.sampled_from(sorted(self.fights)))
        result = self.run(faults, "rename", fight, typed)
        try:  # the engine judges the name (Table.name), refused not cut
            expected, refused = values.name(typed, "name"), None
        except Refusal as refusal:
            expected, refused = None, refusal.key
        if result["ok"]:
            assert result["name"] == expected and 1 <= len(result["name"]) <= NAME_MAX
            self.fights[fight]["name"] = result["name"]
        elif result["why"] == "badName":
            assert result["error"]["key"] == refused is not None

    @rule(faults=FAULTS, data=st.data())
    def remove(self, faults: dict[str, Any], data: st.DataObject) -> None:
        fight = data.draw(st.sampled_from(sorted(self.fights)))
        result = self.run(faults, "remove", fight)
        assert result["ok"] or result["why"] != "open" or fight == self.current
        if result["ok"]:
            self.deleted.append(self.fights.pop(fight))

    @precondition(lambda self: self.deleted)
    @rule(faults=FAULTS)
    def restore(self, faults: dict[str, Any]) -> None:
        """Every deleted fight comes back, the last one first."""
        before = set(self.fights)
        result = self.run(faults, "restore")
        if result["ok"]:
            (back,) = [f for f in self.last["index"]["fights"] if f["id"] not in before]
            fight = self.deleted.pop()
            assert back["name"] == fight["name"] == result["name"]
            self.fights[back["id"]] = fight

    @rule(faults=FAULTS, name=st.sampled_from(NAMES), how=st.sampled_from(["apply", "apply", "undo", "redo"]))
    def play(self, faults: dict[str, Any], name: str, how: str) -> None:
        """A tap on the board (a fighter added, undo, redo): the engine changes, what changed
        in its save written as the session writes it (web/infra/open-fight.js: a record,
        or the whole text; a refusal is said by the page as "not saved"), then the list's dates."""
        table = self.page.table
        answer = table.apply({"type": "add_combatant", "combatant": {"name": name}}) if how == "apply" else getattr(table, how)()
        if not answer["ok"] or "seq" not in answer:
            return
        self.page.call("faults", faults)
        stored = self.page.call("save", answer)["result"]
        self.page.call("faults", {})
        assert stored is not None, "the page's save does not follow the engine's answers"
        if stored == "ok":  # the changes not written before with it: the engine's fight
            self.fights[self.current]["text"] = self.page.engine()[0]

    @rule(first=st.sampled_from(["list", "open"]), data=st.data())
    def two_at_once(self, first: str, data: st.DataObject) -> None:
        """A second change asked while the first one runs (a
        single file after a list; « Ouvrir » twice) waits for it, then runs on what it left."""
        page = self.page
        engine_before = page.engine()[0]
        before = set(self.fights)
        text, listed = data.draw(FIGHTS), data.draw(FIGHTS)
        if first == "list":
            a = page.start("importList", [{"name": "Liste", "save": listed}])
        else:
            a = page.start("switchTo", {"id": data.draw(st.sampled_from(sorted(self.fights)))})
        b = page.start("switchTo", {"request": {"op": "load", "text": text}, "name": "Seul"})
        one, two = page.until(a, b)
        assert one["result"]["ok"] or (first == "open" and one["result"]["why"] == "refused"), one  # a fight found unreadable
        assert two["result"]["ok"], two
        ids = [f["id"] for f in two["index"]["fights"] if f["id"] not in before]
        assert len(ids) == len(set(ids)) == (2 if first == "list" else 1)  # never one id for two fights
        if first == "list":
            self.fights[ids[0]] = {"name": "Liste", "text": listed}
        else:
            opened = one["index"]["current"]
            self.last = one
            if opened != self.current:
                self.switched(engine_before, opened, self.fights[opened]["text"], last=False)
                engine_before = self.fights[opened]["text"]
        self.last = two
        self.switched(engine_before, two["index"]["current"], page.engine()[0])

    @rule(crash=CRASH, what=st.sampled_from(["open", "new", "import", "duplicate", "remove", "restore", "play"]),
          data=st.data())
    def crashed(self, crash: int, what: str, data: st.DataObject) -> None:
        """The tab closes after ``crash`` writes of a change: a reload finds every fight
        it had, each with its text (the open one's maybe a step behind: the one changing
        may be as it was before or after), and at most the fight being added besides."""
        page = self.page
        open_now = {self.fights[self.current]["text"], page.engine()[0]}  # the open fight: stored, and as the engine has it
        adds = what in ("new", "import", "duplicate", "restore")
        kept = {fight["text"] for fight in self.fights.values()} - open_now
        page.call("faults", {"crash": crash})
        if what == "open":
            page.call("switchTo", {"id": data.draw(st.sampled_from(sorted(self.fights)))})
        elif what == "new":
            page.call("switchTo", {"request": {"op": "new", "party": True}})
        elif what == "import":
            page.call("switchTo", {"request": {"op": "load", "text": data.draw(FIGHTS)}, "name": "Fichier"})
        elif what == "duplicate":
            page.call("duplicate", data.draw(st.sampled_from(sorted(self.fights))))
        elif what == "remove":
            fight = data.draw(st.sampled_from(sorted(self.fights)))
            if fight != self.current:
                kept.discard(self.fights[fight]["text"])
            page.call("remove", fight)
        elif what == "restore" and self.deleted:
            page.call("restore")
        elif what == "play":
            answer = page.table.apply({"type": "add_combatant", "combatant": {"name": "Tard"}})
            if answer["ok"]:
                open_now.add(page.engine()[0])  # the open fight, a tap later
                page.call("save", answer)
        # At most the fight being added, and a copy of the open one kept aside only when its
        # key held a text written nowhere else (a tap's save that had failed before the crash):
        # a switch cut short is finished, not kept twice.
        count = len(self.fights)
        self.restarted(kept, open_now, count - (what == "remove"), count + adds + (len(open_now) - 1))

    @rule(text=st.one_of(st.just("{"), FIGHTS))
    def a_left_over_appears(self, text: str) -> None:
        """A text under the open fight's own id (a switch an older page
        cut short, or a hand edit) never overwrites the intact open fight: at the next
        start both are kept, the left-over as a fight of its own, and it is said."""
        page = self.page
        if "switching" in json.loads(page.stored()["riposte.fights"]):
            return  # a switch of this page still under way: its own left-over, checked by `switched`
        open_text = self.fights[self.current]["text"]
        count = len(self.fights)
        page.call("put", f"riposte.fight.{self.current}", text)
        said = page.call("restart", True)["result"]
        self.reload()
        assert self.fights[self.current]["text"] == open_text
        if text != open_text:
            assert len(self.fights) == count + 1 and {"key": "fightsFound", "params": [1]} in said
            assert any(f["text"] == text and f["name"].endswith("(retrouvé)") for f in self.fights.values())

    @rule(next_=st.integers(-1, 2))
    def an_index_behind_its_ids(self, next_: int) -> None:
        """A list whose ``next`` is behind its ids (or not a number) never
        gives one id to two fights: the invariant checks ids after every step."""
        page = self.page
        index = json.loads(page.stored()["riposte.fights"])
        page.call("put", "riposte.fights", json.dumps({**index, "next": next_}))
        page.call("restart", True)
        self.reload()

    # --- after every step ------------------------------------------------------------------
    @invariant()
    def nothing_lost_and_what_was_said_happened(self) -> None:
        page = self.page
        if not self.fights:
            return
        seen = page.reloaded()
        index, stored = seen["index"], seen["storage"]
        assert index["current"] == self.current
        assert {f["id"]: f["name"] for f in index["fights"]} == {k: f["name"] for k, f in self.fights.items()}
        for fight in index["fights"]:
            text = stored["riposte.encounter"] if fight["id"] == self.current else stored.get(f"riposte.fight.{fight['id']}")
            assert text == self.fights[fight["id"]]["text"], fight
        if self.last:  # the page shows what storage holds
            shown = self.last["index"]
            assert [(f["id"], f["name"]) for f in shown["fights"]] == [(f["id"], f["name"]) for f in index["fights"]]
            assert self.last["deleted"] == len(self.deleted)
        ids = [f["id"] for f in index["fights"]]
        assert len(ids) == len(set(ids)) and all(int(i[1:]) < index["next"] for i in ids)


def test_the_list_of_fights_loses_nothing(page: Page) -> None:
    FightListMachine.page = page
    # Settings given to this run, not set on the class: the test may run twice in one
    # process (mutmut's runs do).
    run_state_machine_as_test(FightListMachine, settings=settings(
        max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None, **DEBUG))


@pytest.mark.parametrize("crash", range(8))
@pytest.mark.parametrize("how", ["open", "new"])
def test_a_switch_cut_short_at_any_write_is_finished_or_undone_never_doubled(page: Page, crash: int, how: str) -> None:
    """Every point where a tab may close during « Ouvrir » or « Nouveau combat »: the next
    start shows the fight switched from, or the one switched to once the list says so, each
    with its text, never one of them twice. A new fight written but not yet listed is
    found (and said), not lost."""
    first, second = fight_text(["Aldric"], 1), fight_text(["Orque", "Lyra"])
    page.call("storage", {"riposte.encounter": first})
    page.call("restart", True)
    page.table = Table(rng=random.Random(0))
    page.table.load(first)
    if how == "open":
        page.call("importList", [{"name": "Autre", "save": second}])
        target: dict[str, Any] = {"id": "f2"}
    else:
        target = {"request": {"op": "new", "party": False}}
    page.call("faults", {"crash": crash})
    assert page.call("switchTo", target)["result"]["ok"]
    opened = page.table.export(True)["text"]
    said = page.call("restart", True)["result"]
    index, stored = page.stored_index(), page.stored()
    committed = crash >= (2 if how == "open" else 3)  # the writes before the list's: the fight left, the one opened
    found = how == "new" and crash == 2
    assert said == ([{"key": "fightsFound", "params": [1]}] if found else [])
    assert index["current"] == ("f2" if committed else "f1")
    texts = {f["id"]: stored["riposte.encounter" if f["id"] == index["current"] else f"riposte.fight.{f['id']}"] for f in index["fights"]}
    assert texts == ({"f1": first, "f2": opened} if committed or found or how == "open" else {"f1": first})
    assert "switching" not in index and f"riposte.fight.{index['current']}" not in stored
