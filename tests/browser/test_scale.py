"""A long fight in the page: 30 fighters and 10,000 commands (about 320
rounds) open, undo, redo, reload and export/import to the same board."""

from __future__ import annotations

import json
from typing import Any

from conftest import NewPhone, until_stored, wait_ready
from playwright.sync_api import expect
from test_cockpit import LOOK

from tests.long_fight import long_save

#: Undone then redone each time, below the checkpoint at 10,000: before the reload from the
#: encounters the table keeps for its last commands, after it from the checkpoint before,
#: rebuilt (the restored fight has only the one at 10,000) and replayed from. Undo across
#: many checkpoints is the engine's, tested in CPython (tests/test_checkpoints.py).
BACK = 2

BOARD = "() => document.querySelector('#board').innerText"
RAW = "async (request) => JSON.parse(await window.riposte.raw(JSON.stringify(request)))"


def test_a_ten_thousand_command_fight_undoes_redoes_reloads_and_travels(new_phone: NewPhone) -> None:
    text = long_save(10_000)
    rounds = json.loads(text)["board"]["round"]
    phone = new_phone(save=text)
    page = phone.page
    expect(page.locator("#round")).to_contain_text(f"Tour {rounds}")
    shown = page.evaluate(BOARD)
    engine_board = page.evaluate(RAW, {"op": "show"})["board"]
    assert engine_board["round"] == rounds and len(engine_board["combatants"]) == 30

    undo, redo = page.get_by_role("button", name="Annuler"), page.get_by_role("button", name="Rétablir")
    page.clock.install()

    def tap(button: Any) -> None:
        """A tap after a look (LOOK ms of the page's clock: two taps on one button less than
        400 ms apart are one, test_lasting.py), then its answer waited for (a call asked
        after it is answered after it)."""
        page.clock.fast_forward(LOOK)
        button.click()
        page.evaluate(RAW, {"op": "limits"})

    for _ in range(BACK):  # across a checkpoint
        tap(undo)
    expect(redo).to_be_enabled()
    assert page.evaluate(RAW, {"op": "show"})["undo"] == 10_000 - BACK
    for _ in range(BACK):
        tap(redo)
    expect(redo).to_be_disabled()
    assert page.evaluate(RAW, {"op": "show"})["board"] == engine_board
    assert page.evaluate(BOARD) == shown

    kept = json.loads(until_stored(page, lambda k: k is not None and json.loads(k)["at"] == 10_000, "riposte.checkpoint"))
    assert kept["at"] == 10_000  # the autosave keeps the last checkpoint beside the log
    page.reload()  # from that checkpoint: nothing replayed
    wait_ready(page)
    assert page.evaluate(RAW, {"op": "show"})["board"] == engine_board
    assert page.evaluate(BOARD) == shown
    for _ in range(BACK):  # below the restored checkpoint: the ones before it are rebuilt
        tap(undo)
    expect(redo).to_be_enabled()
    assert page.evaluate(RAW, {"op": "show"})["undo"] == 10_000 - BACK
    for _ in range(BACK):
        tap(redo)
    expect(redo).to_be_disabled()
    assert page.evaluate(RAW, {"op": "show"})["board"] == engine_board

    exported = page.evaluate(RAW, {"op": "export", "board": True})["text"]
    assert len(json.loads(exported)["commands"]) == 10_000
    emptied = page.evaluate(RAW, {"op": "load", "text": None})
    assert emptied["board"]["combatants"] == {}
    imported = page.evaluate(RAW, {"op": "load", "text": exported})
    assert imported["ok"], imported.get("error")
    assert imported["board"] == engine_board and imported["undo"] == 10_000
    phone.assert_clean()

