"""The live table's seating through the game master's engine (engine/seating.py, by way of
Table's ``phone``, ``hear`` and ``host``): phones named by their players, a PJ asked of
the game master from a phone that follows (D27), and the note when the game master comes
back to a fight the phones saw (docs/LIVE-TABLE.md, « Table en direct »)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import seating as seat
from engine.live import OPEN_INVITATIONS
from engine.table import Table
from tests.casts import CASTS

A, B, C = "a" * 64, "b" * 64, "c" * 64


def table() -> Table:
    """Aldric and Lyra (PJ) and an orc, no round yet."""
    t = Table(rng=random.Random(1))
    for name in ("aldric", "lyra", "orque"):
        assert t.apply({"type": "add_combatant", "combatant": CASTS[name]})["ok"]
    return t


def told(answer: dict[str, Any], fp: str, kind: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    return [(k, f) for to, k, f in answer["live"]["told"] if to == fp and (kind is None or k == kind)]


def phone_row(answer: dict[str, Any], fp: str) -> dict[str, Any]:
    return next(p for p in answer["live"]["view"]["phones"] if p["fp"] == fp)


# --- 1. phones named by their players ----------------------------------------------------


@pytest.mark.parametrize(("typed", "kept"), [
    ("Camille", "Camille"),
    ("  Camille  ", "Camille"),
    ("Zoé 🎲", "Zoé 🎲"),
    ("x" * seat.MAX_NAME, "x" * seat.MAX_NAME),
    ("x" * (seat.MAX_NAME + 1), None),
    ("", None),
    ("   ", None),
    ("\u200b\u200d\u2060", None),  # only invisible characters
    ("\u3164\u3164", None),  # Hangul fillers: letters that draw nothing
    ("\u0301\u0301", None),  # combining marks alone
    ("Cam\nille", None),  # a control character
    ("\x07", None),
    (42, None),
])
def test_a_phone_keeps_the_name_its_player_gave_it_when_it_is_a_short_visible_one(typed: object, kept: str | None) -> None:
    t = table()
    answer = t.phone(A, "open", 1000, typed)
    assert phone_row(answer, A)["name"] == kept


def test_the_name_stays_through_a_reconnection_without_one_and_a_reload_of_the_game_masters_page() -> None:
    t = table()
    t.phone(A, "open", 1000, "Camille")
    assert t.hear(A, {"t": "claim", "id": "lyra"})["ok"]
    t.phone(A, "lost")
    # A spare or a relayed answer (or an older phone's answer) carries no name: kept.
    answer = t.phone(A, "open", 2000, None)
    assert phone_row(answer, A)["name"] == "Camille"
    # A name refused quietly keeps the one it had too.
    answer = t.phone(A, "open", 3000, "\u200b")
    assert phone_row(answer, A)["name"] == "Camille"
    kept = answer["live"]["kept"]
    assert kept["players"][0]["phoneName"] == "Camille"

    # The game master's page reloads: its engine is given back what the page kept.
    again = table()
    answer = again.host({"what": "restore", "kept": kept})
    row = phone_row(answer, A)
    assert (row["name"], row["state"], row["pj"]) == ("Camille", "away", "Lyra")
    # An older layout's ``name`` was the PJ's: not a phone's name.
    answer = table().host({"what": "restore", "kept": {"players": [{"fp": A, "number": 1, "claim": "lyra", "name": "Lyra"}]}})
    assert phone_row(answer, A)["name"] is None
    # What was kept is judged again: a control character is no name.
    answer = table().host({"what": "restore", "kept": {"players": [{"fp": A, "number": 1, "phoneName": "a\u0000"}]}})
    assert phone_row(answer, A)["name"] is None


def test_a_claim_line_names_the_asking_phone_by_its_name() -> None:
    t = table()
    t.phone(A, "open", 1000, None)
    t.hear(A, {"t": "claim", "id": "lyra"})
    t.phone(A, "lost")
    t.phone(B, "open", 5000, "Camille")
    answer = t.hear(B, {"t": "claim", "id": "lyra"})
    [ask] = answer["live"]["view"]["asks"]
    assert (ask["called"], ask["number"], ask["since"], ask["pj"]) == ("Camille", 2, 5000, "Lyra")
    assert ask["holder"] == {"number": 1, "called": "Lyra", "away": True}


# --- 2. asking the game master for a PJ held by a phone that follows ---------------------


def test_a_plain_claim_of_a_pj_held_by_a_phone_that_follows_is_refused_with_who_holds_it() -> None:
    t = table()
    t.phone(A, "open", 1000, "Camille")
    t.hear(A, {"t": "claim", "id": "lyra"})
    t.phone(B, "open", 2000, None)
    [(_, board)] = told(t.hear(B, {"t": "claim", "id": "aldric"}), B, "board")
    assert {c["id"]: c["may"] for c in board["claims"]} == {"aldric": "free", "lyra": "held"}
    answer = t.hear(B, {"t": "claim", "id": "lyra"})
    [(_, refused)] = told(answer, B)
    assert refused == {"reason": "taken", "pj": "lyra", "holder": {"n": 1, "was": None, "away": False}, "claim": "aldric"}
    assert answer["live"]["view"]["asks"] == []


def test_a_claim_that_asks_goes_to_the_game_master_whose_accept_hands_the_pj_over() -> None:
    t = table()
    t.phone(A, "open", 1000, "Brune")
    t.hear(A, {"t": "claim", "id": "lyra"})
    t.phone(B, "open", 2000, "Camille")
    answer = t.hear(B, {"t": "claim", "id": "lyra", "ask": True})
    assert told(answer, B) == [("ok", {"what": "claimAskedHeld"})]
    assert told(answer, "") == [("asked", {"fp": B, "pj": "lyra"})]
    assert told(answer, A) == []  # nothing changes until the game master answers
    [ask] = answer["live"]["view"]["asks"]
    assert (ask["called"], ask["pj"]) == ("Camille", "Lyra")
    assert ask["holder"] == {"number": 1, "called": "Brune", "away": False}
    assert phone_row(answer, A)["claim"] == "lyra"

    answer = t.host({"what": "claim", "fp": B, "yes": True})
    assert phone_row(answer, B)["claim"] == "lyra"
    assert (phone_row(answer, A)["claim"], phone_row(answer, A)["called"]) == (None, "Brune")  # by its name still
    # The phone that held it is told its PJ went (its board: no claim), as when freed.
    [(_, board)] = told(answer, A, "board")
    assert board["claim"] is None
    assert {c["id"]: c["may"] for c in board["claims"]}["lyra"] == "held"
    [(_, board)] = told(answer, B, "board")
    assert board["claim"] == "lyra"


def test_a_claim_that_asks_refused_by_the_game_master_leaves_the_pj_where_it_was() -> None:
    t = table()
    t.phone(A, "open", 1000, None)
    t.hear(A, {"t": "claim", "id": "lyra"})
    t.phone(B, "open", 2000, None)
    t.hear(B, {"t": "claim", "id": "lyra", "ask": True})
    answer = t.host({"what": "claim", "fp": B, "yes": False})
    assert told(answer, B) == [("refused", {"reason": "claim_refused", "claim": None})]
    assert phone_row(answer, A)["claim"] == "lyra"
    assert phone_row(answer, B)["claim"] is None


def test_a_claim_that_asks_for_a_free_pj_takes_it() -> None:
    t = table()
    t.phone(A, "open", 1000, None)
    answer = t.hear(A, {"t": "claim", "id": "aldric", "ask": True})
    assert phone_row(answer, A)["claim"] == "aldric"
    assert answer["live"]["view"]["asks"] == []


# --- 3. the game master comes back to a fight ---------------------------------------------


def opened(answer: dict[str, Any], fp: str) -> list[dict[str, Any]]:
    return [f for _, f in told(answer, fp, "opened")]


def test_the_phones_are_told_when_the_game_master_comes_back_to_a_fight_they_saw() -> None:
    t = table()
    t.phone(A, "open", 1000, None)
    # Another fight: the phones never saw it.
    answer = t.host({"what": "switched", "fight": "h2", "from": "h1"})
    assert opened(answer, A) == [{}]
    # Back to the first: it saw it (it paired while that one was open).
    answer = t.host({"what": "switched", "fight": "h1", "from": "h2"})
    assert opened(answer, A) == [{"back": True}]
    # A phone paired on the second fight only: the first is another fight to it.
    t.phone(B, "open", 2000, None)
    answer = t.host({"what": "switched", "fight": "h3", "from": "h1"})
    assert (opened(answer, A), opened(answer, B)) == ([{}], [{}])
    answer = t.host({"what": "switched", "fight": "h2", "from": "h3"})
    assert (opened(answer, A), opened(answer, B)) == ([{"back": True}], [{}])
    answer = t.host({"what": "switched", "fight": "h1", "from": "h2"})
    assert (opened(answer, A), opened(answer, B)) == ([{"back": True}], [{"back": True}])


def test_a_phone_away_during_a_switch_was_not_shown_that_fight() -> None:
    t = table()
    t.phone(A, "open", 1000, None)
    t.phone(A, "lost")
    answer = t.host({"what": "switched", "fight": "h2", "from": "h1"})
    assert opened(answer, A) == []
    t.phone(A, "open", 2000, None)
    answer = t.host({"what": "switched", "fight": "h3", "from": "h2"})
    assert opened(answer, A) == [{}]
    answer = t.host({"what": "switched", "fight": "h2", "from": "h3"})
    assert opened(answer, A) == [{"back": True}]
    # It did see the first one: it paired there.
    answer = t.host({"what": "switched", "fight": "h1", "from": "h2"})
    assert opened(answer, A) == [{"back": True}]


def test_without_the_fights_identity_every_fight_is_another() -> None:
    t = table()
    t.phone(A, "open", 1000, None)
    for _ in range(3):
        answer = t.host({"what": "switched"})
        assert opened(answer, A) == [{}]
    answer = t.host({"what": "switched", "fight": ["not", "an", "id"], "from": 7})
    assert opened(answer, A) == [{}]


def test_the_name_field_on_a_players_page_takes_what_the_engine_keeps() -> None:
    """The player's page has no engine: its field's length is the seating's MAX_NAME."""
    html = (Path(__file__).parent.parent / "index.html").read_text(encoding="utf-8")
    assert re.search(rf'<input id="live-phone-name"[^>]* maxlength="{seat.MAX_NAME}"', html)


# --- 4. how a waiting play ends (D27) -----------------------------------------------------


def waiting() -> Table:
    """Lyra's turn, held by A's phone, whose pass waits for the game master (mode confirm);
    B's phone follows, holding Aldric."""
    t = table()
    assert t.apply({"type": "start_round", "rolls": {"lyra": 6, "aldric": 1, "orque": 1}})["ok"]
    t.phone(A, "open", 1000, None)
    t.hear(A, {"t": "claim", "id": "lyra"})
    t.phone(B, "open", 2000, None)
    t.hear(B, {"t": "claim", "id": "aldric"})
    answer = t.hear(A, {"t": "pass", "n": 1})
    assert told(answer, A) == [("ok", {"what": "waiting"})]
    assert [x["actor"] for x in answer["live"]["view"]["lines"]] == ["Lyra"]
    return t


@pytest.mark.parametrize("end", [
    lambda t: t.phone(A, "lost"),
    lambda t: t.host({"what": "mute", "fp": A, "on": True}),
    lambda t: t.host({"what": "remove", "fp": A}),
    lambda t: t.host({"what": "free", "fp": A}),
    lambda t: t.hear(A, {"t": "claim", "id": None}),
], ids=["lost", "muted", "removed", "freed", "let_go"])
def test_a_waiting_play_goes_with_its_phone_or_its_pj(end: Any) -> None:
    """A phone away, muted, removed, or without the PJ it played: its play no longer waits,
    and nothing of it is applied (its line is dropped, untold: the phone has gone or
    chose again)."""
    t = waiting()
    answer = end(t)
    assert answer["live"]["view"]["lines"] == []
    assert told(answer, A, "refused") == [] and told(answer, A, "ok") == []
    assert t.host({"what": "line", "id": 1, "yes": True})["live"]["told"] == []
    assert t.show()["board"]["active"] == ["lyra"]  # the pass was not applied


def test_an_applied_play_waits_no_more() -> None:
    t = waiting()
    answer = t.host({"what": "line", "id": 1, "yes": True})
    assert told(answer, A, "ok") == [("ok", {"what": "applied"})]
    assert answer["live"]["view"]["lines"] == []
    assert t.show()["board"]["active"] != ["lyra"]
    # Applied once: the same « Appliquer » again changes nothing.
    again = t.host({"what": "line", "id": 1, "yes": True})
    assert again["live"]["told"] == [] and "seq" not in again


@pytest.mark.parametrize(("do", "reason"), [
    ({"what": "line", "id": 1, "yes": False}, "gm_refused"),
    ({"what": "refuse_all", "fp": A}, "gm_refused"),
    ({"what": "mode", "mode": "off"}, "players_off"),
    ({"what": "switched", "fight": "h2", "from": "h1"}, "fight_switched"),
])
def test_a_waiting_play_refused_is_told_to_its_phone_once(do: dict[str, Any], reason: str) -> None:
    t = waiting()
    answer = t.host(do)
    assert told(answer, A, "refused") == [("refused", {"reason": reason})]
    assert told(answer, B, "refused") == []
    assert answer["live"]["view"]["lines"] == []
    assert t.show()["board"]["active"] == ["lyra"]


def test_a_pj_asked_for_goes_only_to_a_phone_that_follows() -> None:
    """The game master accepts a claim that asked while the asking phone is reconnecting:
    refused (D27), the PJ stays with its holder."""
    t = table()
    t.phone(A, "open", 1000, None)
    t.hear(A, {"t": "claim", "id": "lyra"})
    t.phone(B, "open", 2000, None)
    t.hear(B, {"t": "claim", "id": "lyra", "ask": True})
    t.phone(B, "connecting")
    answer = t.host({"what": "claim", "fp": B, "yes": True})
    assert told(answer, B) == [("refused", {"reason": "claim_refused", "claim": None})]
    assert (phone_row(answer, A)["claim"], phone_row(answer, B)["claim"]) == ("lyra", None)


# --- 5. what the player's page draws, as the engine says it ------------------------------


@pytest.mark.parametrize("die", [0, 7, -1])
def test_a_declared_die_off_the_dies_faces_is_the_engines_to_refuse(die: int) -> None:
    """R1.2: the wire takes any whole number (web/live/protocol.js); the engine judges the
    declaration as the round's start would, and the phone is told why."""
    t = table()
    t.phone(A, "open", 1000, None)
    t.hear(A, {"t": "claim", "id": "lyra"})
    answer = t.hear(A, {"t": "declare", "die": die})
    [(kind, fields)] = told(answer, A)
    assert (kind, fields["reason"]) == ("refused", "engine")
    assert fields["error"]["params"]["field"] == "rolls.lyra"
    assert told(t.hear(A, {"t": "declare", "die": 6}), A) == [("ok", {"what": "declare"})]


def test_an_attack_on_a_pj_tells_its_phone_the_answers_that_fit_it() -> None:
    """R5.3, D23: the target's phone draws the answers the engine names (the catalogue's
    ``answers`` of that attack), never works them out."""
    from engine.actions.defence import ANSWERS

    t = table()
    t.phone(A, "open", 1000, None)
    t.hear(A, {"t": "claim", "id": "lyra"})
    t.host({"what": "mode", "mode": "auto"})
    t.apply({"type": "start_round", "rolls": {"lyra": 1, "aldric": 1, "orque": 6}})
    answer = json.loads(t.call(json.dumps({"op": "apply", "command": {
        "type": "act", "actor": "orque", "action": "attaque_melee", "target": "lyra"}})))
    [(_, fields)] = told(answer, A, "attacked")
    assert fields == {"by": "orque", "action": "attaque_melee", "answers": list(ANSWERS["attaque_melee"])}
    assert "parer" in fields["answers"]


@given(st.lists(st.tuples(st.booleans(), st.sampled_from(["", "x"])), max_size=20))
def test_one_invitation_more_closes_the_oldest_for_the_table_first(made: list[tuple[bool, str]]) -> None:
    """At most OPEN_INVITATIONS wait once one more is made: the page closes what the
    engine names, the oldest made for the table first, one sent through the chat only
    when every one waiting is such (docs/LIVE-TABLE.md, its opening)."""
    open_ = [{"id": f"{n}{extra}", "remote": remote} for n, (remote, extra) in enumerate(made)]
    close = Table().host({"what": "invite", "open": open_})["live"]["close"]
    left = [i for i in open_ if i["id"] not in close]
    assert len(left) == min(len(open_), OPEN_INVITATIONS - 1)
    for gone in close:
        i = next(i for i in open_ if i["id"] == gone)
        older_kept = [k for k in left if open_.index(k) < open_.index(i)]
        # Every invitation kept that is older than one closed is a chat's, and one for the
        # table went before any chat's did.
        assert all(k["remote"] for k in older_kept)
        assert not i["remote"] or all(k["remote"] for k in left)


@pytest.mark.parametrize("bad", [None, "x", [1, {"id": 3}, {"remote": True}], {"id": "a"}])
def test_a_list_of_invitations_that_does_not_read_as_one_closes_nothing(bad: object) -> None:
    assert Table().host({"what": "invite", "open": bad})["live"]["close"] == []
