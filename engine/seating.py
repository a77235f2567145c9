"""The live table's seating: which phone holds which PJ, what waits for the game master,
and what each phone is told (D27, D26; docs/LIVE-TABLE.md, « The live table »).

The game master's page carries the messages; every decision about them is here, as
plain data and pure functions like the rest of the engine. A :class:`Seating` is the
table's state: the phones (each known by its certificate's fingerprint), the PJ each
holds, the one waiting line per phone, the interruption requests, the proposed dice, the
players' setting and the mutes. Each function takes a seating and what happened (a
player's message, the game master's tap, a new board) and returns the new seating and
the messages for the phones, as ``(fingerprint, type, fields)`` triples: the page sends
them as they are.

What a decision needs of the fight comes in a :class:`Fight`: the players' board
(engine/players.py), the attack the players are told of, and the engine's own verdict on
a command (``check``), so that this module stays free of the rules themselves.

>>> s = paired(Seating(), "a" * 64, at=1000)
>>> s.phones[0].number, s.phones[0].state
(1, 'connected')
>>> fight = Fight({"round": 0, "round_over": False, "active": [], "order": ["c1"], "phase": None,
...     "combatants": {"c1": {"id": "c1", "name": "Aldric", "side": "pj", "hors_combat": False}},
...     "mine": {"c1": {"actions": {}, "likely": [], "never": []}}, "catalogue": {}})
>>> s, told, _ = judge(s, fight, "a" * 64, {"t": "claim", "id": "c1"})
>>> s.phones[0].claim, [t for _, t, _ in told]
('c1', ['claimed', 'board'])
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeGuard

__all__ = [
    "MODES",
    "Fight",
    "Line",
    "Phone",
    "Proposal",
    "Seating",
    "Told",
    "accept_request",
    "after_change",
    "boards",
    "decide_claim",
    "decide_line",
    "dismiss_request",
    "edited",
    "free",
    "gm_view",
    "judge",
    "kept",
    "knit",
    "lost",
    "mute",
    "paired",
    "phone_name",
    "phone_state",
    "remove",
    "restore",
    "set_mode",
    "set_pnj_details",
    "switched",
]

#: How the players' plays are taken (« Les joueurs jouent leur PJ »): refused, waiting for
#: the game master's « Appliquer » (the default), or applied at once (D27).
MODES = ("off", "confirm", "auto")

#: The most phones a player's phone connects to besides the game master's.
MAX_MATES = 12

#: The states of a phone's connection to the game master's page: ``away`` has none.
STATES = ("connecting", "connected", "silent", "away")

#: The longest name a player gives their phone (« Nom de ce téléphone »), in characters.
MAX_NAME = 24

#: The fights a phone was shown that the seating remembers (their ids in the game master's
#: list, never sent to a phone).
MAX_SEEN = 32

#: Letters and signs that draw nothing, though not spaces or controls to Unicode (the
#: Hangul fillers, the blank Braille pattern): a name of only these is no name.
BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")

#: A message for one phone: its fingerprint, the message's type, its fields.
Told = tuple[str, str, dict[str, Any]]


@dataclass(frozen=True)
class Phone:
    """A player's phone at the table, by its certificate's fingerprint ``fp``.

    ``claim``: the PJ it holds; ``was``: the one it held before (to name it); ``asks``: a
    PJ held by a phone away that it asks for (the game master accepts or refuses);
    ``played``: the last play's sequence number heard on its connection; ``dismissed``:
    the players' board on which the game master dismissed its interruption request (not
    again until the board changes); ``mates``: the other phones it says it reaches;
    ``name``: the name its player gave it (:func:`phone_name`), by which the game master's
    page names it; ``since``: when it first paired (the page's clock, ms); ``known``: it
    paired once (a first pairing that failed leaves no row); ``seen``: the fights it was
    shown, by their ids in the game master's list (:func:`switched`)."""

    fp: str
    number: int
    claim: str | None = None
    was: str | None = None
    asks: str | None = None
    muted: bool = False
    state: str = "away"
    played: int = 0
    dismissed: int | None = None
    mates: tuple[str, ...] = ()
    name: str | None = None
    since: int | None = None
    known: bool = False
    seen: tuple[str, ...] = ()

    @property
    def open(self) -> bool:
        """Its connection is open (silent is open: only WebRTC ends a connection)."""
        return self.state in ("connected", "silent")


@dataclass(frozen=True)
class Line:
    """A play waiting for the game master's « Appliquer » (at most one per phone, D27):
    the engine's ``command``, and ``elsewhere``: the fighter the last command attacked,
    when this interruption answers no attack on its actor (its line says whom)."""

    id: int
    fp: str
    command: Mapping[str, Any]
    elsewhere: str | None = None


@dataclass(frozen=True)
class Proposal:
    """A player's weapon and die for the next round's start (R1, D2), shown in the game
    master's form until that round starts. ``weapon`` is ``...`` when the player chose
    none (the form keeps its own); ``edited``: the game master changed the row, and the
    player's next proposal for that round does not overwrite it."""

    fighter: str
    die: int | None
    round: int
    fp: str
    weapon: Any = ...
    edited: bool = False


@dataclass(frozen=True)
class Seating:
    """The table's seating. ``seq`` numbers the players' boards sent; ``introduced``: the
    pairs of phones the game master asked to connect, with when it last asked;
    ``relayed``: for each phone away, when a relay was last asked and through whom;
    ``fight``: the list's id of the fight open now, once the game master's page
    said it (:func:`switched`)."""

    phones: tuple[Phone, ...] = ()
    lines: tuple[Line, ...] = ()
    requests: tuple[str, ...] = ()
    proposals: tuple[Proposal, ...] = ()
    mode: str = "confirm"
    pnj_details: bool = False
    seq: int = 0
    next_line: int = 1
    introduced: tuple[tuple[str, str, int], ...] = ()
    relayed: tuple[tuple[str, str, int], ...] = ()
    fight: str | None = None

    def phone(self, fp: object) -> Phone | None:
        return next((p for p in self.phones if p.fp == fp), None)

    def holder(self, pj: str, but: str | None = None) -> Phone | None:
        """The phone that holds ``pj`` (other than ``but``)."""
        return next((p for p in self.phones if p.claim == pj and p.fp != but), None)

    def line_of(self, fp: str) -> Line | None:
        return next((x for x in self.lines if x.fp == fp), None)


@dataclass(frozen=True)
class Fight:
    """What the seating needs of the fight now: the players' board ``shown`` (with
    ``mine`` and ``catalogue``, engine/players.py), the attack the players are told of
    (R5.3, D23), the players' journal's last entries, and the engine's verdict on a
    command (``check``: ``None`` when allowed, else the refusal as JSON)."""

    shown: Mapping[str, Any] | None
    attack: Mapping[str, Any] | None = None
    journal: Callable[[], list[Any]] | None = None
    check: Callable[[Mapping[str, Any]], Mapping[str, Any] | None] = field(default=lambda command: None)

    def seen(self, fid: object) -> Mapping[str, Any] | None:
        """A fighter on the players' board; ``None``: not there (hidden from them, D26)."""
        combatants = self.shown["combatants"] if self.shown else {}
        return combatants.get(fid) if isinstance(fid, str) else None

    def mine(self, fid: str | None) -> Mapping[str, Any] | None:
        mine = self.shown["mine"] if self.shown else {}
        return mine.get(fid) if fid else None


# --- small pieces ----------------------------------------------------------------------------

def _with(s: Seating, phone: Phone) -> Seating:
    return replace(s, phones=tuple(phone if p.fp == phone.fp else p for p in s.phones))


def _refused(fp: str, reason: str, error: Mapping[str, Any] | None = None, **fields: Any) -> Told:
    """A refusal told to a phone: ``reason`` one the player's page words (web/live/guest.js
    ``GM_REFUSED``), or ``engine`` with the engine's refusal, worded on the phone."""
    if error is not None:
        return fp, "refused", {"reason": reason, "error": {"code": error.get("code"), "key": error.get("key"),
                                                             "params": error.get("params") or {},
                                                             "message": error.get("message") or error.get("reason") or ""}}
    return fp, "refused", {"reason": reason, **fields}


def _ok(fp: str, what: str) -> Told:
    return fp, "ok", {"what": what}


#: The game master's own page, as the addressee of what it says in its status line.
GM = ""


def _said(kind: str, **fields: Any) -> Told:
    """What the game master's page says of the table (``kind``: claimed, released, asked,
    given, declared, request), addressed to :data:`GM`."""
    return GM, kind, fields


def _holder(s: Seating, fight: Fight, p: Phone) -> dict[str, Any]:
    """Who holds a PJ, as a player's phone words it: the holder's number at the table, the
    PJ its phone played before, whether it is away (web/live/protocol.js HOLDER)."""
    was = fight.seen(p.was)
    return {"n": p.number, "was": was["name"] if was else None, "away": p.state == "away"}


def _playing(fight: Fight, p: Phone) -> str | None:
    """The PJ ``p``'s phone plays as the players see it: none while the game master hides
    it (the phone keeps it, and plays it again once shown)."""
    return p.claim if fight.mine(p.claim) is not None else None


def _still(fight: Fight, p: Phone) -> dict[str, Any]:
    """What a refused claim tells its phone of the PJ it still plays (``claim``, which its
    page asks for again when it reconnects): not told while the game master hides that
    PJ (a hidden fighter's id never reaches a phone; the page keeps what it had)."""
    if fight.shown is not None and p.claim is not None and _playing(fight, p) is None:
        return {}
    return {"claim": p.claim}


def _let_go(p: Phone) -> Phone:
    """A phone's PJ let go (« Changer », freed, handed to another phone): remembered as the
    one it played before, to name that phone."""
    return replace(p, was=p.claim if p.claim else p.was, claim=None)


def _drop(s: Seating, fp: str) -> Seating:
    """A phone gone, muted or handed over: its waiting line, its claim request and its PJ's
    interruption request go (the request stays if another open phone holds that PJ)."""
    p = s.phone(fp)
    if p is None:
        return s
    others = {q.claim for q in s.phones if q.fp != fp and q.open}
    return replace(_with(s, replace(p, asks=None)), lines=tuple(x for x in s.lines if x.fp != fp),
                   requests=tuple(r for r in s.requests if r != p.claim or r in others))


def _interruption_refused(fight: Fight, pj: str) -> Mapping[str, Any] | None:
    """Why ``pj`` may not interrupt now (its first interruption's verdict, as the engine
    judged it: R5.1, R5.2, D6, D20), or ``None`` when one of its interruptions is allowed."""
    mine = fight.mine(pj) or {}
    catalogue = fight.shown["catalogue"] if fight.shown else {}
    verdicts: list[Mapping[str, Any]] = [
        v for a, v in mine.get("actions", {}).items()
        if catalogue.get(a, {}).get("category") == "interruption" or v.get("category") == "interruption"]
    if not verdicts or any(v.get("allowed") for v in verdicts):
        return None
    return verdicts[0]


# --- what each phone is shown ----------------------------------------------------------------

def _board_for(s: Seating, fight: Fight, p: Phone) -> Told | None:
    """The players' board for ``p``'s phone, with what it may do there: the PJ it may
    claim (each with who holds it, ``holder``, and whether a claim goes to the game master), and for
    its own PJ its verdicts (``mine``), whether it declares a weapon and a die now (R1) and
    whether it is its turn (R2)."""
    if fight.shown is None or not p.open:
        return None
    shown = fight.shown
    board = {k: v for k, v in shown.items() if k not in ("mine", "catalogue")}
    claim = _playing(fight, p)
    fields: dict[str, Any] = {"seq": s.seq, "claim": claim, "board": board, "claims": []}
    holders = {q.claim: _holder(s, fight, q) for q in s.phones if q.fp != p.fp and q.claim in shown["mine"]}
    for fid in board["order"]:
        f = board["combatants"][fid]
        if f["side"] == "pj" and not f.get("hors_combat"):
            held = holders.get(fid)
            # D27: a PJ held by a phone that follows is that phone's ("held": a plain claim is
            # refused, one with ``ask`` goes to the game master, for a player back on a new
            # phone while the old one still follows); one held by a phone away may be asked
            # for with a plain claim (the game master decides: it may be asleep, or this
            # player's own phone under a new certificate).
            fields["claims"].append({"id": fid, "may": "free" if held is None else "ask" if held["away"] else "held",
                                     "holder": held})
    if claim is not None:
        me = board["combatants"][claim]
        fields["declare"] = not me.get("hors_combat") and (board["round"] == 0 or bool(board["round_over"]))
        fields["turn"] = board["round"] > 0 and not board["round_over"] and claim in board["active"]
        if s.mode != "off":
            fields["mine"] = {**shown["mine"][claim], "catalogue": shown["catalogue"]}
    return p.fp, "board", fields


def boards(s: Seating, fight: Fight) -> list[Told]:
    """The players' board for every phone that follows."""
    return [m for p in s.phones if (m := _board_for(s, fight, p)) is not None]


def _journal(s: Seating, fight: Fight) -> list[Told]:
    """The players' journal's last entries (engine/journal.py, D26), to every phone that follows."""
    phones = [p for p in s.phones if p.open]
    if fight.journal is None or not phones:
        return []
    entries = fight.journal()
    return [(p.fp, "journal", {"entries": entries}) for p in phones]


def _attacked(s: Seating, fight: Fight) -> list[Told]:
    """The attack the players see, told to its target's phone with the answers that fit it
    (R5.3, D23: the catalogue's ``answers`` of that attack), when the players play their PJ."""
    attack = fight.attack
    if not attack or s.mode == "off":
        return []
    if fight.mine(attack["target"]) is None:  # a PNJ's answers are the game master's to give
        return []
    catalogue = fight.shown["catalogue"] if fight.shown else {}
    answers = list(catalogue.get(attack["action"], {}).get("answers", ()))
    return [(p.fp, "attacked", {"by": attack["by"], "action": attack["action"], "answers": answers})
            for p in s.phones if p.claim == attack["target"] and p.open]


# --- phones coming and going -----------------------------------------------------------------

def phone_name(value: object) -> str | None:
    r"""The name a player gave their phone (« Nom de ce téléphone », carried by its answer
    code: web/live/signal.js), as the seating keeps it: trimmed, at most :data:`MAX_NAME`
    characters, no control character, and something that draws (not only spaces,
    invisible or combining characters); anything else is no name (refused quietly: the
    phone is named as before, by its PJ or its number).

    >>> phone_name("  Camille "), phone_name("\u200b\u2060"), phone_name("a\nb"), phone_name("x" * 25)
    ('Camille', None, None, None)
    """
    if not isinstance(value, str):
        return None
    name = value.strip()
    if not 0 < len(name) <= MAX_NAME or any(unicodedata.category(c) == "Cc" for c in name):
        return None
    drawn = [c for c in name if c not in BLANK and unicodedata.category(c)[0] not in "CZ"
             and unicodedata.category(c) not in ("Mn", "Me")]
    return name if drawn else None


def paired(s: Seating, fp: str, at: int | None = None, name: str | None = None) -> Seating:
    """``fp``'s phone connected (a new phone gets the smallest number free): its plays'
    sequence numbers start again with this connection. ``name``: the one its answer
    carried (:func:`phone_name`); a connection with none (a spare, a relay, an older
    phone's answer) keeps the name the phone had. It is shown the fight open now."""
    p = s.phone(fp)
    if p is None:
        taken = {q.number for q in s.phones}
        number = next(n for n in range(1, len(taken) + 2) if n not in taken)
        p = Phone(fp, number, since=at)
        s = replace(s, phones=(*s.phones, p))
    return _with(s, replace(p, state="connected", known=True, played=0, name=phone_name(name) or p.name,
                            since=p.since if p.since is not None else at, seen=_seeing(s, p)))


def _seeing(s: Seating, p: Phone) -> tuple[str, ...]:
    """The fights ``p`` was shown, with the one open now: by its identity once the game
    master's page said it, else as ``""``, "the fight open now", named at the next switch."""
    now = s.fight if s.fight is not None else ""
    return p.seen if now in p.seen else (*p.seen, now)[-MAX_SEEN:]


def joined(s: Seating, fight: Fight, fp: str, at: int | None = None, name: str | None = None) -> tuple[Seating, list[Told]]:
    """``fp``'s phone connected: it gets the board, the journal, and the attack on its PJ."""
    s = paired(s, fp, at, name)
    p = s.phone(fp)
    assert p is not None
    told = [m for m in (_board_for(s, fight, p),) if m is not None]
    told += [m for m in _journal(s, fight) if m[0] == fp]
    told += [m for m in _attacked(s, fight) if m[0] == fp]
    return s, told


def phone_state(s: Seating, fp: str, state: str) -> Seating:
    """The connection of ``fp``'s phone became ``state`` (silent, heard again, connecting)."""
    p = s.phone(fp)
    if p is None or state not in STATES or state == "away":
        return s
    return _with(s, replace(p, state=state))


def lost(s: Seating, fight: Fight, fp: str) -> tuple[Seating, list[Told]]:
    """``fp``'s connection is gone: its phone is away, its lines go, and the others are told
    that its PJ is now held by a phone away. A first pairing that failed leaves no row."""
    p = s.phone(fp)
    if p is None:
        return s, []
    if not p.known:
        return replace(s, phones=tuple(q for q in s.phones if q.fp != fp)), []
    s = _drop(s, fp)
    p = s.phone(fp)
    assert p is not None
    s = _with(s, replace(p, state="away", mates=()))
    return s, boards(s, fight)


def remove(s: Seating, fight: Fight, fp: str) -> tuple[Seating, list[Told]]:
    """The game master removes a phone from the table: told, then forgotten (a new
    invitation may bring it back); its PJ is free for the others."""
    p = s.phone(fp)
    if p is None:
        return s, []
    told: list[Told] = [(fp, "removed", {})] if p.open else []
    s = _drop(s, fp)
    s = replace(s, phones=tuple(q for q in s.phones if q.fp != fp))
    return s, told + (boards(s, fight) if p.claim else [])


# --- what a player sends ---------------------------------------------------------------------

def judge(s: Seating, fight: Fight, fp: str,
          message: Mapping[str, Any]) -> tuple[Seating, list[Told], Line | None]:
    """A player's message (its shape checked on the wire, web/live/protocol.js): the new
    seating, what each phone is told, and the play to apply now, if any (the players' plays
    applied at once, D27): the caller applies it and tells its phone (:func:`applied`)."""
    p = s.phone(fp)
    if p is None or not p.open:
        return s, [], None
    if "n" in message:
        # A play replayed, or older than one already heard on this connection: refused
        # before anything reads it (each play is judged once).
        n = message["n"]
        if not isinstance(n, int) or n <= p.played:
            return s, [_refused(fp, "replayed")], None
        s = _with(s, replace(p, played=n))
        p = s.phone(fp)
        assert p is not None
    kind = message.get("t")
    if kind == "claim":
        s, told = _claim(s, fight, p, message.get("id"), message.get("ask") is True)
        return s, told, None
    if kind == "mates":
        listed = message.get("list") or []
        mates = tuple(dict.fromkeys(m for m in listed if m != fp and s.phone(m) is not None))[:MAX_MATES]
        return _with(s, replace(p, mates=mates)), [], None
    # A phone plays only the PJ it holds while that is a PJ on the players' board (D26): not
    # one the game master hid or made a PNJ, nor a fighter of the fight before a switch
    # that has its id.
    if fight.mine(p.claim) is None:
        return s, [_refused(fp, "no_claim")], None
    if p.muted:
        return s, [_refused(fp, "muted")], None
    if kind == "declare":
        s, told = _declare(s, fight, p, message)
        return s, told, None
    if kind == "interrupt" and "action" not in message:
        s, told = _request(s, fight, p)
        return s, told, None
    if kind in ("act", "pass", "interrupt"):
        return _play(s, fight, p, message)
    return s, [_refused(fp, "shape")], None


def _claim(s: Seating, fight: Fight, p: Phone, pj: object, ask: bool) -> tuple[Seating, list[Told]]:
    """A PJ belongs to the phone that claimed it until that phone lets it go or the game
    master frees it (D27): a claim refused tells the phone the PJ it still plays (``claim``:
    the one its page asks for again when it reconnects); a claim of a PJ another phone that
    follows holds is refused with who holds it, unless it asks the game master (``ask``: the player is back on a new
    phone while their old one still follows); a claim of a PJ held by a phone away, or one
    that asks, goes to the game master as a line to accept (it may be asleep, or this
    player's own phone under a new certificate): the game master decides (D27)."""
    p = replace(p, asks=None)
    s = _with(s, p)
    if pj is None:
        said = [_said("released", pj=p.claim)] if p.claim else []
        s = _with(_drop(s, p.fp), _let_go(p))
        return s, said + boards(s, fight)
    if not isinstance(pj, str) or fight.seen(pj) is None or fight.mine(pj) is None:
        return s, [_refused(p.fp, "not_pj", **_still(fight, p))]
    if p.claim == pj:
        return s, [m for m in (_board_for(s, fight, p),) if m is not None]
    holder = s.holder(pj)  # not p's: it holds another PJ, or none
    if holder is not None and holder.state != "away" and not ask:
        return s, [_refused(p.fp, "taken", pj=pj, holder=_holder(s, fight, holder), **_still(fight, p))]
    if holder is not None:
        # The phone is told what waits: a phone away, or the game master's word on a phone
        # that follows.
        asked = "claimAsked" if holder.state == "away" else "claimAskedHeld"
        return _with(s, replace(p, asks=pj)), [_said("asked", fp=p.fp, pj=pj), _ok(p.fp, asked)]
    s = _drop(s, p.fp)
    s = _with(s, replace(_let_go(p), claim=pj))
    return s, [_said("claimed", pj=pj), *boards(s, fight), *(m for m in _attacked(s, fight) if m[0] == p.fp)]


def _declare(s: Seating, fight: Fight, p: Phone, message: Mapping[str, Any]) -> tuple[Seating, list[Told]]:
    """A PJ's weapon and die for the next round (R1, D2, D6), judged as the start of the
    round would judge it, then shown in the game master's form."""
    pj = p.claim
    assert pj is not None
    assert fight.shown is not None
    declared = {"declarations": {pj: message["weapon"]}} if "weapon" in message else {}
    error = fight.check({"type": "start_round", "rolls": {pj: message.get("die")}, **declared})
    if error is not None:
        return s, [_refused(p.fp, "engine", error)]
    round_ = fight.shown["round"] + 1
    earlier = next((x for x in s.proposals if x.fighter == pj), None)
    if earlier is not None and earlier.round == round_ and earlier.edited:
        return s, [_refused(p.fp, "gm_edited")]
    proposal = Proposal(pj, message.get("die"), round_, p.fp, message.get("weapon", ...))
    s = replace(s, proposals=(*(x for x in s.proposals if x.fighter != pj), proposal))
    return s, [_said("declared", pj=pj, die=message.get("die")), _ok(p.fp, "declare")]


def _request(s: Seating, fight: Fight, p: Phone) -> tuple[Seating, list[Told]]:
    """An interruption request, shown on the game master's board where it is accepted,
    when the engine allows this PJ one now (R5.1, D20)."""
    assert p.claim is not None
    refused = _interruption_refused(fight, p.claim)
    if refused is not None:
        return s, [_refused(p.fp, "engine", refused)]
    if p.dismissed == s.seq:
        return s, [_refused(p.fp, "dismissed")]
    if p.claim not in s.requests:
        s = replace(s, requests=(*s.requests, p.claim))
    return s, [_said("request", pj=p.claim), _ok(p.fp, "interrupt")]


def _command(fight: Fight, pj: str, message: Mapping[str, Any]) -> dict[str, Any] | None:
    """The engine's command for ``pj`` from a player's play; ``None`` for one no PJ action
    maps to. The actor is always the PJ the phone holds, never one it names."""
    if message.get("t") == "pass":
        return {"type": "pass", "actor": pj, "by_player": True}
    catalogue = fight.shown["catalogue"] if fight.shown else {}
    spec = catalogue.get(message.get("action"))
    if spec is None or (spec.get("category") == "interruption") != (message.get("t") == "interrupt"):
        return None
    options = dict(message.get("options") or {})
    if any(key not in spec.get("options", ()) for key in options):
        return None
    return {"type": message["t"], "actor": pj, "action": message["action"], **options, "by_player": True}


def _play(s: Seating, fight: Fight, p: Phone, message: Mapping[str, Any]) -> tuple[Seating, list[Told], Line | None]:
    """A player's action, interruption or pass for the PJ its phone holds (D27). Checked by
    the engine first; then refused (« non »), waiting for the game master's « Appliquer »
    (one line per phone: a newer play replaces it), or applied at once. An interruption
    that answers no attack on the PJ always waits (D16: the game master rules when one is
    allowed)."""
    if s.mode == "off":
        return s, [_refused(p.fp, "players_off")], None
    assert p.claim is not None
    command = _command(fight, p.claim, message)
    if command is None:
        return s, [_refused(p.fp, "shape")], None
    # Targets only among the fighters on the players' board (D26).
    if any(key in command and fight.seen(command[key]) is None for key in ("target", "against")):
        return s, [_refused(p.fp, "target")], None
    attack = fight.attack
    answers = command["type"] == "interrupt" and attack is not None and attack["target"] == p.claim
    if answers:
        assert attack is not None
        command["against"] = attack["by"]
    elsewhere = attack["target"] if command["type"] == "interrupt" and not answers and attack else None
    waiting = s.line_of(p.fp)
    if waiting is not None and _same(waiting.command, command):
        return s, [], None  # the same tap again while it waits
    error = fight.check(command)
    if error is not None:
        return s, [_refused(p.fp, "engine", error)], None
    line = Line(s.next_line, p.fp, command, elsewhere)
    s = replace(s, next_line=s.next_line + 1, lines=tuple(x for x in s.lines if x.fp != p.fp))
    if s.mode == "auto" and (command["type"] != "interrupt" or answers):
        return s, [], line
    return replace(s, lines=(*s.lines, line)), [_ok(p.fp, "waiting")], None


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def applied(line: Line, error: Mapping[str, Any] | None) -> list[Told]:
    """What a phone is told of its play once the engine applied it, or refused it then."""
    return [_ok(line.fp, "applied")] if error is None else [_refused(line.fp, "engine", error)]


# --- the game master's hand ------------------------------------------------------------------

def decide_line(s: Seating, line_id: object, yes: bool) -> tuple[Seating, list[Told], Line | None]:
    """The game master's « Appliquer » (the line comes back, for the caller to apply) or
    « Refuser » (its player is told) on a waiting line."""
    line = next((x for x in s.lines if x.id == line_id), None)
    if line is None:
        return s, [], None
    s = replace(s, lines=tuple(x for x in s.lines if x is not line))
    return (s, [], line) if yes else (s, [_refused(line.fp, "gm_refused")], None)


def decide_claim(s: Seating, fight: Fight, fp: str, yes: bool) -> tuple[Seating, list[Told]]:
    """The game master's answer to a claim that asked for a PJ another phone holds (D27):
    accepted, the PJ goes to the asking phone; the phone that held it keeps its row without
    a PJ (its next board says so, as when the game master frees a PJ; a phone away is told
    who holds it when it comes back); refused, the asking phone is told."""
    p = s.phone(fp)
    if p is None or p.asks is None:
        return s, []
    pj = p.asks
    s = _with(s, replace(p, asks=None))
    if not yes or fight.seen(pj) is None or not p.open:
        return s, [_refused(fp, "claim_refused", **_still(fight, p))]
    for holder in [q for q in s.phones if q.fp != fp and q.claim == pj]:
        s = _drop(s, holder.fp)
        s = _with(s, _let_go(s.phone(holder.fp)))  # type: ignore[arg-type]
    s = _drop(s, fp)
    s = _with(s, replace(_let_go(s.phone(fp)), claim=pj))  # type: ignore[arg-type]
    return s, [_said("given", fp=fp, pj=pj), *boards(s, fight)]


def accept_request(s: Seating, pj: str) -> tuple[Seating, list[Told]]:
    """The game master takes a PJ's interruption request (the board's sheet opens)."""
    return _answer_request(s, pj, "interruptAccepted")


def dismiss_request(s: Seating, pj: str) -> tuple[Seating, list[Told]]:
    """The game master dismisses a PJ's interruption request: its phone may not ask again
    until the board changes."""
    return _answer_request(s, pj, "interruptDismissed")


def _answer_request(s: Seating, pj: str, what: str) -> tuple[Seating, list[Told]]:
    s = replace(s, requests=tuple(r for r in s.requests if r != pj))
    told: list[Told] = []
    for p in s.phones:
        if p.claim == pj and p.open:
            if what == "interruptDismissed":
                s = _with(s, replace(p, dismissed=s.seq))
            told.append(_ok(p.fp, what))
    return s, told


def refuse_all(s: Seating, fight: Fight, fp: str) -> tuple[Seating, list[Told]]:
    """« Refuser tout »: everything ``fp``'s phone has waiting is refused, and it is told."""
    p = s.phone(fp)
    if p is None:
        return s, []
    told: list[Told] = []
    line = s.line_of(fp)
    if line is not None:
        s, told, _ = decide_line(s, line.id, False)
    if p.claim is not None and p.claim in s.requests:
        s, more = dismiss_request(s, p.claim)
        told += more
    if p.asks is not None:
        s, more = decide_claim(s, fight, fp, False)
        told += more
    return s, told


def free(s: Seating, fight: Fight, fp: str) -> tuple[Seating, list[Told]]:
    """The game master frees the PJ a phone holds: its player chooses again."""
    p = s.phone(fp)
    if p is None or p.claim is None:
        return s, []
    s = _drop(s, fp)
    s = _with(s, _let_go(s.phone(fp)))  # type: ignore[arg-type]
    return s, [_said("released", pj=p.claim), *boards(s, fight)]


def mute(s: Seating, fp: str, on: bool) -> Seating:
    """A muted phone's plays, requests and declarations are refused (and it is told so)."""
    p = s.phone(fp)
    if p is None:
        return s
    if on:
        s = _drop(s, fp)
        p = s.phone(fp)
        assert p is not None
    return _with(s, replace(p, muted=on))


def set_mode(s: Seating, fight: Fight, mode: object) -> tuple[Seating, list[Told]]:
    """« Les joueurs jouent leur PJ »: off refuses every waiting line, each to its player."""
    if mode not in MODES:
        return s, []
    told = [_refused(x.fp, "players_off") for x in s.lines] if mode == "off" else []
    s = replace(s, mode=str(mode), lines=() if mode == "off" else s.lines)
    return s, told + boards(s, fight)


def set_pnj_details(s: Seating, on: bool) -> Seating:
    """Whether the players see a PNJ's P.I., initiative, die, wounds and Espoir (D26)."""
    return replace(s, pnj_details=on)


def edited(s: Seating, pj: str) -> Seating:
    """The game master edited a proposed row of the round's form (its proposal is kept)."""
    return replace(s, proposals=tuple(replace(x, edited=True) if x.fighter == pj else x for x in s.proposals))


# --- a new board -----------------------------------------------------------------------------

def after_change(s: Seating, fight: Fight, undone: Mapping[str, Any] | None = None,
                 redone: Mapping[str, Any] | None = None, hidden: Collection[str] = ()) -> tuple[Seating, list[Told]]:
    """The fight changed: a proposal is kept until a later round has started (an undone
    start of round shows it again), a request the engine no longer allows goes, a play
    waiting for a PJ the game master hides (``hidden``: the fighters hidden from the
    players, D26) goes and its phone is told (a phone plays only a PJ on the players'
    board), the players' board is numbered and sent, with the journal, the attack on a PJ
    (R5.3, D23) and, to the phone whose play the game master undid or did again, that it
    was."""
    shown = fight.shown
    assert shown is not None
    gone = [x for x in s.lines if x.command.get("actor") in hidden]
    s = replace(s, seq=s.seq + 1, lines=tuple(x for x in s.lines if x not in gone),
                proposals=tuple(x for x in s.proposals if x.round >= shown["round"] and x.fighter in shown["combatants"]),
                requests=tuple(r for r in s.requests if fight.seen(r) is not None and _interruption_refused(fight, r) is None))
    told = [_refused(x.fp, "gm_refused") for x in gone] + boards(s, fight) + _journal(s, fight) + _attacked(s, fight)
    for kind, command in (("undone", undone), ("redone", redone)):
        if isinstance(command, Mapping) and command.get("by_player") is True:
            action = command.get("action")  # none for a pass (engine/commands.py: no unknown key)
            told += [(p.fp, kind, {"action": action}) for p in s.phones if p.claim == command.get("actor") and p.open]
    return s, told


def switched(s: Seating, fight: Fight, to: object = None, was: object = None) -> tuple[Seating, list[Told]]:
    """Another fight opened (its board went to the phones with the answer that opened it):
    what the players asked in the fight before goes (waiting plays refused, requests and
    dice dropped), and every phone is told: ``opened``, with ``back`` when it was shown
    that fight before (the game master came back to it), never which fight (its name is
    the game master's). ``to`` and ``was``: the list's ids of the fight opened and of the one
    left (kept here, never sent to a phone: docs/LIVE-TABLE.md); without
    them every fight is another."""
    told = [_refused(x.fp, "fight_switched") for x in s.lines]
    to = to if _id(to) else None
    if s.fight is None and _id(was):
        # The fight open before the page first said one: the phones shown it ("") saw ``was``.
        s = replace(s, phones=tuple(replace(p, seen=tuple(was if f == "" else f for f in p.seen)) for p in s.phones))
    s = replace(s, lines=(), requests=(), proposals=(), fight=to)
    if to is None:
        s = replace(s, phones=tuple(replace(p, seen=tuple(f for f in p.seen if f != "")) for p in s.phones))
    for p in s.phones:
        if p.open:
            told.append((p.fp, "opened", {"back": True} if to is not None and to in p.seen else {}))
            s = _with(s, replace(p, seen=_seeing(s, p)))
    return s, told


# --- the phones connected with each other ----------------------------------------------------

def knit(s: Seating, now: int, again: int, relay_again: int) -> tuple[Seating, list[Told], list[str]]:
    """The phones that follow and are not yet connected with each other are asked to
    connect (the one with the smaller fingerprint offers; a pair is asked again after
    ``again`` ms), and each phone away is looked for through a phone that reaches it,
    in turn (at most every ``relay_again`` ms). Returns the phones away to make an offer
    for; the caller sends each through :func:`relay_through`.

    A link between two phones counts only when the game master introduced them and both
    say they reach each other: a phone cannot make itself another one's relay."""
    open_ = [p for p in s.phones if p.open]
    told: list[Told] = []
    asked = {(a, b): at for a, b, at in s.introduced}
    for a in open_:
        for b in open_:
            if a.fp >= b.fp or (a.fp in b.mates and b.fp in a.mates):
                continue
            if len(a.mates) >= MAX_MATES or len(b.mates) >= MAX_MATES:
                continue
            if now - asked.get((a.fp, b.fp), now - again) < again:
                continue
            asked[(a.fp, b.fp)] = now
            told.append((a.fp, "mate-open", {"peer": b.fp}))
    s = replace(s, introduced=tuple((a, b, at) for (a, b), at in asked.items()))
    last = {fp: at for fp, _, at in s.relayed}
    wanted = [p.fp for p in s.phones if p.state == "away" and p.known
              and now - last.get(p.fp, now - relay_again) >= relay_again and reaching(s, p.fp)]
    return s, told, wanted


def knitting(s: Seating) -> bool:
    """Whether :func:`knit` has anything to do: two phones that follow and do not yet reach
    each other, or a phone away that one of them reaches (the page asks only then)."""
    open_ = [p for p in s.phones if p.open]
    unknit = any(a.fp < b.fp and not (a.fp in b.mates and b.fp in a.mates)
                 and len(a.mates) < MAX_MATES and len(b.mates) < MAX_MATES for a in open_ for b in open_)
    return unknit or any(p.state == "away" and p.known and reaching(s, p.fp) for p in s.phones)


def introduced(s: Seating, a: str, b: str) -> bool:
    """The game master asked ``a`` and ``b`` to connect (a code may pass between them)."""
    pair = (min(a, b), max(a, b))
    return any((x, y) == pair for x, y, _ in s.introduced)


def reaching(s: Seating, fp: str) -> list[str]:
    """The phones that follow and reach ``fp``'s: introduced by the game master, and each
    listing the other (a phone away lists none now: its last list counts only while the
    other lists it too)."""
    return [p.fp for p in s.phones if p.open and p.fp != fp and fp in p.mates and introduced(s, p.fp, fp)]


def relay_through(s: Seating, fp: str, now: int) -> tuple[Seating, str | None]:
    """The phone through which the next offer for ``fp`` goes: the one after the last used,
    among those that reach it, so that one phone cannot hold it back by dropping them."""
    mates = reaching(s, fp)
    if not mates:
        return s, None
    last = next((by for f, by, _ in s.relayed if f == fp), None)
    at = (mates.index(last) + 1) % len(mates) if last in mates else 0
    by = mates[at]
    return replace(s, relayed=(*(r for r in s.relayed if r[0] != fp), (fp, by, now))), by


# --- what the game master's page shows and keeps ---------------------------------------------

def gm_view(s: Seating, fight: Fight, names: Mapping[str, str]) -> dict[str, Any]:
    """What the game master's page draws of the table: each phone (by number, with the PJ
    it holds and the one it held before, its state, whether it is muted, whether anything
    of it waits), the waiting plays, the interruption requests, the claims to accept, the
    proposed dice, the setting. ``names``: every fighter's name on the game master's board."""
    def label(p: Phone) -> str | None:
        return names.get(p.claim) if p.claim else None

    def named(fid: object) -> str | None:
        return names.get(fid) if isinstance(fid, str) else None

    def called(p: Phone) -> str | None:
        # A phone in the game master's sentences (« Le téléphone de Camille veut jouer
        # Lyra »): by the name its player gave it, else by the PJ it plays, else by the one it
        # played before; None: by its number (docs/LIVE-TABLE.md, « Pairing »).
        return p.name or label(p) or named(p.was)

    phones = [{"fp": p.fp, "number": p.number, "pj": label(p), "called": called(p), "name": p.name, "since": p.since,
               "state": p.state, "claim": p.claim, "muted": p.muted,
               "waiting": s.line_of(p.fp) is not None or p.asks is not None or (p.claim is not None and p.claim in s.requests)}
              for p in sorted(s.phones, key=lambda p: p.number)]
    mine = fight.shown["mine"] if fight.shown else {}
    lines = []
    for x in s.lines:
        c = x.command
        verdict = (mine.get(c["actor"], {}).get("actions", {}) or {}).get(c.get("action")) if c.get("action") else None
        lines.append({"id": x.id, "actor": named(c["actor"]), "type": c["type"], "action": c.get("action"),
                      "whom": named(c.get("target") or c.get("against")), "verdict": verdict,
                      "elsewhere": named(x.elsewhere)})
    asks = []
    for p in s.phones:
        if p.asks is not None and named(p.asks) is not None:
            # Who holds it: away (asleep, or the same player under a new certificate), or a
            # phone that follows, which the player asks the game master to take it from (D27).
            h = s.holder(p.asks, but=p.fp)
            asks.append({"fp": p.fp, "called": called(p), "number": p.number, "since": p.since, "pj": named(p.asks),
                         "holder": None if h is None else {"number": h.number, "called": called(h), "away": h.state == "away"}})
    proposals = {x.fighter: {"die": x.die, "round": x.round, "from": x.fp, "edited": x.edited,
                             **({} if x.weapon is ... else {"weapon": x.weapon})} for x in s.proposals}
    return {"phones": phones, "lines": lines, "requests": [{"id": r, "name": named(r) or r} for r in s.requests],
            "asks": asks, "proposals": proposals, "mode": s.mode, "pnj_details": s.pnj_details,
            "following": any(p.open for p in s.phones), "knit": knitting(s)}


def kept(s: Seating) -> dict[str, Any]:
    """What the game master's page keeps of the table across its reloads: the setting, and
    each phone with its number, its PJ, its mute, the name its player gave it
    (``phoneName``: an older layout's ``name`` was the PJ's) and when it first paired."""
    return {"pnjDetails": s.pnj_details, "mode": s.mode,
            "players": [{"fp": p.fp, "number": p.number, "claim": p.claim, "muted": p.muted, "phoneName": p.name,
                         "since": p.since} for p in s.phones if p.known],
            "introduced": [[a, b] for a, b, _ in s.introduced]}


def restore(data: object) -> Seating:
    """The seating the page kept (:func:`kept`; and the layouts before it: ``name`` was the
    PJ's name and is not read, ``phoneName``, ``since`` and ``introduced`` absent), every
    phone away until it connects
    again; the pairs of phones introduced before stay introduced. Whatever does
    not read as a phone is left out; a wrong setting is the default."""
    if not isinstance(data, Mapping):
        return Seating()
    phones: list[Phone] = []
    for raw in data.get("players") or []:
        if not isinstance(raw, Mapping):
            continue
        fp, number, claim = raw.get("fp"), raw.get("number"), raw.get("claim")
        if not _fingerprint(fp) or type(number) is not int or not 0 < number < 1000:
            continue
        if any(p.fp == fp or p.number == number for p in phones):
            continue
        since = raw.get("since") if type(raw.get("since")) is int else None
        phones.append(Phone(str(fp), number, claim=claim if _id(claim) else None, muted=raw.get("muted") is True,
                            name=phone_name(raw.get("phoneName")), since=since, known=True))
        if len(phones) >= 64:
            break
    known = {p.fp for p in phones}
    pairs = [(a, b, 0) for a, b in (x for x in data.get("introduced") or [] if isinstance(x, list) and len(x) == 2)
             if isinstance(a, str) and isinstance(b, str) and a in known and b in known and a < b]
    mode = data.get("mode")
    return Seating(phones=tuple(phones), mode=mode if mode in MODES else "confirm",
                   pnj_details=data.get("pnjDetails") is True, introduced=tuple(dict.fromkeys(pairs)))


def _fingerprint(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def _id(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and 0 < len(value) <= 64

