"""The live table on the game master's engine: the seating (engine/seating.py) beside the
fight, so that one call answers one tap or one player's message with everything: the
game master's board, the players' board, and the messages for each phone.

The game master's page hands each player's message (``hear``), each change of a phone's
connection (``phone``) and each of its own taps on the table (``host``) to
:class:`engine.table.Table`, which calls the functions here; every answer that changed the
fight carries ``live`` too, computed from the same board (:func:`after_change`).

An answer's ``live``: ``told``, the messages as ``[fingerprint, type, fields]``;
``view``, what the game master's page draws of the table (engine/seating.py ``gm_view``);
``shown``, the players' board (for the players' view on this device, and the ``board`` of
every board message, carried once); ``journal``, the players' journal of every journal
message, carried once; ``kept``, what the page keeps of the table across its reloads;
for ``knit``, the phones away to offer a connection to, each with the phone to pass it
through; and for ``invite``, the invitations to close to make one more.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from . import seating as seat
from .players import players_attack, players_board

__all__ = ["JOURNAL_LAST", "OPEN_INVITATIONS", "Live", "invitations_to_close", "players_clock"]

#: The players' journal: the entries of the last commands, with every players' board
#: (fewer than the table's CHECKPOINT_EVERY: replayed from the encounter undo keeps before
#: them, not from a checkpoint further back).
JOURNAL_LAST = 40

#: The invitations the game master's page keeps open at once (each holds a WebRTC
#: connection waiting for its player's answer): one more closes the oldest
#: (:func:`invitations_to_close`). Also told by ``Table.limits`` (``invitations``).
OPEN_INVITATIONS = 8

Answer = dict[str, Any]


class Live:
    """The seating of the table beside the fight, and whether the players' view is on
    the game master's own screen (then the players' board is computed for it too)."""

    def __init__(self) -> None:
        self.seating = seat.Seating()
        self.watching = False

    def on(self) -> bool:
        """Someone sees the players' board: a phone at the table, or the players' view."""
        return self.watching or bool(self.seating.phones)

    def fight(self, board: Mapping[str, Any], last: object, check: Callable[[Mapping[str, Any]], Any],
              journal: Callable[[bool], list[Any]], clock: Mapping[str, Any] | None = None) -> seat.Fight:
        """What the seating needs of the fight (engine/seating.py ``Fight``). ``clock``:
        the turn's clock when the game master turned it on (:func:`players_clock`),
        carried with the players' board."""
        shown = players_board(dict(board), self.seating.pnj_details)
        shown["clock"] = players_clock(shown, clock)
        made: list[list[Any]] = []

        def entries() -> list[Any]:  # computed once, and only when a phone follows
            if not made:
                made.append(journal(self.seating.pnj_details))
            return made[0]
        return seat.Fight(shown, players_attack(shown, last), entries, check)

    def answer(self, fight: seat.Fight, board: Mapping[str, Any], told: list[seat.Told], **more: Any) -> Answer:
        """The ``live`` part of an answer."""
        names = {fid: f["name"] for fid, f in board["combatants"].items()}
        shown = fight.shown or {}
        out: Answer = {"told": [_wire(m) for m in told], "view": seat.gm_view(self.seating, fight, names),
                       "kept": seat.kept(self.seating),
                       "shown": {k: v for k, v in shown.items() if k not in ("mine", "catalogue")} if fight.shown else None}
        if any(m[1] == "journal" for m in told):
            out["journal"] = fight.journal() if fight.journal else []
        out.update(more)
        return out

    # --- the operations --------------------------------------------------------------------

    def host(self, do: Mapping[str, Any], fight: seat.Fight) -> tuple[list[seat.Told], seat.Line | None, Answer]:
        """The game master's tap on the table (``do["what"]``); the line to apply, if it was
        « Appliquer »; anything more the answer says."""
        s = self.seating
        what = do.get("what")
        fp = do.get("fp")
        told: list[seat.Told] = []
        line = None
        more: Answer = {}
        if what == "line":
            s, told, line = seat.decide_line(s, do.get("id"), do.get("yes") is True)
        elif what == "claim" and isinstance(fp, str):
            s, told = seat.decide_claim(s, fight, fp, do.get("yes") is True)
        elif what == "request" and isinstance(do.get("id"), str):
            answer = seat.accept_request if do.get("yes") is True else seat.dismiss_request
            s, told = answer(s, do["id"])
        elif what == "refuse_all" and isinstance(fp, str):
            s, told = seat.refuse_all(s, fight, fp)
        elif what == "free" and isinstance(fp, str):
            s, told = seat.free(s, fight, fp)
        elif what == "mute" and isinstance(fp, str):
            s = seat.mute(s, fp, do.get("on") is True)
        elif what == "remove" and isinstance(fp, str):
            s, told = seat.remove(s, fight, fp)
        elif what == "mode":
            s, told = seat.set_mode(s, fight, do.get("mode"))
        elif what == "edited" and isinstance(do.get("id"), str):
            s = seat.edited(s, do["id"])
        elif what == "restore":
            s = seat.restore(do.get("kept"))
        elif what == "knit":
            now = _int(do.get("now"))
            s, told, away = seat.knit(s, now, _int(do.get("again")), _int(do.get("relay_again")))
            relays = []
            for fp_away in away:
                s, by = seat.relay_through(s, fp_away, now)
                if by is not None:
                    relays.append([fp_away, by])
            more["relays"] = relays
        elif what == "pass":
            # A code one phone passes to another (web/live/guest.js): only between two
            # phones the game master introduced.
            ok = isinstance(fp, str) and isinstance(do.get("to"), str) and seat.introduced(s, fp, do["to"]) \
                and (p := s.phone(do["to"])) is not None and p.open
            more["pass"] = bool(ok)
        elif what == "invite":
            more["close"] = invitations_to_close(do.get("open"))
        elif what == "relayed":
            # An answer to a relayed offer comes back for a phone away only.
            p = s.phone(fp)
            more["relayed"] = p is not None and not p.open
        self.seating = s
        return told, line, more

    def after_pnj_details(self, on: bool) -> None:
        self.seating = seat.set_pnj_details(self.seating, on)


def players_clock(shown: Mapping[str, Any], turn: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The turn's clock as the players see it: ``None`` when it is off (no ``limit``), when
    no turn runs or when the fighter who holds it is not one they see (D26, D4: the
    players' board's first ``active``); else the fighter, the ``limit`` in seconds and how
    long the turn has run (``elapsed``, ms) when the answer was made (``now``, ms on the
    game master's clock): a phone counts on from when it is told, whatever its own clock
    says. A table's clock, never a rule: no P.I. depends on it.

    >>> shown = {"active": ["c1"], "combatants": {"c1": {}}}
    >>> players_clock(shown, {"id": "c1", "since": 1000, "limit": 60, "now": 4000})
    {'id': 'c1', 'limit': 60, 'elapsed': 3000}
    >>> players_clock(shown, {"id": "c2", "since": 1000, "limit": 60, "now": 4000}) is None
    True
    >>> players_clock(shown, {"id": "c1", "since": 1000, "limit": None, "now": 4000}) is None
    True
    """
    if not turn or turn.get("limit") is None or not shown.get("active"):
        return None
    fid = turn.get("id")
    if fid != shown["active"][0] or fid not in shown.get("combatants", {}):
        return None
    since, now = turn.get("since"), turn.get("now")
    elapsed = max(0, now - since) if isinstance(since, int) and isinstance(now, int) else 0
    return {"id": fid, "limit": turn["limit"], "elapsed": elapsed}


def invitations_to_close(open_: object) -> list[str]:
    """The invitations the game master's page closes to make one more (docs/LIVE-TABLE.md, its
    opening): while OPEN_INVITATIONS or more wait, the oldest goes, one made for the
    table first. An invitation sent through the chat (``remote``) waits for a player at
    home, who may answer hours later; it is pushed out only when every one waiting is
    such. ``open_``: the page's invitations waiting, oldest first, each
    ``{"id": …, "remote": bool}``; anything else in it is left alone.

    >>> table = [{"id": f"t{n}", "remote": False} for n in range(3)]
    >>> chat = [{"id": f"c{n}", "remote": True} for n in range(5)]
    >>> invitations_to_close(chat[:2] + table + chat[2:])
    ['t0']
    >>> invitations_to_close(chat + chat[:3]), invitations_to_close(table)
    (['c0'], [])
    """
    waiting = [i for i in open_ if isinstance(i, dict) and isinstance(i.get("id"), str)] \
        if isinstance(open_, list) else []
    close: list[str] = []
    while len(waiting) >= OPEN_INVITATIONS:
        oldest = next((i for i in waiting if i.get("remote") is not True), waiting[0])
        waiting.remove(oldest)
        close.append(oldest["id"])
    return close


def _wire(told: seat.Told) -> list[Any]:
    """A message as the answer carries it: the players' board and the players' journal,
    the same for every phone, are in the answer once (``shown``, ``journal``), and each
    phone's board or journal message without them (the page puts them back as it sends)."""
    fp, kind, fields = told
    if kind == "board":
        return [fp, kind, {k: v for k, v in fields.items() if k != "board"}]
    if kind == "journal":
        return [fp, kind, {}]
    return [fp, kind, fields]


def _int(value: object) -> int:
    return value if type(value) is int else 0
