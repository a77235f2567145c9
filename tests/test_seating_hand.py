"""The seating's pieces the random tables reach least, each with what it must say exactly
(engine/seating.py, D27): the phones connected with each other (``knit``: which pairs the
game master introduces, through whom an offer for a phone away goes, in turn), the game
master's answer to an interruption request, a proposal edited by the game master, what
the game master's page is given to draw (``gm_view``) and keeps across its reloads
(``kept``, ``restore``), a weapon and a die declared (R1, D2), an interruption asked for
(R5.1, D20), a new board, « Refuser tout », the players' setting, and another fight."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from engine import seating as seat

A, B, C, D = "a" * 64, "b" * 64, "c" * 64, "d" * 64


def table(*phones: seat.Phone, **more: object) -> seat.Seating:
    return replace(seat.Seating(phones=phones), **more)  # type: ignore[arg-type]


def on(fp: str, number: int, **more: object) -> seat.Phone:
    return replace(seat.Phone(fp, number, state="connected", known=True), **more)  # type: ignore[arg-type]


# --- the phones connected with each other ---------------------------------------------------


def test_knit_introduces_each_pair_of_following_phones_once_the_smaller_fingerprint_offering() -> None:
    s = table(on(B, 2), on(A, 1), on(C, 3, state="away"))
    s, told, away = seat.knit(s, now=1000, again=20_000, relay_again=10_000)
    assert told == [(A, "mate-open", {"peer": B})]  # the phone away is not introduced
    assert s.introduced == ((A, B, 1000),)
    assert away == []  # nobody reaches C
    # Asked again only after `again` ms.
    assert seat.knit(s, now=20_999, again=20_000, relay_again=10_000)[1] == []
    s2, told2, _ = seat.knit(s, now=21_000, again=20_000, relay_again=10_000)
    assert told2 == [(A, "mate-open", {"peer": B})] and s2.introduced == ((A, B, 21_000),)


def test_knit_leaves_out_pairs_that_reach_each_other_and_phones_with_their_mates_full() -> None:
    both = table(on(A, 1, mates=(B,)), on(B, 2, mates=(A,)))
    assert seat.knit(both, 0, 1, 1)[1] == []
    one_way = table(on(A, 1, mates=(B,)), on(B, 2))  # B does not say it reaches A
    assert seat.knit(one_way, 0, 1, 1)[1] == [(A, "mate-open", {"peer": B})]
    full = tuple(f"{n:064x}" for n in range(seat.MAX_MATES))
    crowded = table(on(A, 1, mates=full), on(B, 2))
    assert seat.knit(crowded, 0, 1, 1)[1] == []
    assert seat.knitting(both) is False and seat.knitting(one_way) is True and seat.knitting(crowded) is False


def test_a_phone_reaches_one_away_only_when_introduced_and_listing_it() -> None:
    away = replace(on(C, 3), state="away")
    listed = table(on(A, 1, mates=(C,)), away)
    assert seat.reaching(listed, C) == []  # never introduced: a phone cannot make itself a relay
    introduced = replace(listed, introduced=((A, C, 5),))
    assert seat.introduced(introduced, C, A) and seat.introduced(introduced, A, C)
    assert not seat.introduced(introduced, A, B)
    assert seat.reaching(introduced, C) == [A]
    silent = replace(introduced, phones=(on(A, 1, mates=(C,), state="silent"), away))
    assert seat.reaching(silent, C) == [A]  # silent is still open
    gone = replace(introduced, phones=(on(A, 1, mates=(C,), state="away"), away))
    assert seat.reaching(gone, C) == []
    assert seat.knitting(introduced) is True


def test_offers_for_a_phone_away_go_through_the_phones_that_reach_it_in_turn() -> None:
    away = replace(on(D, 4), state="away")
    s = table(on(A, 1, mates=(D,)), on(B, 2, mates=(D,)), on(C, 3), away,
              introduced=((A, D, 0), (B, D, 0)))
    s, first = seat.relay_through(s, D, 100)
    s, second = seat.relay_through(s, D, 200)
    s, third = seat.relay_through(s, D, 300)
    assert (first, second, third) == (A, B, A)
    assert s.relayed == ((D, A, 300),)
    assert seat.relay_through(s, C, 400) == (s, None)  # nobody reaches C


def test_knit_names_a_phone_away_to_look_for_at_most_every_relay_again() -> None:
    away = replace(on(D, 4), state="away")
    s = table(on(A, 1, mates=(D, B)), on(B, 2, mates=(A,)), away, introduced=((A, B, 0), (A, D, 0)))
    s, told, wanted = seat.knit(s, now=10_000, again=20_000, relay_again=10_000)
    assert told == [] and wanted == [D]
    s, _ = seat.relay_through(s, D, 10_000)
    assert seat.knit(s, now=19_999, again=20_000, relay_again=10_000)[2] == []
    assert seat.knit(s, now=20_000, again=20_000, relay_again=10_000)[2] == [D]
    never = replace(away, known=False)
    assert seat.knit(replace(s, phones=(s.phones[0], s.phones[1], never)), 30_000, 20_000, 10_000)[2] == []


# --- the game master's answers ---------------------------------------------------------------


def test_an_interruption_request_taken_or_dismissed_is_told_to_the_phones_of_that_pj() -> None:
    s = table(on(A, 1, claim="c1"), on(B, 2, claim="c1", state="away"), on(C, 3, claim="c2"),
              requests=("c1", "c2"), seq=7)
    taken, told = seat.accept_request(s, "c1")
    assert taken.requests == ("c2",)
    assert told == [(A, "ok", {"what": "interruptAccepted"})]
    assert taken.phone(A).dismissed is None  # type: ignore[union-attr]
    dismissed, told = seat.dismiss_request(s, "c1")
    assert dismissed.requests == ("c2",)
    assert told == [(A, "ok", {"what": "interruptDismissed"})]
    # Not again on this board: its phone's request is refused until the board changes.
    assert dismissed.phone(A).dismissed == 7  # type: ignore[union-attr]
    assert dismissed.phone(B).dismissed is None  # type: ignore[union-attr]


def test_a_proposal_the_game_master_edited_is_marked_and_only_that_one() -> None:
    p1 = seat.Proposal("c1", 4, 1, A)
    p2 = seat.Proposal("c2", 2, 1, B, weapon="epee")
    s = seat.edited(table(proposals=(p1, p2)), "c2")
    assert s.proposals == (p1, replace(p2, edited=True))


# --- what the game master's page draws -------------------------------------------------------


def test_the_game_masters_view_names_each_phone_line_request_and_claim() -> None:
    line = seat.Line(5, B, {"type": "act", "actor": "c2", "action": "tirer", "target": "c3", "by_player": True}, "c1")
    s = table(on(B, 2, claim="c2", name="Camille", since=99), on(A, 1, claim="c1", muted=True),
              replace(on(C, 3, asks="c1", was="c2"), state="silent"),
              lines=(line,), requests=("c1",), proposals=(seat.Proposal("c1", None, 2, A),), mode="auto", pnj_details=True)
    fight = seat.Fight({"combatants": {}, "mine": {"c2": {"actions": {"tirer": {"allowed": True, "cost": 5}}}}})
    view = seat.gm_view(s, fight, {"c1": "Aldric", "c2": "Lyra", "c3": "Orque"})
    assert view["phones"] == [
        {"fp": A, "number": 1, "pj": "Aldric", "called": "Aldric", "name": None, "since": None, "state": "connected",
         "claim": "c1", "muted": True, "waiting": True},
        {"fp": B, "number": 2, "pj": "Lyra", "called": "Camille", "name": "Camille", "since": 99, "state": "connected",
         "claim": "c2", "muted": False, "waiting": True},
        {"fp": C, "number": 3, "pj": None, "called": "Lyra", "name": None, "since": None, "state": "silent",
         "claim": None, "muted": False, "waiting": True},
    ]
    assert view["lines"] == [{"id": 5, "actor": "Lyra", "type": "act", "action": "tirer", "whom": "Orque",
                              "verdict": {"allowed": True, "cost": 5}, "elsewhere": "Aldric"}]
    assert view["requests"] == [{"id": "c1", "name": "Aldric"}]
    assert [(a["fp"], a["pj"]) for a in view["asks"]] == [(C, "Aldric")]
    assert view["proposals"] == {"c1": {"die": None, "round": 2, "from": A, "edited": False}}
    assert (view["mode"], view["pnj_details"], view["following"], view["knit"]) == ("auto", True, True, True)


# --- a small fight, as the players' board gives it (engine/players.py) -------------------------


def shown(round_: int = 0, round_over: bool = False, active: tuple[str, ...] = (),
          mine: dict[str, Any] | None = None, catalogue: dict[str, Any] | None = None) -> dict[str, Any]:
    """Aldric (c1) and Lyra (c2), PJ, and an orc (c3), PNJ, on the players' board."""
    return {"round": round_, "round_over": round_over, "active": list(active), "order": ["c1", "c2", "c3"], "phase": None,
            "combatants": {"c1": {"id": "c1", "name": "Aldric", "side": "pj", "hors_combat": False},
                           "c2": {"id": "c2", "name": "Lyra", "side": "pj", "hors_combat": False},
                           "c3": {"id": "c3", "name": "Orque", "side": "pnj", "hors_combat": False}},
            "mine": mine if mine is not None else {"c1": {"actions": {}}, "c2": {"actions": {}}},
            "catalogue": catalogue or {}}


REFUSAL = {"code": "not_allowed", "key": "err.not_allowed", "params": {"n": 1}, "message": "Pas maintenant."}
#: The refusal as a phone is told it (``_refused``: the engine's error, worded on the phone).
TOLD_REFUSAL = {"reason": "engine", "error": REFUSAL}


# --- a weapon and a die for the next round (R1, D2) ------------------------------------------


def test_a_declaration_is_judged_as_the_next_rounds_start_and_proposed_to_the_game_master() -> None:
    asked: list[Mapping[str, Any]] = []
    fight = seat.Fight(shown(round_=2, round_over=True), check=lambda command: asked.append(command) or None)
    s = table(on(A, 1, claim="c1"), on(B, 2, claim="c2"))
    s, told, line = seat.judge(s, fight, A, {"t": "declare", "die": 4, "weapon": "epee"})
    assert asked == [{"type": "start_round", "rolls": {"c1": 4}, "declarations": {"c1": "epee"}}]
    assert (told, line) == ([(seat.GM, "declared", {"pj": "c1", "die": 4}), (A, "ok", {"what": "declare"})], None)
    assert s.proposals == (seat.Proposal("c1", 4, 3, A, "epee"),)  # round 3 is the next
    # Without a weapon: the die alone is judged, and the form keeps its own weapon.
    s, told, _ = seat.judge(s, fight, B, {"t": "declare", "die": 2})
    assert asked[1] == {"type": "start_round", "rolls": {"c2": 2}}
    assert told == [(seat.GM, "declared", {"pj": "c2", "die": 2}), (B, "ok", {"what": "declare"})]
    assert s.proposals[1] == seat.Proposal("c2", 2, 3, B)
    assert seat.gm_view(s, fight, {})["proposals"] == {"c1": {"die": 4, "round": 3, "from": A, "edited": False, "weapon": "epee"},
                                                      "c2": {"die": 2, "round": 3, "from": B, "edited": False}}
    # A new declaration of a PJ replaces its own, not another's.
    s, _, _ = seat.judge(s, fight, A, {"t": "declare", "die": 6, "weapon": None})
    assert s.proposals == (seat.Proposal("c2", 2, 3, B), seat.Proposal("c1", 6, 3, A, None))


def test_a_declaration_the_engine_refuses_is_told_to_its_phone_and_proposes_nothing() -> None:
    fight = seat.Fight(shown(), check=lambda command: REFUSAL)
    s = table(on(A, 1, claim="c1"))
    after, told, _ = seat.judge(s, fight, A, {"t": "declare", "die": 9})
    assert told == [(A, "refused", TOLD_REFUSAL)]
    assert after.proposals == ()


def test_a_declaration_after_the_game_master_edited_that_row_for_that_round_is_refused() -> None:
    fight = seat.Fight(shown(round_=1, round_over=True))
    edited = table(on(A, 1, claim="c1"), on(B, 2, claim="c2"),
                   proposals=(seat.Proposal("c1", 3, 2, A, edited=True),))
    after, told, _ = seat.judge(edited, fight, A, {"t": "declare", "die": 5})
    assert told == [(A, "refused", {"reason": "gm_edited"})] and after.proposals == edited.proposals
    # Another PJ declares as before; and a row edited for another round does not hold.
    assert seat.judge(edited, fight, B, {"t": "declare", "die": 5})[1][1] == (B, "ok", {"what": "declare"})
    older = replace(edited, proposals=(seat.Proposal("c1", 3, 1, A, edited=True),))
    after, told, _ = seat.judge(older, fight, A, {"t": "declare", "die": 5})
    assert told[1] == (A, "ok", {"what": "declare"}) and after.proposals == (seat.Proposal("c1", 5, 2, A),)


# --- an interruption request (R5.1, D20) -----------------------------------------------------


PARER = {"allowed": False, "category": "interruption", **REFUSAL}


@pytest.mark.parametrize(("actions", "catalogue", "refused"), [
    ({"parer": PARER}, {}, PARER),  # refused, as its verdict says it is an interruption
    ({"parer": {**PARER, "category": None}}, {"parer": {"category": "interruption"}}, {**PARER, "category": None}),  # as the catalogue says
    ({"attaque": {"allowed": True, "category": "phase"}, "parer": PARER, "esquiver": {**PARER, "code": "other"}}, {}, PARER),  # the first
    ({"parer": PARER, "esquiver": {"allowed": True, "category": "interruption"}}, {}, None),  # one is allowed
    ({"attaque": {"allowed": False, "category": "phase"}}, {}, None),  # no interruption at all: the game master rules (D16)
])
def test_an_interruption_request_is_refused_only_when_each_interruption_of_the_pj_is(
        actions: dict[str, Any], catalogue: dict[str, Any], refused: dict[str, Any] | None) -> None:
    fight = seat.Fight(shown(round_=1, mine={"c1": {"actions": actions}}, catalogue=catalogue))
    s = table(on(A, 1, claim="c1"))
    after, told, _ = seat.judge(s, fight, A, {"t": "interrupt"})
    if refused is None:
        assert told == [(seat.GM, "request", {"pj": "c1"}), (A, "ok", {"what": "interrupt"})]
        assert after.requests == ("c1",)
        assert seat.judge(after, fight, A, {"t": "interrupt"})[0].requests == ("c1",)  # asked twice, one request
    else:
        error = {k: refused.get(k) for k in ("code", "key", "params", "message")}
        assert told == [(A, "refused", {"reason": "engine", "error": error})]
        assert after.requests == ()


def test_an_interruption_request_dismissed_is_refused_until_the_board_changes() -> None:
    fight = seat.Fight(shown(round_=1, mine={"c1": {"actions": {"parer": {"allowed": True, "category": "interruption"}}}}))
    s = table(on(A, 1, claim="c1", dismissed=4), seq=4)
    assert seat.judge(s, fight, A, {"t": "interrupt"})[1] == [(A, "refused", {"reason": "dismissed"})]
    s, _ = seat.after_change(s, fight)
    assert seat.judge(s, fight, A, {"t": "interrupt"})[1][1] == (A, "ok", {"what": "interrupt"})


# --- a new board -----------------------------------------------------------------------------


def test_a_new_board_keeps_the_proposals_of_rounds_to_come_and_the_requests_still_allowed() -> None:
    mine = {"c1": {"actions": {"parer": {"allowed": True, "category": "interruption"}}},
            "c2": {"actions": {"parer": PARER}}}
    fight = seat.Fight(shown(round_=2, mine=mine))
    proposals = (seat.Proposal("c1", 4, 2, A), seat.Proposal("c2", 1, 1, B), seat.Proposal("c9", 6, 3, A),
                 seat.Proposal("c3", 5, 3, B))
    s = table(on(A, 1, claim="c1"), on(B, 2, claim="c2"), requests=("c1", "c2", "c9"), proposals=proposals, seq=7)
    s, told = seat.after_change(s, fight)
    # Round 2 is shown again after an undone start of round 3; round 1's die is spent; c9 is gone.
    assert s.proposals == (proposals[0], proposals[3])
    assert s.requests == ("c1",)  # c2 may no longer interrupt, c9 is not on the board
    assert s.seq == 8
    assert [(fp, kind, fields["seq"]) for fp, kind, fields in told] == [(A, "board", 8), (B, "board", 8)]


@pytest.mark.parametrize("kind", ["undone", "redone"])
def test_a_play_undone_or_done_again_is_told_to_the_phone_that_plays_its_pj(kind: str) -> None:
    fight = seat.Fight(shown(round_=1))
    s = table(on(A, 1, claim="c1"), on(B, 2, claim="c2"), on(C, 3, claim="c3", state="away"))
    act = {"type": "act", "actor": "c1", "action": "tirer", "target": "c3", "by_player": True}
    _, told = seat.after_change(s, fight, **{kind: act})
    assert [m[:2] for m in told] == [(A, "board"), (B, "board"), (A, kind)] and told[2][2] == {"action": "tirer"}
    _, told = seat.after_change(s, fight, **{kind: {"type": "pass", "actor": "c2", "by_player": True}})
    assert told[2:] == [(B, kind, {"action": None})]
    # The game master's own command, or one for a fighter whose phone is away: nothing more.
    assert len(seat.after_change(s, fight, **{kind: {**act, "by_player": False}})[1]) == 2
    assert len(seat.after_change(s, fight, **{kind: {**act, "actor": "c3"}})[1]) == 2


# --- the game master's hand ------------------------------------------------------------------


def test_refuse_all_refuses_a_phones_waiting_play_request_and_claim_each_once() -> None:
    fight = seat.Fight(shown(round_=1))
    line = seat.Line(3, A, {"type": "pass", "actor": "c1", "by_player": True})
    s = table(on(A, 1, claim="c1", asks="c2"), on(B, 2, claim="c2", state="away"), lines=(line,), requests=("c1",), seq=5)
    s, told = seat.refuse_all(s, fight, A)
    assert told == [(A, "refused", {"reason": "gm_refused"}), (A, "ok", {"what": "interruptDismissed"}),
                    (A, "refused", {"reason": "claim_refused", "claim": "c1"})]  # A still plays c1
    assert (s.lines, s.requests) == ((), ())
    assert s.phone(A) == on(A, 1, claim="c1", dismissed=5)
    assert s.phone(B) == on(B, 2, claim="c2", state="away")  # the PJ stays where it was
    # Only what waits: a play alone is refused alone; a phone with nothing waiting is told nothing.
    alone = table(on(A, 1, claim="c1"), lines=(line,))
    assert seat.refuse_all(alone, fight, A)[1] == [(A, "refused", {"reason": "gm_refused"})]
    assert seat.refuse_all(table(on(A, 1, claim="c1")), fight, A)[1] == []
    assert seat.refuse_all(alone, fight, B) == (alone, [])


def test_a_play_applied_or_refused_by_the_engine_then_is_told_to_its_phone() -> None:
    line = seat.Line(3, A, {"type": "pass", "actor": "c1", "by_player": True})
    assert seat.applied(line, None) == [(A, "ok", {"what": "applied"})]
    assert seat.applied(line, REFUSAL) == [(A, "refused", TOLD_REFUSAL)]


def test_a_phone_freed_or_removed_is_said_to_the_game_master_and_the_others_get_their_board() -> None:
    fight = seat.Fight(shown())
    s = table(on(A, 1, claim="c1"), on(B, 2), on(C, 3, state="away"))
    freed, told = seat.free(s, fight, A)
    assert told[0] == (seat.GM, "released", {"pj": "c1"})
    assert [m[:2] for m in told[1:]] == [(A, "board"), (B, "board")]
    assert freed.phone(A) == on(A, 1, was="c1")
    # Removed: told (when it follows), then forgotten; the others' boards only when it held a PJ.
    gone, told = seat.remove(s, fight, A)
    assert told[0] == (A, "removed", {}) and [m[:2] for m in told[1:]] == [(B, "board")]
    assert [p.fp for p in gone.phones] == [B, C]
    assert seat.remove(s, fight, B)[1] == [(B, "removed", {})]
    assert seat.remove(s, fight, C)[1] == []


def test_the_players_setting_off_refuses_the_waiting_plays_and_on_keeps_them() -> None:
    fight = seat.Fight(shown(round_=1))
    line = seat.Line(3, A, {"type": "pass", "actor": "c1", "by_player": True})
    s = table(on(A, 1, claim="c1"), lines=(line,))
    auto, told = seat.set_mode(s, fight, "auto")
    assert (auto.mode, auto.lines) == ("auto", (line,))
    assert [m[:2] for m in told] == [(A, "board")]
    off, told = seat.set_mode(s, fight, "off")
    assert (off.mode, off.lines) == ("off", ())
    assert told[0] == (A, "refused", {"reason": "players_off"}) and "mine" not in told[1][2]
    assert seat.set_mode(s, fight, "sometimes") == (s, [])


def test_the_same_play_tapped_again_while_it_waits_is_one_line() -> None:
    catalogue = {"tirer": {"category": "phase", "options": ["target", "weapon"]}}
    fight = seat.Fight(shown(round_=1, active=("c1",), catalogue=catalogue))
    s = table(on(A, 1, claim="c1"))
    s, told, _ = seat.judge(s, fight, A, {"t": "act", "action": "tirer", "options": {"target": "c3", "weapon": "arc"}})
    assert told == [(A, "ok", {"what": "waiting"})]
    # The same options in another order: the same play.
    again, told, _ = seat.judge(s, fight, A, {"t": "act", "action": "tirer", "options": {"weapon": "arc", "target": "c3"}})
    assert (again, told) == (s, [])
    other, told, _ = seat.judge(s, fight, A, {"t": "act", "action": "tirer", "options": {"target": "c2", "weapon": "arc"}})
    assert told == [(A, "ok", {"what": "waiting"})]
    assert [(x.id, x.command["target"]) for x in other.lines] == [(2, "c2")]


# --- phones coming and going -----------------------------------------------------------------


def test_a_connection_state_is_one_of_the_states_and_away_only_by_losing_it() -> None:
    s = table(on(A, 1, claim="c1"))
    for state in ("away", "asleep", "AWAY"):
        assert seat.phone_state(s, A, state) == s
    assert seat.phone_state(s, A, "silent").phone(A) == on(A, 1, claim="c1", state="silent")


def test_a_first_pairing_that_failed_leaves_no_row_and_the_others_stay() -> None:
    s = table(on(A, 1), replace(on(B, 2), known=False))
    assert seat.lost(s, seat.Fight(shown()), B) == (table(on(A, 1)), [])


def test_three_phones_are_introduced_pair_by_pair() -> None:
    s = table(on(A, 1), on(B, 2), on(C, 3), introduced=((A, B, 990),))
    s, told, _ = seat.knit(s, now=1000, again=20_000, relay_again=10_000)
    assert told == [(A, "mate-open", {"peer": C}), (B, "mate-open", {"peer": C})]  # A and B were asked just now
    assert sorted(s.introduced) == [(A, B, 990), (A, C, 1000), (B, C, 1000)]
    full = tuple(f"{n:064x}" for n in range(seat.MAX_MATES))
    assert seat.knit(table(on(A, 1), on(B, 2, mates=full)), 0, 1, 1)[1] == []  # B's mates are full


def test_offers_for_a_phone_away_go_through_three_phones_in_turn() -> None:
    away = replace(on(D, 4), state="away")
    s = table(on(A, 1, mates=(D,)), on(B, 2, mates=(D,)), on(C, 3, mates=(D,)), away,
              introduced=((A, D, 0), (B, D, 0), (C, D, 0)))
    relays = []
    for now in range(4):
        s, by = seat.relay_through(s, D, now)
        relays.append(by)
    assert relays == [A, B, C, A]


# --- what the game master's page keeps -------------------------------------------------------


def test_what_the_page_kept_comes_back_with_every_phone_away() -> None:
    s = table(on(A, 1, claim="c1", muted=True, name="Camille", since=1000), on(B, 2, since=2000),
              replace(on(C, 3), known=False), introduced=((A, B, 5000),), mode="auto", pnj_details=True)
    kept = seat.kept(s)
    assert kept == {"pnjDetails": True, "mode": "auto",
                    "players": [{"fp": A, "number": 1, "claim": "c1", "muted": True, "phoneName": "Camille", "since": 1000},
                                {"fp": B, "number": 2, "claim": None, "muted": False, "phoneName": None, "since": 2000}],
                    "introduced": [[A, B]]}
    back = seat.restore(kept)
    assert back == seat.Seating(phones=(replace(s.phones[0], state="away"), replace(s.phones[1], state="away")),
                                mode="auto", pnj_details=True, introduced=((A, B, 0),))
    # A pair introduced before the reload is asked again once its wait has passed from the page's 0.
    both = replace(back, phones=tuple(replace(p, state="connected") for p in back.phones))
    assert seat.knit(both, now=20_000, again=20_000, relay_again=1)[1] == [(A, "mate-open", {"peer": B})]
    assert seat.knit(both, now=19_999, again=20_000, relay_again=1)[1] == []


def test_what_does_not_read_as_a_phone_is_left_out_and_the_rest_kept() -> None:
    E, F = "e" * 64, "f" * 64
    players = ["not a phone",
               {"fp": "X" * 64, "number": 1},  # not hexadecimal
               {"fp": "abc", "number": 1},  # too short
               {"fp": A.upper(), "number": 1},
               {"fp": A, "number": 0}, {"fp": A, "number": 1000}, {"fp": A, "number": "1"},
               {"fp": A, "number": 999, "claim": "7", "since": "1000"},
               {"fp": A, "number": 5},  # the same phone again
               {"fp": B, "number": 999},  # the same number again
               {"fp": B, "number": 1, "claim": "x" * 64, "since": 0},
               {"fp": C, "number": 2, "claim": "x" * 65, "muted": 1},
               {"fp": D, "number": 3, "claim": ""},
               {"fp": E, "number": 4, "claim": 7}]
    s = seat.restore({"players": players, "mode": "sometimes", "pnjDetails": "yes",
                      "introduced": [[A, B], [B, A], [A, A], [A, F], [A, 5], [A, B, C], "ab", [C, D], [A, B]]})
    assert [(p.fp, p.number, p.claim, p.since, p.muted) for p in s.phones] == [
        (A, 999, "7", None, False), (B, 1, "x" * 64, 0, False), (C, 2, None, None, False), (D, 3, None, None, False),
        (E, 4, None, None, False)]
    assert all(p.state == "away" and p.known for p in s.phones)
    assert (s.mode, s.pnj_details) == ("confirm", False)
    assert s.introduced == ((A, B, 0), (C, D, 0))
    assert seat.restore({"mode": "off", "introduced": None}) == seat.Seating(mode="off")
    assert seat.restore(["players"]) == seat.Seating()


def test_at_most_64_phones_are_restored() -> None:
    players = [{"fp": f"{n:064x}", "number": n} for n in range(1, 70)]
    s = seat.restore({"players": players, "mode": "auto"})
    assert [p.number for p in s.phones] == list(range(1, 65)) and s.mode == "auto"


# --- another fight ---------------------------------------------------------------------------


def test_another_fight_refuses_the_waiting_plays_and_drops_requests_and_dice() -> None:
    fight = seat.Fight(shown())
    line = seat.Line(3, A, {"type": "pass", "actor": "c1", "by_player": True})
    s = table(on(A, 1, claim="c1"), lines=(line,), requests=("c1",), proposals=(seat.Proposal("c1", 2, 1, A),))
    s, told = seat.switched(s, fight, "h2", "h1")
    assert told == [(A, "refused", {"reason": "fight_switched"}), (A, "opened", {})]
    assert (s.lines, s.requests, s.proposals, s.fight) == ((), (), (), "h2")
    assert s.phone(A).claim == "c1"  # type: ignore[union-attr]


@pytest.mark.parametrize("bad", ["", "x" * 65, 7])
def test_a_fight_without_a_readable_identity_is_another_fight(bad: object) -> None:
    fight = seat.Fight(shown())
    s = seat.paired(table(), A)  # seen: the fight open now, not yet named
    s, told = seat.switched(s, fight, bad, "h1")
    assert told == [(A, "opened", {})] and s.fight is None
    s, told = seat.switched(s, fight, bad, bad)
    assert told == [(A, "opened", {})]
    s, told = seat.switched(s, fight, "h1", bad)
    assert told == [(A, "opened", {"back": True})]  # it was shown h1 before


def test_a_fight_the_page_names_later_is_named_only_in_what_the_phones_saw_then() -> None:
    fight = seat.Fight(shown())
    s = seat.paired(table(), A)  # A sees the fight open now, unnamed
    s, _ = seat.switched(s, fight, "h1", "h0")  # ... which was h0
    s, _ = seat.switched(s, fight, None)  # an unnamed fight (A sees it)
    s, _ = seat.switched(s, fight, "h2", "h3")  # ... which was h3, not h0 nor h1
    s, told = seat.switched(s, fight, "h0", "h2")
    assert told == [(A, "opened", {"back": True})]
    s, _ = seat.switched(s, fight, "h4", "h0")
    s, told = seat.switched(s, fight, "h3", "h4")
    assert told == [(A, "opened", {"back": True})]


def test_a_phone_away_during_an_unnamed_fight_did_not_see_it() -> None:
    fight = seat.Fight(shown())
    s = seat.paired(seat.paired(table(), A), B)  # both see the fight open now, unnamed
    s, _ = seat.lost(s, fight, B)
    s, _ = seat.switched(s, fight, None)  # another unnamed fight: B is away
    s, _ = seat.switched(s, fight, "h2", "h1")  # ... which was h1
    s = seat.paired(s, B)
    s, told = seat.switched(s, fight, "h1", "h2")
    assert told == [(A, "opened", {"back": True}), (B, "opened", {})]


# --- a player's play (D27) -------------------------------------------------------------------


CATALOGUE = {"tirer": {"category": "phase", "options": ["target", "weapon"]},
             "crier": {"category": "phase"},
             "parer": {"category": "interruption", "options": []},
             "riposter": {"category": "interruption", "options": ["against"]}}
ATTACK = {"by": "c3", "target": "c1", "action": "attaque_melee"}


def playing(mode: str = "confirm", attack: Mapping[str, Any] | None = None,
            check: Any = lambda command: None) -> tuple[seat.Seating, seat.Fight]:
    """A (Aldric) and B (Lyra) at the table in round 1, Aldric acting."""
    fight = seat.Fight(shown(round_=1, active=("c1",), catalogue=CATALOGUE), attack=attack, check=check)
    return table(on(A, 1, claim="c1"), on(B, 2, claim="c2"), mode=mode), fight


@pytest.mark.parametrize(("message", "reason"), [
    ({"t": "act", "action": "voler"}, "shape"),  # no such action
    ({"t": "act", "action": "parer"}, "shape"),  # an interruption is not an action
    ({"t": "interrupt", "action": "tirer"}, "shape"),  # nor the other way round
    ({"t": "act", "action": "tirer", "options": {"target": "c3", "actor": "c2"}}, "shape"),  # an option it does not take
    ({"t": "act", "action": "crier", "options": {"target": "c3"}}, "shape"),  # an action with no option
    ({"t": "act", "action": "tirer", "options": {"target": "c9"}}, "target"),  # a fighter hidden from the players (D26)
    ({"t": "interrupt", "action": "riposter", "options": {"against": "c9"}}, "target"),
])
def test_a_play_no_pj_action_maps_to_is_refused_before_the_engine_sees_it(message: dict[str, Any], reason: str) -> None:
    checked: list[Any] = []
    s, fight = playing(check=lambda command: checked.append(command))
    after, told, line = seat.judge(s, fight, A, message)
    assert (after, told, line, checked) == (s, [(A, "refused", {"reason": reason})], None, [])


def test_a_play_is_the_engines_command_for_the_pj_the_phone_holds() -> None:
    checked: list[Any] = []
    s, fight = playing(check=lambda command: checked.append(command))
    s, told, _ = seat.judge(s, fight, A, {"t": "act", "action": "tirer", "options": {"target": "c3", "weapon": "arc"}})
    act = {"type": "act", "actor": "c1", "action": "tirer", "target": "c3", "weapon": "arc", "by_player": True}
    assert checked == [act] and told == [(A, "ok", {"what": "waiting"})]
    assert s.lines == (seat.Line(1, A, act),) and s.next_line == 2
    s, told, _ = seat.judge(s, fight, B, {"t": "pass"})
    assert checked[1] == {"type": "pass", "actor": "c2", "by_player": True}
    assert [(x.id, x.fp) for x in s.lines] == [(1, A), (2, B)]
    # A newer play replaces the phone's own waiting one, and only that one.
    s, told, _ = seat.judge(s, fight, A, {"t": "pass"})
    assert [(x.id, x.fp) for x in s.lines] == [(2, B), (3, A)]


def test_a_play_the_engine_refuses_is_told_with_the_engines_words() -> None:
    s, fight = playing(check=lambda command: REFUSAL)
    assert seat.judge(s, fight, A, {"t": "pass"}) == (s, [(A, "refused", TOLD_REFUSAL)], None)
    off, fight = playing(mode="off")
    assert seat.judge(off, fight, A, {"t": "pass"}) == (off, [(A, "refused", {"reason": "players_off"})], None)


def test_applied_at_once_a_play_comes_back_for_the_caller_to_apply() -> None:
    s, fight = playing(mode="auto")
    waiting = seat.Line(7, B, {"type": "pass", "actor": "c2", "by_player": True})
    s = replace(s, lines=(waiting, seat.Line(8, A, {"type": "pass", "actor": "c1", "by_player": True})), next_line=9)
    after, told, line = seat.judge(s, fight, A, {"t": "act", "action": "tirer", "options": {"target": "c3"}})
    assert told == [] and line == seat.Line(9, A, {"type": "act", "actor": "c1", "action": "tirer", "target": "c3", "by_player": True})
    assert after.lines == (waiting,) and after.next_line == 10


def test_an_interruption_answering_the_attack_on_the_pj_names_its_attacker_and_is_applied_at_once() -> None:
    s, fight = playing(mode="auto", attack=ATTACK)
    _, told, line = seat.judge(s, fight, A, {"t": "interrupt", "action": "parer"})
    assert told == [] and line == seat.Line(1, A, {"type": "interrupt", "actor": "c1", "action": "parer", "against": "c3",
                                                    "by_player": True})
    # One that answers no attack on its PJ waits for the game master, with the fighter attacked (D16).
    after, told, line = seat.judge(s, fight, B, {"t": "interrupt", "action": "parer"})
    assert told == [(B, "ok", {"what": "waiting"})] and line is None
    assert after.lines == (seat.Line(1, B, {"type": "interrupt", "actor": "c2", "action": "parer", "by_player": True}, "c1"),)
    calm, fight = playing(mode="auto")
    after, _, _ = seat.judge(calm, fight, B, {"t": "interrupt", "action": "parer"})
    assert after.lines[0].elsewhere is None


def test_the_engines_refusal_is_told_with_a_message_and_params_always() -> None:
    s, fight = playing(check=lambda command: {"code": "c", "reason": "Parce que.", "params": None})
    told = seat.judge(s, fight, A, {"t": "pass"})[1]
    assert told == [(A, "refused", {"reason": "engine", "error": {"code": "c", "key": None, "params": {}, "message": "Parce que."}})]
    s, fight = playing(check=lambda command: {"code": "c"})
    assert seat.judge(s, fight, A, {"t": "pass"})[1][0][2]["error"]["message"] == ""


# --- the game master's answer to a claim that asked (D27) ------------------------------------


def test_a_claim_accepted_hands_the_pj_over_and_drops_what_both_phones_had_waiting() -> None:
    fight = seat.Fight(shown(round_=1))
    lines = tuple(seat.Line(n, fp, {"type": "pass", "actor": pj, "by_player": True})
                  for n, fp, pj in ((1, A, "c1"), (2, B, "c2"), (3, C, "c3")))
    s = table(on(A, 1, claim="c1"), on(B, 2, claim="c2", asks="c1"), on(C, 3, claim="c3"), lines=lines)
    given, told = seat.decide_claim(s, fight, B, True)
    assert told[0] == (seat.GM, "given", {"fp": B, "pj": "c1"})
    assert [m[:2] for m in told[1:]] == [(A, "board"), (B, "board"), (C, "board")]
    assert [(p.claim, p.was, p.asks) for p in given.phones] == [(None, "c1", None), ("c1", "c2", None), ("c3", None, None)]
    assert given.lines == (lines[2],)
    refused, told = seat.decide_claim(s, fight, B, False)
    assert told == [(B, "refused", {"reason": "claim_refused", "claim": "c2"})]
    assert refused.phone(B) == on(B, 2, claim="c2") and refused.phone(A) == s.phone(A) and refused.lines == lines
    assert seat.decide_claim(s, fight, D, True) == (s, [])
    assert seat.decide_claim(s, fight, A, True) == (s, [])  # A asks for nothing


# --- what a phone is shown -------------------------------------------------------------------


def board_with_brune(**more: Any) -> dict[str, Any]:
    """The small fight, with Brune (c4), a PJ out of the fight, and what Aldric may play."""
    board = shown(**more)
    board["order"] = [*board["order"], "c4"]
    board["combatants"]["c4"] = {"id": "c4", "name": "Brune", "side": "pj", "hors_combat": True}
    board["mine"] = {"c1": {"actions": {"tirer": {"allowed": True}}, "likely": [], "never": []},
                     "c2": {"actions": {}, "likely": [], "never": []}, "c4": {"actions": {}, "likely": [], "never": []}}
    board["catalogue"] = CATALOGUE
    return board


def test_a_phones_board_says_what_it_may_claim_and_what_its_pj_may_do() -> None:
    fight = seat.Fight(board_with_brune(round_=1, active=("c1",)))
    s = table(on(A, 1, claim="c1"), on(B, 2, claim="c2", was="c4", state="away"), on(C, 3, state="connecting"),
              on(D, 4, was="c1", state="silent"), seq=3)
    told = seat.boards(s, fight)
    assert [m[:2] for m in told] == [(A, "board"), (D, "board")]  # the phones that follow
    mine = told[0][2]
    assert mine["seq"] == 3 and mine["claim"] == "c1"
    assert mine["board"] == {k: v for k, v in fight.shown.items() if k not in ("mine", "catalogue")}  # type: ignore[union-attr]
    # Brune is out of the fight, the orc is no PJ; Lyra's phone is away: she may be asked for.
    assert mine["claims"] == [{"id": "c1", "may": "free", "holder": None},
                              {"id": "c2", "may": "ask", "holder": {"n": 2, "was": "Brune", "away": True}}]
    assert (mine["declare"], mine["turn"]) == (False, True)  # round 1 goes on, Aldric acts (R2)
    assert mine["mine"] == {"actions": {"tirer": {"allowed": True}}, "likely": [], "never": [], "catalogue": CATALOGUE}
    other = told[1][2]
    assert other["claim"] is None
    assert other["claims"] == [{"id": "c1", "may": "held", "holder": {"n": 1, "was": None, "away": False}},
                               {"id": "c2", "may": "ask", "holder": {"n": 2, "was": "Brune", "away": True}}]
    assert not {"declare", "turn", "mine"} & set(other)


@pytest.mark.parametrize(("round_", "over", "active", "claim", "declare", "turn"), [
    (0, False, (), "c1", True, False),  # before the first round: each PJ declares (R1)
    (2, True, (), "c1", True, False),  # the round is over: the next one's dice
    (2, False, ("c2",), "c1", False, False),  # another fighter acts
    (2, False, ("c1",), "c1", False, True),
    (0, False, (), "c4", False, False),  # out of the fight: no die
])
def test_a_phone_declares_between_rounds_and_plays_in_its_turn(round_: int, over: bool, active: tuple[str, ...], claim: str,
                                                                declare: bool, turn: bool) -> None:
    fight = seat.Fight(board_with_brune(round_=round_, round_over=over, active=active))
    [(_, _, fields)] = seat.boards(table(on(A, 1, claim=claim)), fight)
    assert (fields["declare"], fields["turn"]) == (declare, turn)


def test_with_the_players_off_a_phone_is_shown_its_pj_without_what_it_may_play() -> None:
    fight = seat.Fight(board_with_brune(round_=1, active=("c1",)))
    [(_, _, fields)] = seat.boards(table(on(A, 1, claim="c1"), mode="off"), fight)
    assert fields["claim"] == "c1" and fields["turn"] is True and "mine" not in fields
    # A PJ no longer on the players' board (hidden, or made a PNJ): held, but not shown as its own.
    [(_, _, fields)] = seat.boards(table(on(A, 1, claim="c3")), fight)
    assert fields["claim"] is None and "declare" not in fields
    assert seat.boards(table(on(A, 1, claim="c1")), seat.Fight(None)) == []


# --- what the game master's page draws -------------------------------------------------------


def test_the_game_masters_view_says_what_of_each_phone_waits_and_who_holds_what_is_asked() -> None:
    fight = seat.Fight(board_with_brune(round_=1))
    line = seat.Line(2, C, {"type": "interrupt", "actor": "c4", "action": "parer", "against": "c3", "by_player": True})
    s = table(on(A, 1, claim="c1", name="Camille"), on(B, 2, claim="c2", was="c4", state="away"),
              on(C, 3, claim="c4"), on(D, 4, was="c2", asks="c2", name="Zoé", since=7),
              on("e" * 64, 5, asks="c9"), on("f" * 64, 6, claim="c3", asks="c1"),
              lines=(line,), requests=("c9", "c1"))
    names = {"c1": "Aldric", "c2": "Lyra", "c3": "Orque", "c4": "Brune"}
    view = seat.gm_view(s, fight, names)
    # Waiting: a request (1), a line (3), a claim (4, 5, 6).
    assert [(p["number"], p["waiting"]) for p in view["phones"]] == [(1, True), (2, False), (3, True), (4, True), (5, True), (6, True)]
    assert view["lines"] == [{"id": 2, "actor": "Brune", "type": "interrupt", "action": "parer", "whom": "Orque",
                              "verdict": None, "elsewhere": None}]
    # c9: a fighter the game master's board no longer names.
    assert view["requests"] == [{"id": "c9", "name": "c9"}, {"id": "c1", "name": "Aldric"}]
    # The claim of an unknown fighter is not shown; each other names the asking phone and the holder.
    assert view["asks"] == [
        {"fp": D, "called": "Zoé", "number": 4, "since": 7, "pj": "Lyra",
         "holder": {"number": 2, "called": "Lyra", "away": True}},
        {"fp": "f" * 64, "called": "Orque", "number": 6, "since": None, "pj": "Aldric",
         "holder": {"number": 1, "called": "Camille", "away": False}}]
    assert (view["following"], view["knit"]) == (True, True)
    alone = seat.gm_view(table(on(A, 1, state="away")), seat.Fight(None), names)
    assert (alone["following"], alone["knit"], alone["lines"], alone["asks"]) == (False, False, [], [])
    assert (alone["mode"], alone["pnj_details"], alone["proposals"]) == ("confirm", False, {})


def test_the_game_masters_view_gives_a_lines_verdict_from_what_its_pj_may_play() -> None:
    fight = seat.Fight(board_with_brune(round_=1))
    lines = (seat.Line(1, A, {"type": "act", "actor": "c1", "action": "tirer", "target": "c3", "by_player": True}),
             seat.Line(2, B, {"type": "act", "actor": "c2", "action": "tirer", "target": "c3", "by_player": True}),
             seat.Line(3, C, {"type": "pass", "actor": "c4", "by_player": True}),
             seat.Line(4, D, {"type": "act", "actor": "c9", "action": "tirer", "by_player": True}))
    view = seat.gm_view(table(lines=lines), fight, {"c1": "Aldric"})
    assert [x["verdict"] for x in view["lines"]] == [{"allowed": True}, None, None, None]
    assert [x["actor"] for x in view["lines"]] == ["Aldric", None, None, None]


def test_the_fight_open_before_the_page_said_one_is_named_by_the_first_switch_that_says_whence() -> None:
    fight = seat.Fight(shown())
    s = seat.paired(table(), A)  # A sees the fight open now, unnamed
    s, _ = seat.switched(s, fight, "h1")  # the page says where it goes, not whence
    s, _ = seat.switched(s, fight, "h2", "h9")  # h9 is not the fight A saw first: it left h1
    s, told = seat.switched(s, fight, "h9", "h2")
    assert told == [(A, "opened", {})]


# --- what a player sends ---------------------------------------------------------------------


def test_a_numbered_play_is_judged_once_and_only_a_phone_that_follows_is_heard() -> None:
    s, fight = playing()
    s = replace(s, phones=(on(A, 1, claim="c1", played=4), *s.phones[1:]))
    for n in (4, 3, "5", None):
        assert seat.judge(s, fight, A, {"t": "pass", "n": n}) == (s, [(A, "refused", {"reason": "replayed"})], None)
    after, told, _ = seat.judge(s, fight, A, {"t": "pass", "n": 6})
    assert after.phone(A).played == 6 and told == [(A, "ok", {"what": "waiting"})]  # type: ignore[union-attr]
    # Heard even when refused: the number is spent.
    assert seat.judge(s, fight, A, {"t": "dance", "n": 5})[0].phone(A).played == 5  # type: ignore[union-attr]
    away = replace(s, phones=(on(A, 1, claim="c1", state="away"),))
    assert seat.judge(away, fight, A, {"t": "pass"}) == (away, [], None)
    assert seat.judge(s, fight, D, {"t": "pass"}) == (s, [], None)


def test_a_phone_says_which_phones_it_reaches_among_those_at_the_table() -> None:
    others = tuple(on(f"{n:064x}", n) for n in range(2, 16))
    s = table(on(A, 1), *others)
    listed = [B, A, others[0].fp, others[0].fp, *(p.fp for p in others)]
    after, told, line = seat.judge(s, seat.Fight(shown()), A, {"t": "mates", "list": listed})
    assert (told, line) == ([], None)
    # B is not at the table, A is itself; each once, at most MAX_MATES.
    assert after.phone(A).mates == tuple(p.fp for p in others)[:seat.MAX_MATES]  # type: ignore[union-attr]
    assert seat.judge(after, seat.Fight(shown()), A, {"t": "mates"})[0].phone(A).mates == ()  # type: ignore[union-attr]


@pytest.mark.parametrize(("phone", "message", "reason"), [
    (on(A, 1), {"t": "pass"}, "no_claim"),
    (on(A, 1, claim="c3"), {"t": "declare", "die": 3}, "no_claim"),  # a PNJ's
    (on(A, 1, claim="c1", muted=True), {"t": "interrupt"}, "muted"),
    (on(A, 1, claim="c1"), {"t": "dance"}, "shape"),
])
def test_a_phone_plays_only_its_pj_and_only_when_not_muted(phone: seat.Phone, message: dict[str, Any], reason: str) -> None:
    s = table(phone)
    assert seat.judge(s, seat.Fight(shown(round_=1)), A, message) == (s, [(A, "refused", {"reason": reason})], None)


def test_a_claim_takes_a_free_pj_and_lets_the_one_before_go() -> None:
    fight = seat.Fight(shown(round_=1), attack={"by": "c3", "target": "c2", "action": "attaque_melee"})
    line = seat.Line(1, A, {"type": "pass", "actor": "c1", "by_player": True})
    s = table(on(A, 1, claim="c1", asks="c9"), on(B, 2), lines=(line,), requests=("c1",))
    s, told, _ = seat.judge(s, fight, A, {"t": "claim", "id": "c2"})
    assert told[0] == (seat.GM, "claimed", {"pj": "c2"})
    assert [m[:2] for m in told[1:]] == [(A, "board"), (B, "board"), (A, "attacked")]
    assert told[3][2] == {"by": "c3", "action": "attaque_melee", "answers": []}  # the answers its catalogue names: none here
    assert s.phone(A) == on(A, 1, claim="c2", was="c1")
    assert (s.lines, s.requests) == ((), ())
    # The same PJ again: its board only.
    again, told, _ = seat.judge(s, fight, A, {"t": "claim", "id": "c2"})
    assert again == s and [m[:2] for m in told] == [(A, "board")]
    # Let go: said to the game master; the PJ is free.
    free, told, _ = seat.judge(s, fight, A, {"t": "claim", "id": None})
    assert told[0] == (seat.GM, "released", {"pj": "c2"}) and free.phone(A) == on(A, 1, was="c2")
    nothing, told, _ = seat.judge(free, fight, A, {"t": "claim", "id": None})
    assert told[0][:2] == (A, "board") and nothing.phone(A) == on(A, 1, was="c2")  # nothing to release


@pytest.mark.parametrize("pj", ["c3", "c9", 5, ["c1"]])
def test_only_a_pj_of_the_players_board_is_claimed(pj: object) -> None:
    s = table(on(A, 1, claim="c1"))
    after, told, _ = seat.judge(s, seat.Fight(shown()), A, {"t": "claim", "id": pj})
    assert (after, told) == (s, [(A, "refused", {"reason": "not_pj", "claim": "c1"})])  # it plays c1 still


def test_a_claim_of_a_held_pj_is_refused_or_asked_of_the_game_master() -> None:
    fight = seat.Fight(shown())
    s = table(on(A, 1, claim="c1"), on(B, 2, claim="c2", was="c1", state="away"), on(C, 3))
    held, told, _ = seat.judge(s, fight, C, {"t": "claim", "id": "c1"})
    assert told == [(C, "refused", {"reason": "taken", "pj": "c1", "holder": {"n": 1, "was": None, "away": False}, "claim": None})]
    assert held == s
    asked, told, _ = seat.judge(s, fight, C, {"t": "claim", "id": "c2"})
    assert told == [(seat.GM, "asked", {"fp": C, "pj": "c2"}), (C, "ok", {"what": "claimAsked"})]
    assert asked.phone(C) == on(C, 3, asks="c2") and asked.phone(B) == s.phone(B)
    asked, told, _ = seat.judge(asked, fight, C, {"t": "claim", "id": "c1", "ask": True})
    assert told == [(seat.GM, "asked", {"fp": C, "pj": "c1"}), (C, "ok", {"what": "claimAskedHeld"})]
    assert asked.phone(C) == on(C, 3, asks="c1")
    # A claim refused, as any other claim, replaces the one asked before.
    refused, told, _ = seat.judge(asked, fight, C, {"t": "claim", "id": "c1"})
    assert told[0][2]["reason"] == "taken" and refused.phone(C) == on(C, 3)
    assert seat.judge(asked, fight, C, {"t": "claim", "id": "c1", "ask": "yes"})[1][0][2]["reason"] == "taken"


# --- phones coming and going -----------------------------------------------------------------


def test_a_new_phone_takes_the_smallest_number_free_and_keeps_when_it_first_paired() -> None:
    s = table(on(A, 1), on(C, 3))
    s = seat.paired(s, B, at=500, name=" Zoé ")
    assert s.phone(B) == on(B, 2, name="Zoé", since=500, seen=("",))
    s = seat.paired(replace(s, phones=(*s.phones[:2], replace(s.phones[2], state="away", played=9))), B, at=900)
    assert s.phone(B) == on(B, 2, name="Zoé", since=500, seen=("",))
    assert seat.paired(s, D).phone(D).number == 4  # type: ignore[union-attr]
    assert seat.paired(table(on(A, 1, since=None)), A, at=7).phone(A).since == 7  # type: ignore[union-attr]


def test_a_phone_that_joins_gets_its_board_journal_and_the_attack_on_its_pj_alone() -> None:
    entries = [{"round": 1, "text": "L'orque attaque Aldric."}]
    fight = seat.Fight(shown(round_=1), attack=ATTACK, journal=lambda: entries)
    s = table(on(A, 1, claim="c1", state="away"), on(B, 2, claim="c2"))
    s, told = seat.joined(s, fight, A, at=5)
    assert [m[:2] for m in told] == [(A, "board"), (A, "journal"), (A, "attacked")]
    assert told[1][2] == {"entries": entries} and told[2][2] == {"by": "c3", "action": "attaque_melee", "answers": []}
    assert s.phone(A).state == "connected"  # type: ignore[union-attr]
    # Nobody attacked at this table is told of it, nor with the players off.
    assert [m[1] for m in seat.joined(s, fight, B)[1]] == ["board", "journal"]
    assert [m[1] for m in seat.joined(replace(s, mode="off"), fight, A)[1]] == ["board", "journal"]
    pnj = seat.Fight(shown(round_=1), attack={**ATTACK, "target": "c3"})
    assert [m[1] for m in seat.joined(table(on(A, 1, claim="c3")), pnj, A)[1]] == ["board"]


def test_the_journal_goes_to_every_phone_that_follows_after_a_change() -> None:
    entries = [{"round": 1}]
    fight = seat.Fight(shown(round_=1), journal=lambda: entries)
    s = table(on(A, 1), on(B, 2, state="away"), on(C, 3, state="silent"))
    _, told = seat.after_change(s, fight)
    assert [(fp, kind) for fp, kind, _ in told if kind == "journal"] == [(A, "journal"), (C, "journal")]
    assert [m for m in seat.after_change(table(on(A, 1, state="away")), fight)[1]] == []


def test_a_line_applied_comes_back_and_one_refused_is_told() -> None:
    line = seat.Line(4, A, {"type": "pass", "actor": "c1", "by_player": True})
    other = seat.Line(5, B, {"type": "pass", "actor": "c2", "by_player": True})
    s = table(on(A, 1, claim="c1"), on(B, 2, claim="c2"), lines=(line, other))
    assert seat.decide_line(s, 4, True) == (replace(s, lines=(other,)), [], line)
    assert seat.decide_line(s, 4, False) == (replace(s, lines=(other,)), [(A, "refused", {"reason": "gm_refused"})], None)
    assert seat.decide_line(s, 6, True) == (s, [], None)


def test_a_phone_muted_has_nothing_waiting_and_unmuted_plays_again() -> None:
    line = seat.Line(1, A, {"type": "pass", "actor": "c1", "by_player": True})
    s = table(on(A, 1, claim="c1"), lines=(line,), requests=("c1",))
    muted = seat.mute(s, A, True)
    assert muted.phone(A) == on(A, 1, claim="c1", muted=True) and (muted.lines, muted.requests) == ((), ())
    assert seat.mute(muted, A, False).phone(A) == on(A, 1, claim="c1")
    assert seat.mute(s, B, True) == s


def test_a_phone_without_a_pj_is_not_freed_and_a_phone_lost_lists_no_mates() -> None:
    fight = seat.Fight(shown())
    s = table(on(A, 1, mates=(B,)), on(B, 2, mates=(A,)))
    assert seat.free(s, fight, A) == (s, []) and seat.free(s, fight, C) == (s, [])
    s, told = seat.lost(s, fight, A)
    assert s.phone(A) == on(A, 1, state="away") and [m[:2] for m in told] == [(B, "board")]


def test_a_phone_with_its_mates_full_leaves_the_other_pairs_introduced() -> None:
    full = tuple(f"{n:064x}" for n in range(seat.MAX_MATES))
    s = table(on(A, 1), on(B, 2, mates=full), on(C, 3))
    assert seat.knit(s, 0, 1, 1)[1] == [(A, "mate-open", {"peer": C})]


def test_the_players_see_the_pnj_details_when_the_game_master_shows_them() -> None:
    s = seat.set_pnj_details(table(), True)
    assert s.pnj_details is True and seat.kept(s)["pnjDetails"] is True
    assert seat.set_pnj_details(s, False) == table()


def test_a_pj_whose_board_gives_no_verdict_may_ask_to_interrupt() -> None:
    fight = seat.Fight(shown(round_=1, mine={"c1": {"likely": [], "never": []}}))
    s, told, _ = seat.judge(table(on(A, 1, claim="c1")), fight, A, {"t": "interrupt"})
    assert s.requests == ("c1",) and told[1] == (A, "ok", {"what": "interrupt"})


def test_a_phone_remembers_the_last_fights_it_was_shown() -> None:
    fight = seat.Fight(shown())
    s = seat.paired(table(), A)
    for n in range(seat.MAX_SEEN + 1):
        s, _ = seat.switched(s, fight, f"h{n}", f"h{n - 1}" if n else "h")
    assert len(s.phone(A).seen) == seat.MAX_SEEN  # type: ignore[union-attr]
    # The first fights (the unnamed one, named "h", and h0) are forgotten, h1 is not.
    assert seat.switched(s, fight, "h0", f"h{seat.MAX_SEEN}")[1] == [(A, "opened", {})]
    assert seat.switched(s, fight, "h1", f"h{seat.MAX_SEEN}")[1] == [(A, "opened", {"back": True})]


def test_knitting_says_whether_knit_has_anything_to_do() -> None:
    full = tuple(f"{n:064x}" for n in range(seat.MAX_MATES))
    assert seat.knitting(table(on(A, 1), on(B, 2, mates=full))) is False
    assert seat.knitting(table(on(A, 1), on(B, 2, state="away"))) is False
    away = replace(on(C, 3), state="away")
    reached = table(on(A, 1, mates=(C,)), away, introduced=((A, C, 0),))
    assert seat.knitting(reached) is True
    assert seat.knitting(replace(reached, phones=(reached.phones[0], replace(away, known=False)))) is False


def test_a_phone_muted_or_lost_takes_only_its_own_pjs_request_with_it() -> None:
    fight = seat.Fight(shown(round_=1))
    s = table(on(A, 1, claim="c1", state="connecting"), on(B, 2, claim="c2"), requests=("c1", "c2"))
    assert seat.mute(s, B, True).requests == ("c1",)
    assert seat.lost(s, fight, B)[0].requests == ("c1",)


def test_without_a_players_board_a_phone_claims_and_plays_nothing() -> None:
    s = table(on(A, 1, claim="c1"))
    refused = (A, "refused", {"reason": "not_pj", "claim": "c1"})
    assert seat.judge(s, seat.Fight(None), A, {"t": "claim", "id": "c2"}) == (s, [refused], None)
    assert seat.judge(s, seat.Fight(None), A, {"t": "pass"}) == (s, [(A, "refused", {"reason": "no_claim"})], None)


def test_a_phone_lost_or_muted_no_longer_asks_for_a_pj() -> None:
    fight = seat.Fight(shown())
    s = table(on(A, 1, asks="c2"), on(B, 2, claim="c2", state="away"))
    assert seat.lost(s, fight, A)[0].phone(A) == on(A, 1, state="away")
    assert seat.mute(s, A, True).phone(A) == on(A, 1, muted=True)


def test_a_pj_asked_for_whose_holder_is_gone_is_shown_held_by_nobody() -> None:
    s = table(on(C, 3, asks="c2"))  # the game master removed the phone away that held Lyra
    [ask] = seat.gm_view(s, seat.Fight(shown()), {"c2": "Lyra"})["asks"]
    assert (ask["pj"], ask["holder"]) == ("Lyra", None)


def test_a_phones_name_of_one_letter_is_a_name_and_one_of_enclosing_marks_is_none() -> None:
    assert seat.phone_name("A") == "A"
    assert seat.phone_name("\u20dd\u20de") is None  # combining enclosing circle and square: they enclose nothing


def lyra_hidden() -> dict[str, Any]:
    """The players' board once the game master hid Lyra (c2): she is not on it."""
    board = shown(mine={"c1": {"actions": {}}})
    del board["combatants"]["c2"]
    board["order"].remove("c2")
    return board


def test_a_claim_refused_while_the_phones_pj_is_hidden_does_not_name_it() -> None:
    """The phone keeps Lyra while she is hidden; a refused claim says nothing of her (no
    hidden fighter's id reaches a phone), and the phone keeps what it had."""
    s = table(on(A, 1, claim="c2"), on(B, 2, claim="c1"))
    hidden = seat.Fight(lyra_hidden())
    _, told, _ = seat.judge(s, hidden, A, {"t": "claim", "id": "c1"})
    assert told == [(A, "refused", {"reason": "taken", "pj": "c1", "holder": {"n": 2, "was": None, "away": False}})]
    _, told, _ = seat.judge(s, hidden, A, {"t": "claim", "id": "c3"})
    assert told == [(A, "refused", {"reason": "not_pj"})]
    # Shown again: the refusal says the PJ the phone still plays.
    _, told, _ = seat.judge(s, seat.Fight(shown()), A, {"t": "claim", "id": "c3"})
    assert told == [(A, "refused", {"reason": "not_pj", "claim": "c2"})]


def test_a_play_waiting_for_a_pj_the_game_master_hides_goes_and_its_phone_is_told() -> None:
    lyra = seat.Line(3, A, {"type": "pass", "actor": "c2", "by_player": True})
    aldric = seat.Line(4, B, {"type": "pass", "actor": "c1", "by_player": True})
    s = table(on(A, 1, claim="c2"), on(B, 2, claim="c1"), lines=(lyra, aldric))
    after, told = seat.after_change(s, seat.Fight(lyra_hidden()), hidden=["c2"])
    assert after.lines == (aldric,)
    assert (A, "refused", {"reason": "gm_refused"}) in told
    assert [m for m in told if m[1] == "refused"] == [(A, "refused", {"reason": "gm_refused"})]
    # Nothing hidden: every play waits on.
    assert seat.after_change(s, seat.Fight(shown()))[0].lines == (lyra, aldric)
