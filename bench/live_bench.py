"""Live-table benchmark: the game master's page and six players' pages in
headless Chromium, each in its own browser context, connected over WebRTC on this
machine (mDNS host candidates, no STUN server), on the built site.

Measured: pairing, step by step (the game master's invitation made; a player's first
visit, from the link opened to the answer shown, with no Python; the answer taken until
the player's board is drawn) and a player's first visit to the live board (the link
opened to the board drawn, the game master's paste counted at once); then, with six players
connected to a fight of 12 fighters (6 PJ, 6 PNJ), command-to-player-board latency (a tap
on « Annuler » or « Rétablir » on the game master's page until each player's page has
drawn the new board: both clocks are this machine's), p50 and p95, and the bytes sent
per command per player (the JSON text of the players' view).

A table that holds: a player's phone frozen 20 s (a CDP debugger pause, as a
phone's sleep freezes its page) while the game master plays, from its wake to its current
board; and the game master's page reloaded with the six players following, the scans and
taps until every player follows again (and how long it takes, scans made at once).

The players play their PJ (« aussitôt »): a player's tap on « Se déplacer » on
their own phone until the game master's engine has applied it and every player's page
(theirs included) has drawn the new board, p50 and p95.

« Inviter à distance »: one more player paired through the two links a chat carries
(the game master's invitation link, the player's reply link): both links' lengths, and
the time from the reply link opened in a new tab of the game master's browser (handed to
the game master's tab) to the player's board drawn, in the room (no NAT); with
``--reply-after S``, the reply opened S seconds after the player's page made it, as a chat
between two homes gives it. Then the same, once each, across the NATs of the tests' rig
(tests/net/rig.py, the pairing of tests/net/distance.py that tests/net/test_distance.py
runs): the game master's phone behind a cone NAT, the player's behind another cone NAT
through the STUN server, then behind the symmetric NAT through the TURN server, the reply
opened at once. The rig needs root, ``ip``, ``nft`` and ``turnserver``: where one is
missing, one line says the NAT cases were skipped and why. Its names start with
``$RIPOSTE_NET_PREFIX``, ``rbn9`` unless set (not the tests' ``rip9``: a bench beside
``make test-net`` leaves the tests' rig alone).

Usage: ``python bench/live_bench.py [--players 6] [--commands 40] [--reply-after 0] [--only-remote] [--json FILE]``
(``make bench`` builds the site first); ``--only-remote``: « Inviter à distance » alone
(the room, then the NATs).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "net"))
# The rig's names, not the tests' (rig.py reads it when imported): its set-up removes what
# a rig of the same names left, which would be a running make test-net's.
os.environ.setdefault("RIPOSTE_NET_PREFIX", "rbn9")

import distance  # noqa: E402  tests/net/distance.py: « Inviter à distance » measured, in the room and the rig
import find_chromium  # noqa: E402
import rig  # noqa: E402  tests/net/rig.py: the NAT rig
import serve  # noqa: E402
from page_bench import FLAGS, HOOKS, SITE  # noqa: E402  the same Chromium as the page's benchmark
from playwright.sync_api import expect, sync_playwright  # noqa: E402

PHONE = {"width": 390, "height": 844}
#: The double-tap window of a player's phone and of the board (web/live/timing.js DOUBLE_TAP,
#: web/views/board-view.js GUARD), in seconds: the same button tapped again sooner is one tap.
DOUBLE_TAP = 0.45


def fight_save(players: int) -> str:
    import engine
    from tests.test_save import CASTS

    log: list[dict[str, Any]] = []
    for i in range(players):
        log.append({"type": "add_combatant", "combatant": {**CASTS["aldric"], "id": f"pj{i}", "name": f"Héros {i + 1}"}})
        log.append({"type": "add_combatant", "combatant": {**CASTS["orque"], "id": f"pnj{i}", "name": f"Orque {i + 1}"}})
    # The first PJ acts first (its die 6, every other 1): its player's phone plays it.
    log.append({"type": "start_round", "rolls": {f"{side}{i}": 6 if (side, i) == ("pj", 0) else 1
                                                 for i in range(players) for side in ("pj", "pnj")}})
    result = engine.replay(log)
    return json.dumps({"app": "riposte", "format": 2, "commands": result["commands"], "board": None})


def seed(text: str) -> str:
    return ("if (!sessionStorage.getItem('seeded')) {"
            f" localStorage.setItem('riposte.encounter', {json.dumps(text)}); sessionStorage.setItem('seeded', '1'); }}")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def woken(gm: Any, page: Any, seconds: float = 20) -> float:
    """A player's page frozen ``seconds`` while the game master taps « Annuler »: from its
    wake (the debugger resumed) to the new board drawn, in ms (this machine's clock)."""
    seq = str(page.evaluate("document.documentElement.dataset.liveSeq"))
    cdp = page.context.new_cdp_session(page)
    cdp.send("Debugger.enable")
    cdp.send("Debugger.pause")
    time.sleep(DOUBLE_TAP)  # « Annuler » again: a new tap
    asleep = time.monotonic()
    gm.locator("#undo").click()
    time.sleep(max(0.0, seconds - (time.monotonic() - asleep)))  # the phone's sleep itself
    resumed = time.time() * 1000
    cdp.send("Debugger.resume")
    expect(page.locator("html")).not_to_have_attribute("data-live-seq", seq)
    drawn: float = page.evaluate("performance.timeOrigin + performance.getEntriesByName('riposte:live-board').at(-1).startTime")
    cdp.detach()
    gm.locator("#redo").click()
    return drawn - resumed


def counted(gm: Any) -> tuple[int, int]:
    """The game master's page's engine calls and drawn answers so far (web/app.js hooks)."""
    calls, renders = gm.evaluate("[ripostePage.calls(), ripostePage.renders()]")
    return int(calls), int(renders)


#: Resolves once the page has drawn a board after ``seq`` (its board's number before), told
#: by the attribute's change itself: nothing runs on the page meanwhile (an ``expect``'s
#: every poll that fails reads the whole page's accessibility tree for its message, on
#: the main thread that draws the board).
NEXT_BOARD = """(seq) => new Promise((done, fail) => {
  const html = document.documentElement;
  const moved = () => (html.dataset.liveSeq ?? null) !== seq;
  if (moved()) return done();
  const watch = new MutationObserver(() => {
    if (!moved()) return;
    clearTimeout(timer);
    watch.disconnect();
    done();
  });
  const timer = setTimeout(() => { watch.disconnect(); fail(new Error(`no board after ${seq} in 60 s`)); }, 60000);
  watch.observe(html, { attributes: true, attributeFilter: ["data-live-seq"] });
})"""


def drawn(players: list[Any], seqs: list[Any], since: float) -> list[float]:
    """Until each player's page has drawn a board after ``seqs`` (their boards' numbers
    before): from ``since`` (this machine's clock, ms) to each board drawn."""
    latencies = []
    for page, seq in zip(players, seqs, strict=True):
        page.evaluate(NEXT_BOARD, seq)
        latencies.append(page.evaluate(
            "performance.timeOrigin + performance.getEntriesByName('riposte:live-board').at(-1).startTime") - since)
    return latencies


def seqs_of(players: list[Any]) -> list[Any]:
    return [page.evaluate("document.documentElement.dataset.liveSeq") for page in players]


def let_play(gm: Any, players: list[Any]) -> Any:
    """The players play their PJ, applied at once; the first player's phone claims the PJ
    that acts first: its « Se déplacer » chip."""
    gm.get_by_role("button", name="Partie").click()
    folded = gm.locator("#live-network")  # the table's settings, folded away until asked for (a base may have no fold)
    if folded.count() and folded.get_attribute("open") is None:
        gm.locator("#live-network > summary").click()
    gm.locator("#live-mode-auto").check()
    gm.get_by_role("button", name="Plateau").click()
    players[0].locator("button[data-claim='pj0']").click()
    return players[0].locator("#live-play").get_by_role("button", name=re.compile("^Se déplacer"))


def play(gm: Any, players: list[Any], chip: Any, per_play: list[tuple[int, int]] | None = None) -> list[float]:
    """The first player's PJ moves from their phone: from the tap to each player's new
    board (ms); then the game master undoes it. ``per_play``: the play's engine calls and
    drawn answers on the game master's page."""
    expect(chip).to_be_enabled()
    time.sleep(DOUBLE_TAP)  # the same chip again: a new tap
    seqs = seqs_of(players)
    tapped = players[0].evaluate("Date.now()")
    before = counted(gm) if per_play is not None else None
    chip.click()
    latencies = drawn(players, seqs, tapped)
    if per_play is not None and before is not None:
        after = counted(gm)
        per_play.append((after[0] - before[0], after[1] - before[1]))
    seqs = seqs_of(players)
    gm.locator("#undo").click()
    drawn(players, seqs, 0)
    return latencies


def played(gm: Any, players: list[Any], turns: int, per_play: list[tuple[int, int]] | None = None) -> list[float]:
    """The first player's PJ moves (« Se déplacer », applied at once) from their phone
    ``turns`` times: from the tap to each player's new board, in ms; the game master undoes
    it between turns. ``per_play``: each play's engine calls and drawn answers on the game
    master's page."""
    chip = let_play(gm, players)
    return [ms for _ in range(turns) for ms in play(gm, players, chip, per_play)]


def recover(gm: Any, players: list[Any]) -> tuple[int, int, float]:
    """The game master's page reloads; « Réinviter » (a tap), the first player's phone opens
    the invitation (a scan), the game master's camera reads its answer (a scan, faked: the
    code pasted by the benchmark, as the tests' camera does): until every player follows."""
    started = time.monotonic()
    gm.reload()
    expect(gm.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
    taps = scans = 0
    gm.locator("#live-bar").get_by_role("button", name="Réinviter").click()
    taps += 1
    expect(gm.locator("#invite-link")).to_have_value(re.compile("#table="))
    players[0].goto(gm.locator("#invite-link").input_value())
    scans += 1
    expect(players[0].locator("#live-answer-qr svg")).to_be_visible()
    gm.get_by_label("Code du joueur").fill(players[0].locator("#live-answer").input_value())
    gm.get_by_role("button", name="Valider le code").click()  # the camera's read, done by hand here: not a tap
    scans += 1
    for page in players:
        expect(page.locator("#live-state")).to_have_text("Connecté à la table", timeout=120_000)
    return scans, taps, time.monotonic() - started


def remote(browser: Any, gm: Any, reply_after: float) -> dict[str, Any]:
    """« Inviter à distance » in the room: the chat's invitation link made, a player at home
    opens it and its page makes the reply link; ``reply_after`` seconds later the game master
    opens that link in a new tab of the same browser: the two links' lengths, and from the
    reply opened to the player's board drawn (ms, this machine's clock)."""
    gm.bring_to_front()
    if gm.locator("#invite-dialog").is_visible():
        gm.locator("#invite-dialog").get_by_role("button", name="Fermer").click()
    gm.get_by_role("button", name="Partie").click()

    def player(link: str) -> Any:
        context = browser.new_context(viewport=PHONE)
        context.add_init_script(distance.HOOKS)  # the hooks, and its connections kept (for their routes)
        page = context.new_page()
        page.goto(link, wait_until="commit")
        return page

    figures, page = distance.by_two_links(gm, player, after=reply_after, agree=False)
    page.context.close()
    return figures


#: « Inviter à distance » across the rig's NATs: the player's phone (tests/net/rig.py
#: PHONES), its router's NAT, and the game master's server (address, TURN user, password).
NAT_CASES = [("c2", "cone", "STUN", (distance.STUN,)), ("c3", "symmetric", "TURN", (distance.TURN, rig.USER, rig.PASSWORD))]


def across_nats(p: Any, chromium: str) -> dict[str, Any]:
    """« Inviter à distance » in the NAT rig, one pairing per case of NAT_CASES, the reply
    opened at once: the game master's page on phone c1 (a cone NAT), a player's page on the
    case's phone (its own browser, closed after its pairing). Or why the rig cannot be built
    here (``skipped``)."""
    reason = rig.missing()
    if reason:
        return {"skipped": reason}
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix=f"{rig.PREFIX}-") as tmp:
        built = rig.Rig(Path(tmp)).up()
        opened: list[Any] = []

        def open_on(name: str, url: str = distance.SITE, *, script: str = "") -> Any:
            opened.append(built.browser(p, name, chromium, FLAGS))
            return distance.open_page(opened[-1], url, script=script)

        try:
            gm = distance.game_master(open_on, *NAT_CASES[0][3])
            for n, (name, nat, kind, server) in enumerate(NAT_CASES):
                if n:
                    distance.set_server(gm, *server)
                figures, player = distance.by_two_links(gm, lambda link, name=name: open_on(name, link))
                player.context.browser.close()
                results[f"{nat} NAT through {kind}"] = figures
        finally:
            for browser in opened:
                if browser.is_connected():
                    browser.close()
            built.down()
    return results


def seat(browser: Any, gm: Any, count: int) -> tuple[list[Any], dict[str, list[float]]]:
    """``count`` players paired one after the other (the code pasted into « Code du
    joueur »), until every phone reaches the others' (the table can come back through them):
    their pages, and the pairing's steps (ms)."""
    pairing: dict[str, list[float]] = {"offer": [], "answer": [], "connect": [], "first_visit_to_board": []}
    players = []
    for _ in range(count):
        start = gm.evaluate("performance.now()")
        if gm.locator("#invite-dialog").is_visible():
            gm.locator("#invite-dialog").get_by_role("button", name="Fermer").click()
        gm.locator("#live-invite").click()
        expect(gm.locator("#invite-link")).to_have_value(re.compile("#table="))
        pairing["offer"].append(gm.evaluate("performance.now()") - start)
        link = gm.locator("#invite-link").input_value()
        player_context = browser.new_context(viewport=PHONE)
        player_context.add_init_script(HOOKS)
        page = player_context.new_page()
        page.goto(link, wait_until="commit")
        expect(page.locator("#live-answer")).not_to_have_value("")
        pairing["answer"].append(page.evaluate("performance.getEntriesByName('riposte:live-answer')[0].startTime"))
        shown = page.evaluate("performance.now()")
        gm.get_by_label("Code du joueur").fill(page.locator("#live-answer").input_value())
        gm.get_by_role("button", name="Valider le code").click()
        expect(page.locator("#live-board li.fighter").first).to_be_visible()
        board_at = page.evaluate("performance.getEntriesByName('riposte:live-board')[0].startTime")
        pairing["connect"].append(board_at - shown)
        pairing["first_visit_to_board"].append(pairing["answer"][-1] + board_at - shown)
        players.append(page)
    gm.get_by_role("button", name="Plateau").click()
    for page in players:
        expect(page.locator("html")).to_have_attribute("data-mates", str(count - 1), timeout=120_000)
    return players, pairing


def command(gm: Any, players: list[Any], n: int, per_tap: list[tuple[int, int]] | None = None) -> list[float]:
    """The game master's ``n``-th tap, « Annuler » then « Rétablir » in turn: from the tap
    to each player's new board (ms). ``per_tap``: the tap's engine calls and drawn answers."""
    seqs = seqs_of(players)
    tapped = gm.evaluate("Date.now()")
    counts = counted(gm) if per_tap is not None else None
    gm.locator("#undo" if n % 2 == 0 else "#redo").click()
    latencies = drawn(players, seqs, tapped)
    if per_tap is not None and counts is not None:
        done = counted(gm)
        per_tap.append((done[0] - counts[0], done[1] - counts[1]))
    return latencies


def commanded(gm: Any, players: list[Any], commands: int, per_tap: list[tuple[int, int]]) -> tuple[list[float], list[float]]:
    """``commands`` taps on « Annuler » and « Rétablir » in turn on the game master's page:
    from the tap to each player's new board (ms), and the characters sent per command to
    each player. ``per_tap``: each tap's engine calls and drawn answers."""
    before = gm.evaluate("riposteLive.sent().map((p) => [p.messages, p.characters])")
    latencies = [ms for n in range(commands) for ms in command(gm, players, n, per_tap)]
    after = gm.evaluate("riposteLive.sent().map((p) => [p.messages, p.characters])")
    return latencies, [(b1 - b0) / (s1 - s0) for (s0, b0), (s1, b1) in zip(before, after, strict=True)]


def table(browser: Any, gm: Any, args: argparse.Namespace) -> dict[str, Any]:
    """The table in the room: the players paired, commands, plays, phones asleep, the game
    master's reload; its figures, printed."""
    players, pairing = seat(browser, gm, args.players)
    per_tap: list[tuple[int, int]] = []
    latencies, per_command = commanded(gm, players, args.commands, per_tap)
    per_play: list[tuple[int, int]] = []
    plays = played(gm, players, args.commands // 4, per_play)
    wakes = [woken(gm, page) for page in players[:3]]
    scans, taps, back = recover(gm, players)
    results = {
        "players": args.players, "commands": args.commands,
        "pairing_ms": {k: statistics.median(v) for k, v in pairing.items()},
        "latency_ms": {"p50": statistics.median(latencies), "p95": pct(latencies, 0.95), "max": max(latencies)},
        "bytes_per_command_per_player": statistics.median(per_command),
        "per_tap": {"calls": statistics.median(c for c, _ in per_tap), "calls_max": max(c for c, _ in per_tap),
                    "renders": statistics.median(r for _, r in per_tap)},
        "per_play": {"calls": statistics.median(c for c, _ in per_play), "calls_max": max(c for c, _ in per_play)},
        "player_tap_to_boards_ms": {"p50": statistics.median(plays), "p95": pct(plays, 0.95)},
        "wake_to_board_ms": {"median": statistics.median(wakes), "max": max(wakes)},
        "recovery": {"scans": scans, "taps": taps, "seconds": back},
    }
    print(f"live table, {args.players} players, 12 fighters, {args.commands} commands (median of the pairings):")
    print(f"  invitation made (offer, ICE gathered)       {results['pairing_ms']['offer']:7.0f} ms")
    print(f"  player's first visit: link to answer shown  {results['pairing_ms']['answer']:7.0f} ms")
    print(f"  answer taken to player's board              {results['pairing_ms']['connect']:7.0f} ms")
    print(f"  player's first visit to live board          {results['pairing_ms']['first_visit_to_board']:7.0f} ms (scans not counted)")
    print(f"  command to player board: p50 {results['latency_ms']['p50']:.0f} ms, p95 {results['latency_ms']['p95']:.0f} ms, "
          f"max {results['latency_ms']['max']:.0f} ms ({len(latencies)} boards)")
    print(f"  bytes per command per player                {results['bytes_per_command_per_player']:7.0f}")
    print(f"  the game master's engine calls per tap with the table open: median {results['per_tap']['calls']}, "
          f"max {results['per_tap']['calls_max']}; answers drawn per tap: median {results['per_tap']['renders']}")
    print(f"  the game master's engine calls per player's play: median {results['per_play']['calls']}, "
          f"max {results['per_play']['calls_max']}")
    print(f"  a player's tap on their phone to every player's board: p50 {results['player_tap_to_boards_ms']['p50']:.0f} ms, "
          f"p95 {results['player_tap_to_boards_ms']['p95']:.0f} ms ({len(plays)} boards)")
    print(f"  a phone asleep 20 s: its wake to its current board: median {statistics.median(wakes):.0f} ms, "
          f"max {max(wakes):.0f} ms ({len(wakes)} phones)")
    print(f"  the game master's page reloaded with {args.players} players following: {scans} scans and {taps} tap(s) "
          f"until all follow again ({back:.1f} s from the reload, scans made at once)")
    return results


def settle(pages: list[Any]) -> None:
    """Until each page's main thread is idle (an idle callback ran): what the last command
    left to do (its journals, its paints, its writes) is done before the next tap."""
    for page in pages:
        page.evaluate("new Promise((done) => requestIdleCallback(() => done(), { timeout: 2000 }))")


def gm_page(browser: Any, url: str, players: int) -> Any:
    """A game master's page of its own context on the seeded fight of ``players`` PJ, its
    engine ready, on « Partie » (where the live table opens)."""
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(HOOKS + seed(fight_save(players)))
    gm = context.new_page()
    gm.goto(url)
    expect(gm.locator("html")).to_have_attribute("data-engine", "ready", timeout=120_000)
    gm.get_by_role("button", name="Partie").click()
    return gm


def against(browser: Any, urls: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    """This site and another built one (``--base``), A/B in one run: ``--rounds`` times, a
    table of each open side by side (a game master's page and its players, paired), their
    commands, then the first player's plays, one on each table in turn (who goes first
    alternating), so that both meet the same load, every page of both idle before each tap
    (the other table's last command does not run into this one); the two latencies of each,
    p50 and p95, and the ratio of this site's to the base's."""
    figures: dict[str, dict[str, list[float]]] = {name: {"commands": [], "plays": [], "bytes": []} for name in urls}
    for _ in range(args.rounds):
        tables = {}
        for name, url in urls.items():
            gm = gm_page(browser, url, args.players)
            tables[name] = (gm, seat(browser, gm, args.players)[0])
        sent = {name: gm.evaluate("riposteLive.sent().map((p) => [p.messages, p.characters])") for name, (gm, _) in tables.items()}
        pages = [page for gm, players in tables.values() for page in (gm, *players)]
        for n in range(args.commands):
            for name in list(urls)[:: 1 if n % 2 == 0 else -1]:
                settle(pages)
                figures[name]["commands"] += command(*tables[name], n)
        for name, (gm, _) in tables.items():
            after = gm.evaluate("riposteLive.sent().map((p) => [p.messages, p.characters])")
            figures[name]["bytes"] += [(b1 - b0) / (s1 - s0) for (s0, b0), (s1, b1) in zip(sent[name], after, strict=True)]
        chips = {name: let_play(*tables[name]) for name in urls}
        for n in range(args.commands // 4):
            for name in list(urls)[:: 1 if n % 2 == 0 else -1]:
                settle(pages)
                figures[name]["plays"] += play(*tables[name], chips[name])
        for gm, players in tables.values():
            for page in [*players, gm]:
                page.context.close()
    print(f"live table A/B, {args.players} players, 12 fighters, {args.rounds} rounds of {args.commands} commands and "
          f"{args.commands // 4} plays on each site, one on each in turn:")
    for name, url in urls.items():
        f = figures[name]
        print(f"  {name:4} ({url}): command to player board p50 {statistics.median(f['commands']):.0f} ms, "
              f"p95 {pct(f['commands'], 0.95):.0f} ms; a player's tap to every board p50 {statistics.median(f['plays']):.0f} ms, "
              f"p95 {pct(f['plays'], 0.95):.0f} ms; {statistics.median(f['bytes']):.0f} characters per command per player")
    site, base = figures["site"], figures["base"]
    for key, label in (("commands", "command to player board"), ("plays", "a player's tap to every board")):
        print(f"  {label}: p50 {statistics.median(site[key]) / statistics.median(base[key]):.2f}×, "
              f"p95 {pct(site[key], 0.95) / pct(base[key], 0.95):.2f}× the base's")
    return {name: {key: {"p50": statistics.median(f[key]), "p95": pct(f[key], 0.95)} for key in ("commands", "plays")}
            for name, f in figures.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--commands", type=int, default=40)
    parser.add_argument("--reply-after", type=float, default=0.0,
                        help="seconds between the player's reply link made and the game master opening it (in the room)")
    parser.add_argument("--only-remote", action="store_true",
                        help="« Inviter à distance » alone: in the room, then across the NAT rig's cases")
    parser.add_argument("--base", type=Path,
                        help="another built test site (a _site-test/ copied aside): the command and the play "
                             "latencies of both, A/B in one run, and nothing else")
    parser.add_argument("--rounds", type=int, default=4, help="with --base: the tables of each site, alternating")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not (SITE / "index.html").exists():
        sys.exit("_site-test/ is not built: run `make site`")
    if args.base and not (args.base / "index.html").exists():
        sys.exit(f"live_bench: --base {args.base} is not a built site (no index.html)")
    expect.set_options(timeout=60_000)
    urls = {}
    for name, folder in (("site", SITE), ("base", args.base)):
        if folder is None:
            continue
        server = serve.serve(folder, 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        urls[name] = f"http://127.0.0.1:{server.server_address[1]}/"
    url = urls["site"]
    chromium = find_chromium.find()
    if chromium is None:
        sys.exit("No Chromium: set $CHROMIUM or install Debian's chromium")
    results: dict[str, Any] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS)
        if args.base:
            results = against(browser, urls, args)
            browser.close()
            if args.json:
                args.json.write_text(json.dumps(results, indent=1) + "\n")
            return
        gm = gm_page(browser, url, args.players)
        if not args.only_remote:
            results.update(table(browser, gm, args))
        at_home = results["remote"] = remote(browser, gm, args.reply_after)
        browser.close()
        print(f"  « Inviter à distance »: invitation link {at_home['invitation_link']} characters, reply link "
              f"{at_home['reply_link']}; the reply link opened (after {args.reply_after:.0f} s) to the player's board "
              f"{at_home['reply_to_board_ms']:.0f} ms (the room, no NAT)")
        nats = results["remote_nat"] = across_nats(p, chromium)
    if "skipped" in nats:
        print(f"  « Inviter à distance » across NATs skipped: {nats['skipped']} (tests/net/rig.py)")
    for case, figures in nats.items():
        if case == "skipped":
            continue
        candidates = ", ".join(f"{local}/{far}" for local, far in figures["routes"])
        print(f"  « Inviter à distance », the {case}: invitation link {figures['invitation_link']} characters, reply link "
              f"{figures['reply_link']}; the reply link opened (at once) to the player's board "
              f"{figures['reply_to_board_ms']:.0f} ms (the NAT rig; the player's candidates, local/far: {candidates})")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
