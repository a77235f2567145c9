"""Short share links (engine/link.py): every log comes back exactly, older links
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
from engine.errors import Refusal
from engine.model import CHARACTERISTICS
from engine.table import Table
from tests.casts import CASTS
from tests.long_fight import long_fight
from tests.test_save import fight as small_fight

SAVES = Path(__file__).parent / "saves"
SCENARIOS = Path(__file__).parent / "scenarios"


def form_sheet(name: str, side: str, characteristics: dict[str, int], skills: dict[str, int],
               weapons: list[tuple[str, str, int, bool]], hope: int = 0) -> dict[str, Any]:
    """A sheet as the page's fighter form writes it (web/views/cast-view.js ``readFighter``): every
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
    """Bytes as decimal digits, as web/infra/share-links.js ``toDigits`` writes them for a QR code."""
    sizes = [0, 3, 5, 8, 10, 13, 15, 17]
    return "".join(str(int.from_bytes(data[i:i + 7], "big")).zfill(sizes[len(data[i:i + 7])]) for i in range(0, len(data), 7))


def qr_version(segments: list[tuple[str, str]], level: str) -> int:
    """The smallest QR version that holds the segments (text, "Byte" or "Numeric") at
    ``level`` (web/infra/share-links.js ``qrSegments``: qrcode-generator, type number 0 = the smallest)."""
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


# --- each command's token, as the module's docstring describes it ----------------------------
#: The weapons of three fighters as the log has them so far (a round declares by place).
ARMS = {"c1": ["epee", "bouclier"], "c2": ["arc_long"], "c3": ["hache", "dague"]}


def sheet_as(index: int, cid: str, **changes: Any) -> dict[str, Any]:
    return {**SIX[index], "id": cid, **changes}


def as_packed(command: dict[str, Any], arms: dict[str, list[str]] | None = None) -> Any:
    """The command's compact form, and that it gives the command back (pack_command checks
    it; this says so for the test's own reading)."""
    before = {k: list(v) for k, v in (arms or {}).items()}
    packed = link.pack_command(command, {k: list(v) for k, v in before.items()})
    if isinstance(packed, str):
        assert link._canonical(link._unpack_one(packed, dict(before))) == link._canonical(command)
    return packed


@pytest.mark.parametrize(("command", "arms", "token"), [
    # a fighter joins: its number when not the next one, side, hope, characteristics, skills (trailing zeros out)
    ({"type": "add_combatant", "combatant": sheet_as(0, "c1")}, {}, "+|Aldric|1274060002003|m31Épée|s10Bouclier"),
    ({"type": "add_combatant", "combatant": sheet_as(0, "c7")}, {}, "+7|Aldric|1274060002003|m31Épée|s10Bouclier"),
    ({"type": "add_combatant", "combatant": sheet_as(3, "c4")}, ARMS, "+|Orque 1|0060030001|m21Hache"),
    # a number that is not one digit: every number between commas
    ({"type": "add_combatant", "combatant": sheet_as(3, "c4", wounds=12)}, ARMS, "+|Orque 1|0,0,6,0,0,3,0,0,0,1,0,0,0,0,0,0,12|m21Hache"),
    ({"type": "add_combatant", "combatant": sheet_as(0, "c1", hope=-1)}, {}, "+|Aldric|1,-1,7,4,0,6,0,0,0,2,0,0,3|m31Épée|s10Bouclier"),
    # the flag: +1 in hand, +2 not stowed
    ({"type": "add_combatant", "combatant": sheet_as(3, "c4", weapons=[{**SIX[3]["weapons"][0], "stowed": False}])}, ARMS,
     "+|Orque 1|0060030001|m23Hache"),
    ({"type": "add_combatant", "combatant": sheet_as(3, "c4", in_hand=[])}, ARMS, "+|Orque 1|0060030001|m20Hache"),
    ({"type": "add_combatant", "combatant": sheet_as(3, "c4", weapons=[{**SIX[3]["weapons"][0], "stowed": False}], in_hand=[])},
     ARMS, "+|Orque 1|0060030001|m22Hache"),  # not stowed, and not in hand either
    # one digit each from 0 to 9, the weapon's skill level too; 10 and the numbers go between commas
    ({"type": "add_combatant", "combatant": sheet_as(3, "c4", wounds=9)}, ARMS, "+|Orque 1|00600300010000009|m21Hache"),
    ({"type": "add_combatant", "combatant": sheet_as(3, "c4", wounds=10)}, ARMS, "+|Orque 1|0,0,6,0,0,3,0,0,0,1,0,0,0,0,0,0,10|m21Hache"),
    ({"type": "add_combatant", "combatant": sheet_as(3, "c4", skills={**SIX[3]["skills"], "hache": 9})}, ARMS,
     "+|Orque 1|0060030001|m91Hache"),
    ({"type": "add_combatant", "combatant": sheet_as(3, "c4", skills={**SIX[3]["skills"], "hache": 0})}, ARMS,
     "+|Orque 1|0060030001|m01Hache"),
    # every place written (the last, the initiative bonus, is not 0)
    ({"type": "add_combatant", "combatant": sheet_as(3, "c4", initiative_bonus=2)}, ARMS, "+|Orque 1|006003000100000002|m21Hache"),
    # +4: the weapon's skill is its name (as the fighter form leaves it), not its slug
    ({"type": "add_combatant", "combatant": sheet_as(3, "c4", weapons=[{**SIX[3]["weapons"][0], "skill": "Hache"}],
                                                     skills={**{k: x for k, x in SIX[3]["skills"].items() if k != "hache"}, "Hache": 2})},
     ARMS, "+|Orque 1|0060030001|m25Hache"),
    # a round: the engine's dice as digits, typed ones as letters, "-" for none
    ({"type": "start_round", "rolls": {"c1": 4, "c2": 0, "c3": 9}, "engine_rolled": ["c1", "c2", "c3"]}, ARMS, "s409"),
    ({"type": "start_round", "rolls": {"c1": 4, "c2": 0, "c3": 9}}, ARMS, "seaj"),
    ({"type": "start_round", "rolls": {"c1": 4, "c3": 9}, "engine_rolled": ["c3"]}, ARMS, "se-9"),
    ({"type": "start_round", "rolls": {}}, ARMS, "s"),
    # the order of a round's dice, declarations and engine-rolled ids means nothing
    ({"type": "start_round", "rolls": {"c3": 9, "c1": 4, "c2": 0}, "engine_rolled": ["c3", "c1", "c2"]}, ARMS, "s409"),
    ({"type": "start_round", "rolls": {"c3": 2, "c1": 4}, "engine_rolled": ["c3", "c1"],
      "declarations": {"c3": "dague", "c1": "epee"}}, ARMS, "s4-2|01"),
    # declarations: a weapon by its place, "_" bare hands, "-" none declared; "!" and ids otherwise
    ({"type": "start_round", "rolls": {"c1": 4, "c2": 0, "c3": 9}, "engine_rolled": ["c1", "c2", "c3"],
      "declarations": {"c1": "bouclier", "c2": None}}, ARMS, "s409|1_-"),
    ({"type": "start_round", "rolls": {"c1": 4, "c3": 2}, "engine_rolled": ["c1", "c3"],
      "declarations": {"c1": "epee", "c3": "dague"}}, ARMS, "s4-2|01"),
    ({"type": "start_round", "rolls": {"c1": 4}, "engine_rolled": ["c1"], "declarations": {"c1": "baton"}}, ARMS, "s4!baton"),
    ({"type": "start_round", "rolls": {"c1": 4, "c2": 1}, "declarations": {"c1": "baton", "c2": None}}, ARMS, "seb!baton,"),
    # acts and interruptions: the action's letter, the target (or attacker) bare, other options by letter
    ({"type": "act", "actor": "c1", "action": "observer"}, ARMS, "A1h"),
    ({"type": "act", "actor": "c1", "action": "attaque_melee", "target": "c4", "weapon": "epee"}, ARMS, 'A1q4,c"epee"'),
    ({"type": "act", "actor": "c12", "action": "courir", "distance": 7.5, "test_result": 2}, ARMS, "A12ld7.5,e2"),
    ({"type": "interrupt", "actor": "c2", "action": "parer", "against": "c1", "weapon": "arc_long"}, ARMS, 'I2w1,c"arc_long"'),
    ({"type": "interrupt", "actor": "c2", "action": "esquiver"}, ARMS, "I2v"),
    ({"type": "act", "actor": "c3", "action": "esquive_acrobatique", "target": "c1", "against": "c2"}, ARMS, "A3y1,b2"),
    ({"type": "pass", "actor": "c3"}, ARMS, "P3"),
    ({"type": "remove_combatant", "id": "c30"}, ARMS, "R30"),
    ({"type": "end_round"}, ARMS, "E"),
])
def test_each_command_packs_to_its_token(command: dict[str, Any], arms: dict[str, list[str]], token: str) -> None:
    assert as_packed(command, arms) == token


@pytest.mark.parametrize(("command", "arms"), [
    # sheets the page's form does not write
    ({"type": "add_combatant", "combatant": sheet_as(0, "c1", name="A|B")}, {}),
    ({"type": "add_combatant", "combatant": sheet_as(0, "c1", name="A~B")}, {}),
    ({"type": "add_combatant", "combatant": sheet_as(0, "hero")}, {}),
    ({"type": "add_combatant", "combatant": sheet_as(0, "c1", hope=1.5)}, {}),
    ({"type": "add_combatant", "combatant": sheet_as(0, "c1", skills={"esquive": 3, **SIX[0]["skills"]})}, {}),
    ({"type": "add_combatant", "combatant": sheet_as(0, "c1", weapons=[{**SIX[0]["weapons"][0], "id": "lame"},
                                                                        SIX[0]["weapons"][1]])}, {}),
    ({"type": "add_combatant", "combatant": sheet_as(0, "c1"), "extra": 1}, {}),
    ({"type": "add_combatant", "combatant": sheet_as(0, "c1", extra=1)}, {}),
    ({"type": "add_combatant", "combatant": sheet_as(3, "c4", skills={**SIX[3]["skills"], "hache": 10})}, ARMS),  # a level of two digits
    # rounds it cannot say
    ({"type": "start_round", "rolls": {"c1": 12}}, ARMS),
    ({"type": "start_round", "rolls": {"c1": -1}}, ARMS),
    ({"type": "start_round", "rolls": {"c1": 2.0}}, ARMS),
    ({"type": "start_round", "rolls": {"x": 2}}, ARMS),
    ({"type": "start_round", "rolls": {"c1": 2}, "declarations": {"c2": None}}, ARMS),
    ({"type": "start_round", "rolls": {"c1": 2}, "engine_rolled": []}, ARMS),
    ({"type": "start_round", "rolls": {"c1": 2}, "engine_rolled": ["c2"]}, ARMS),
    # acts and the rest
    ({"type": "act", "actor": "c1", "action": "danser"}, ARMS),
    ({"type": "act", "actor": "Aldric", "action": "observer"}, ARMS),
    ({"type": "act", "actor": "c1", "action": "attaque_melee", "target": "Orque"}, ARMS),
    ({"type": "pass", "actor": "c1", "extra": True}, ARMS),
    ({"type": "act", "actor": "c1", "action": "observer", "extra": 1}, ARMS),  # an option no letter says
    ({"type": "end_round", "extra": True}, ARMS),
    ({"type": "update_combatant", "id": "c1", "changes": {"wounds": 1}}, ARMS),
])
def test_a_command_with_no_token_is_kept_as_it_is(command: dict[str, Any], arms: dict[str, list[str]]) -> None:
    assert as_packed(command, arms) is command


def test_a_log_packs_tokens_together_and_objects_between_them() -> None:
    odd = {"type": "update_combatant", "id": "c1", "changes": {"wounds": 1}}
    log = [{"type": "add_combatant", "combatant": sheet_as(0, "c1")},
           {"type": "start_round", "rolls": {"c1": 3}, "engine_rolled": ["c1"], "declarations": {"c1": "bouclier"}},
           {"type": "pass", "actor": "c1"}, odd, {"type": "end_round"}, {"type": "pass", "actor": "c1"}]
    text = link.pack(log)
    assert json.loads(text) == ["r1", "+|Aldric|1274060002003|m31Épée|s10Bouclier~s3|1~P1", odd, "E~P1"]
    assert link.unpack(text) == log
    assert link.count(json.loads(text)) == len(log)


def test_weapons_changed_on_a_sheet_are_the_places_a_round_declares_by() -> None:
    """``update_combatant`` with new weapons: a round after it names them by their new place."""
    arms: dict[str, list[str]] = {}
    link.pack_command({"type": "add_combatant", "combatant": sheet_as(0, "c1")}, arms)
    assert arms == {"c1": ["epee", "bouclier"]}
    new = [{"id": "lance", "name": "Lance", "kind": "melee", "skill": "lance", "stowed": True}, *SIX[0]["weapons"]]
    link.pack_command({"type": "update_combatant", "id": "c1", "changes": {"weapons": new}}, arms)
    assert arms == {"c1": ["lance", "epee", "bouclier"]}
    assert link.pack_command({"type": "start_round", "rolls": {"c1": 1}, "declarations": {"c1": "epee"}}, arms) == "sb|1"
    link.pack_command({"type": "update_combatant", "id": "c1", "changes": {"wounds": 2}}, arms)  # no weapons: kept
    link.pack_command({"type": "update_combatant", "changes": None}, arms)  # not a command the rules take: ignored
    assert arms == {"c1": ["lance", "epee", "bouclier"]}


@pytest.mark.parametrize("text", [
    '["r1","sk"]',  # a die past j (9)
    '["r1","sa|00"]',  # more weapons than fighters
    '["r1","sa|"]',  # fewer weapons than fighters
    '["r1","A1z"]',  # no action at that letter
    '["r1","A1h,z1"]',  # no option at that letter
    '["r1","+|X|1234567890123456789"]',  # more numbers than places
    '["r1","+|X|1|q11Lame"]',  # no weapon kind q
    '["r2","P1"]',  # another version
    '["P1"]',
])
def test_a_token_that_means_nothing_is_refused(text: str) -> None:
    with pytest.raises(Refusal) as refused:
        link.unpack(text)
    assert refused.value.code == "not_an_encounter"
