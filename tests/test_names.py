"""Names that show nothing (engine/values.py ``name``): a fighter's, a weapon's or a
fight's name made only of spaces, controls such as NUL or invisible characters such as the
zero-width space and joiners is refused with a reason, from every way in (a command, the
form's check, a fight's name, the list's names from a file); half a character (a lone
surrogate) is refused too. A save or a link an earlier release wrote with such a name
opens, the name made « Sans nom » (half a character U+FFFD), never refused whole."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from engine import link, save, values
from engine.errors import sentence
from engine.table import Table

#: Characters that show nothing: controls (NUL…), format characters (zero-width space,
#: joiners, marks of direction…), spaces, and the default ignorable letters.
INVISIBLE = st.characters(categories=["Cc", "Cf", "Zs", "Zl", "Zp"]) | st.sampled_from(sorted(chr(c) for c in values.IGNORABLE))
#: A character that shows: a letter, a digit, a sign.
SHOWS = st.characters(categories=["L", "N", "P", "S"]).filter(lambda c: ord(c) not in values.IGNORABLE)
#: A name that shows something: invisible characters and others around a visible one.
VISIBLE = st.builds(lambda a, c, b: a + c + b, st.text(INVISIBLE | SHOWS, max_size=20), SHOWS, st.text(INVISIBLE | SHOWS, max_size=20))


def add(table: Table, name: str, weapon: str = "Hache") -> dict[str, Any]:
    sheet = {"name": name, "skills": {"hache": 2}, "weapons": [{"id": "h", "name": weapon, "kind": "melee", "skill": "hache"}]}
    answer: dict[str, Any] = json.loads(table.call(json.dumps({"op": "apply", "command": {"type": "add_combatant", "combatant": sheet}})))
    return answer


@given(st.text(INVISIBLE, min_size=1, max_size=40))
def test_a_name_of_only_invisible_characters_is_refused_everywhere(name: str) -> None:
    table = Table()
    answer = add(table, name)
    assert not answer["ok"]
    assert (answer["error"]["code"], answer["error"]["params"]["field"]) == ("bad_value", "name")
    assert answer["error"]["key"] in ("invisible", "required")  # spaces alone: « à remplir »
    weapon = add(table, "Orque", weapon=name)
    assert not weapon["ok"] and weapon["error"]["params"]["field"] == "weapons[0].name"
    checked = table.check({"type": "add_combatant", "combatant": {"name": name}})
    assert [(f["field"], f["key"]) for f in checked["fields"]] == [("name", answer["error"]["key"])]
    assert not table.name(name)["ok"]
    assert table.names([name])["names"] == [None]
    assert table.show()["board"]["combatants"] == {}


@given(VISIBLE)
def test_a_name_with_a_visible_character_is_taken(name: str) -> None:
    table = Table()
    if len(name.strip()) > values.MAX_NAME:
        assert not add(table, name)["ok"]
        return
    answer = add(table, name, weapon=name)
    assert answer["ok"], answer
    assert [f["name"] for f in answer["board"]["combatants"].values()] == [name.strip()]
    assert table.name(name) == {"ok": True, "name": name.strip()}
    assert table.names([name])["names"] == [name.strip()]


@given(st.text(SHOWS, max_size=5), st.characters(categories=["Cs"]), st.text(SHOWS, max_size=5))
def test_half_a_character_never_enters_a_name(before: str, half: str, after: str) -> None:
    name = before + half + after
    table = Table()
    answer = add(table, name)
    assert not answer["ok"] and answer["error"]["key"] == "half_character"
    assert not table.name(name)["ok"]
    kept = table.names([name])["names"][0]
    assert kept is None or not values.half(kept)


def test_the_reasons_are_said_in_french_and_in_english() -> None:
    assert sentence("fr", "invisible", {"field": "name"}) == ("« name » : un nom qui se voit (au moins une lettre, un chiffre ou"
                                                              " un signe), pas seulement des espaces ou des caractères invisibles.")
    assert sentence("en", "invisible", {"field": "name"}) == ("« name »: a name that shows (at least one letter, digit or sign),"
                                                              " not only spaces or invisible characters.")


#: A log an earlier release took: fighters named with nothing that shows, half a character.
OLD_LOG = [{"type": "add_combatant", "combatant": {"name": "\u200b\u200d", "side": "pnj"}},
           {"type": "add_combatant", "combatant": {"name": "Br\ud800", "side": "pj", "skills": {"hache": 1},
                                                   "weapons": [{"id": "h", "name": "\x00", "kind": "melee", "skill": "hache"}]}},
           {"type": "update_combatant", "id": "c1", "changes": {"name": "\u2060"}}]


def test_an_old_save_and_an_old_link_with_such_names_open_with_a_name_that_shows() -> None:
    for text in (json.dumps({"app": "riposte", "format": 2, "commands": OLD_LOG, "board": None}),
                 json.dumps({"format": 1, "commands": OLD_LOG}), link.pack(OLD_LOG)):
        table = Table()
        loaded = json.loads(table.call(json.dumps({"op": "load", "text": text})))
        assert loaded["ok"], loaded["error"]
        fighters = loaded["board"]["combatants"]
        assert sorted(f["name"] for f in fighters.values()) == ["Br\ufffd", "Sans nom"]
        assert [w["name"] for f in fighters.values() for w in f.get("weapons", [])] == ["Sans nom"]
        # The fight is saved again as the rules take it today: it reads back the same.
        again = json.loads(Table().call(json.dumps({"op": "load", "text": table.export(True)["text"]})))
        assert again["board"]["combatants"] == fighters
    assert save.read(json.dumps({"format": 1, "commands": OLD_LOG}))["ok"]
