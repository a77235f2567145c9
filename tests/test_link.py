"""Short share links (engine/link.py, issue #13): every log comes back exactly, older links
still open, and a 6-fighter, 2-round fight fits a small QR code."""

from __future__ import annotations

import base64
import json
import random
import zlib
from pathlib import Path
from typing import Any

import pytest

import engine
from engine import link, save
from engine.model import CHARACTERISTICS
from engine.table import Table
from tests.long_fight import long_fight
from tests.test_save import CASTS
from tests.test_save import fight as small_fight

SAVES = Path(__file__).parent / "saves"
SCENARIOS = Path(__file__).parent / "scenarios"


def form_sheet(name: str, side: str, characteristics: dict[str, int], skills: dict[str, int],
               weapons: list[tuple[str, str, int, bool]], hope: int = 0) -> dict[str, Any]:
    """A sheet as the page's fighter form writes it (web/cast.js ``readFighter``): every
    characteristic and usual skill, then each weapon's own skill, its id the name's slug."""
    sheet: dict[str, Any] = {
        "name": name, "side": side, "characteristics": {c: characteristics.get(c, 0) for c in CHARACTERISTICS},
        "skills": {s: skills.get(s, 0) for s in link.SKILLS}, "initiative_bonus": 0, "wounds": 0, "hope": hope,
        "weapons": [], "in_hand": []}
    for weapon, kind, level, held in weapons:
        wid = link.slug(weapon)
        sheet["weapons"].append({"id": wid, "name": weapon, "kind": kind, "skill": wid, "stowed": True})
        sheet["skills"][wid] = level
        if held:
            sheet["in_hand"].append(wid)
    return sheet


SIX = [
    form_sheet("Aldric", "pj", {"melee": 7, "tir": 4, "derobee": 6}, {"esquive": 3, "corps_a_corps": 2},
               [("Épée", "melee", 3, True), ("Bouclier", "shield", 1, False)], hope=2),
    form_sheet("Lyra", "pj", {"tir": 8, "melee": 4, "derobee": 7}, {"esquive": 2, "acrobatie": 3},
               [("Arc long", "bow", 3, True)], hope=1),
    form_sheet("Brune", "pj", {"melee": 6, "lancer": 6, "derobee": 5}, {"esquive": 1},
               [("Hache", "melee", 2, True), ("Dague", "thrown", 2, False)], hope=2),
    form_sheet("Orque 1", "pnj", {"melee": 6, "derobee": 3}, {"corps_a_corps": 1}, [("Hache", "melee", 2, True)]),
    form_sheet("Orque 2", "pnj", {"melee": 6, "derobee": 3}, {"corps_a_corps": 1}, [("Hache", "melee", 2, True)]),
    form_sheet("Gobelin", "pnj", {"melee": 4, "derobee": 6}, {"esquive": 2}, [("Lance", "melee", 1, True)]),
]


def six_fighters_two_rounds(seed: int = 7) -> list[dict[str, Any]]:
    """The fight the link's size is measured on (docs/TABLE.md): six fighters made with
    the page's form, two rounds declared as the page declares them (the weapon in hand)
    with the dice the app rolls, each fighter attacking the first foe who can be hit,
    who parries when it can, until the round is over."""
    table = Table(random.Random(seed))
    for sheet in SIX:
        assert table.apply({"type": "add_combatant", "combatant": sheet})["ok"]
    for _ in range(2):
        board = table.show()["board"]
        declared = {c: (board["combatants"][c]["in_hand"] or [None])[0] for c in board["order"]}
        board = table.apply({"type": "start_round", "declarations": declared})["board"]
        while board["active"]:
            actor = board["active"][0]
            me = board["combatants"][actor]
            foes = [x for x in board["order"] if board["combatants"][x]["side"] != me["side"]]
            answer = table.apply({"type": "act", "actor": actor, "action": "attaque_melee", "target": foes[0]})
            if answer["ok"]:
                parry = table.apply({"type": "interrupt", "actor": foes[0], "action": "parer", "against": actor})
                answer = parry if parry["ok"] else answer
            else:
                answer = table.apply({"type": "pass", "actor": actor})
            assert answer["ok"], answer
            board = answer["board"]
        assert table.apply({"type": "end_round"})["ok"] or board["round_over"]
    return list(save.parse(table.export(False)["text"])["commands"])  # the resolved log


def deflated(text: str) -> bytes:
    """Raw deflate at zlib's default level: what the browsers' CompressionStream writes."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return packer.compress(text.encode("utf-8")) + packer.flush()


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


#: Data codewords of QR versions 1 to 15 at levels L and M (ISO/IEC 18004, table 7).
CODEWORDS = {"L": [19, 34, 55, 80, 108, 136, 156, 194, 232, 274, 324, 370, 428, 461, 523],
             "M": [16, 28, 44, 64, 86, 108, 124, 154, 182, 216, 254, 290, 334, 365, 415]}


def digits(data: bytes) -> str:
    """Bytes as decimal digits, as web/share.js ``toDigits`` writes them for a QR code."""
    sizes = [0, 3, 5, 8, 10, 13, 15, 17]
    return "".join(str(int.from_bytes(data[i:i + 7], "big")).zfill(sizes[len(data[i:i + 7])]) for i in range(0, len(data), 7))


def qr_version(segments: list[tuple[str, str]], level: str) -> int:
    """The smallest QR version that holds the segments (text, "Byte" or "Numeric") at
    ``level`` (web/share.js ``qrSegments``: qrcode-generator, type number 0 = the smallest)."""
    for version, codewords in enumerate(CODEWORDS[level], start=1):
        bits = 0
        for text, mode in segments:
            if mode == "Byte":
                bits += 4 + (8 if version < 10 else 16) + 8 * len(text.encode("utf-8"))
            else:
                bits += 4 + (10 if version < 10 else 12) + 10 * (len(text) // 3) + [0, 4, 7][len(text) % 3]
        if bits <= 8 * codewords:
            return version
    return 99


def same_fight(commands: list[Any], log: list[Any]) -> None:
    assert [link._canonical(c) for c in commands] == [link._canonical(c) for c in log]
    again, before = engine.replay(commands), engine.replay(log)
    assert again["ok"], again
    assert again["state"] == before["state"]


def scenario_logs() -> list[tuple[str, list[Any]]]:
    logs = []
    for path in sorted(SCENARIOS.glob("[!_]*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        state, log = engine.new_encounter(), []
        for command in [{"type": "add_combatant", "combatant": CASTS[n]} for n in data.get("cast", [])] + [
                s["command"] for s in data["steps"] if "refused" not in s]:
            r = engine.apply(state, command, rng=random.Random(1))
            if r["ok"]:
                state, log = r["state"], [*log, r["command"]]
        logs.append((path.stem, log))
    return logs


@pytest.mark.parametrize(("name", "log"), scenario_logs())
def test_every_scenario_comes_back_from_its_link(name: str, log: list[Any]) -> None:
    parsed = save.parse(link.pack(log))
    assert parsed["ok"] and parsed["format"] == "link", parsed
    same_fight(parsed["commands"], log)


def test_the_page_s_fights_come_back_short() -> None:
    log = six_fighters_two_rounds()
    text = link.pack(log)
    same_fight(link.unpack(text), log)
    assert json.loads(text)[1:] == [text.split('"')[3]], "every command of the page is shortened"
    # a long fight too (orques whose sheets are not the form's: kept as objects)
    long = long_fight(400, fighters=12)
    same_fight(link.unpack(link.pack(long)), long)


def test_a_six_fighter_two_round_fight_fits_a_small_qr_code() -> None:
    """The figures of docs/TABLE.md ("Share links"), on a Pages address of 38 characters:
    the link (``#z=``, the deflated log in base64url) and its QR code (``#n=``, the same
    bytes as digits, in numeric mode), against the link of before (``#c=``, the save)."""
    log = six_fighters_two_rounds()
    assert len(log) == 30
    site = "https://example.github.io/riposte-app/"
    packed = deflated(link.pack(log))
    old = f"{site}#c=" + b64(deflated(save.dump(log)))
    new = f"{site}#z=" + b64(packed)
    assert len(new) <= 345 < 1100 <= len(old), (len(new), len(old))
    qr = [(f"{site}#n=", "Byte"), (digits(packed), "Numeric")]
    assert qr_version(qr, "L") <= 10 and qr_version(qr, "M") <= 12, (qr_version(qr, "L"), qr_version(qr, "M"))
    assert qr_version([(new, "Byte")], "L") <= 12
    assert qr_version([(old, "Byte")], "L") > 15


def test_an_old_link_still_opens() -> None:
    """tests/saves/link-c.txt: a ``#c=`` link as the page wrote them before ``#z=``
    (the save text, deflated, base64url), of the seeded fight."""
    fragment = (SAVES / "link-c.txt").read_text(encoding="utf-8").strip()
    assert fragment.startswith("#c=")
    data = fragment[3:]
    text = zlib.decompress(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)), -15).decode("utf-8")
    result = save.read(text)
    assert result["ok"], result
    assert result["summary"]["fighters"] == ["Aldric", "Orque"]
    assert Table().load(text)["ok"]


def test_a_table_link_reads_back_as_the_same_fight() -> None:
    table = Table(random.Random(2))
    assert table.load(save.dump(small_fight()))["ok"]
    text = table.link()["text"]
    other = Table()
    answer = other.load(text)
    assert answer["ok"], answer
    assert answer["board"] == table.show()["board"]
    assert other.inspect(text)["summary"] == {"round": 1, "fighters": ["Aldric", "Orque"], "pj": 1}


@pytest.mark.parametrize("text", [
    '["r1",[]]', '["r1",[1]]', '["r1",[1,"A","x"]]', '["r1",[1,"A","9999999999999999999999"]]', '["r1",[1,"A","1","q"]]',
    '["r1",[1,"A","1",["x"]]]', '["r1",[1,"A","1",{"a":1},{"b":2}]]', '["r1",""]', '["r1","Q"]', '["r1","A1"]',
    '["r1","A1z"]', '["r1","A1aZ1"]', '["r1","A1aa"]', '["r1","s9x"]', '["r1","s1|"]', '["r1","s11|a"]',
    '["r1","P"]', '["r1","P²"]', '["r1",3]', '["r1",null]', '["r1",[1,"A",[1,2,3,4,5,6,7,8,9,0,1,2,3,4,5,6,7,8,9]]]',
])
def test_a_damaged_link_is_refused_not_crashed(text: str) -> None:
    parsed = save.parse(text)
    if parsed["ok"]:
        assert save.read(text)["ok"] in (True, False)  # the rules judge what decodes
    else:
        assert parsed["error"]["code"] == "not_an_encounter"
    answer = json.loads(Table().call(json.dumps({"op": "load", "text": text})))
    assert answer["ok"] or answer["error"]["code"] != "internal", answer


def test_random_damage_to_a_link_never_crashes() -> None:
    text = link.pack(six_fighters_two_rounds())
    rng = random.Random(13)
    for _ in range(300):
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            chars[rng.randrange(len(chars))] = rng.choice('0123456789aAsPE|,-[]{}":x')
        damaged = "".join(chars)
        answer = json.loads(Table().call(json.dumps({"op": "inspect", "text": damaged})))
        assert answer["ok"] or answer["error"]["code"] != "internal", (damaged, answer)


def test_a_link_too_long_to_replay_is_refused_before_it_is_decoded() -> None:
    text = json.dumps(["r1", "~".join(["E"] * (save.MAX_COMMANDS + 1))])
    assert save.parse(text)["error"]["code"] == "too_long"
    assert save.parse(json.dumps(["r1", "~".join(["E"] * save.MAX_COMMANDS)]))["ok"]
