"""The seating's pieces the random tables reach least, each with what it must say exactly
(engine/seating.py, D27): the phones connected with each other (``knit``: which pairs the
game master introduces, through whom an offer for a phone away goes, in turn), the game
master's answer to an interruption request, a proposal edited by the game master, and
what the game master's page is given to draw (``gm_view``)."""

from __future__ import annotations

from dataclasses import replace

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
        {"fp": A, "number": 1, "pj": "Aldric", "was": None, "name": None, "since": None, "state": "connected",
         "claim": "c1", "muted": True, "waiting": True},
        {"fp": B, "number": 2, "pj": "Lyra", "was": None, "name": "Camille", "since": 99, "state": "connected",
         "claim": "c2", "muted": False, "waiting": True},
        {"fp": C, "number": 3, "pj": None, "was": "Lyra", "name": None, "since": None, "state": "silent",
         "claim": None, "muted": False, "waiting": True},
    ]
    assert view["lines"] == [{"id": 5, "actor": "Lyra", "type": "act", "action": "tirer", "whom": "Orque",
                              "verdict": {"allowed": True, "cost": 5}, "elsewhere": "Aldric"}]
    assert view["requests"] == [{"id": "c1", "name": "Aldric"}]
    assert [(a["fp"], a["pj"]) for a in view["asks"]] == [(C, "Aldric")]
    assert view["proposals"] == {"c1": {"die": None, "round": 2, "from": A, "edited": False}}
    assert (view["mode"], view["pnj_details"], view["following"], view["knit"]) == ("auto", True, True, True)
