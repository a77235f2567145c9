"""The engine's side of the page, in a PyScript worker: glue only.

JS calls ``sync.call(request_json)`` once per tap and gets JSON text back; the table
session (engine/table.py) does the rest and is tested in CPython. Python here never
touches the DOM.
"""

import js
from pyscript import sync

from engine.table import Table

table = Table()  # its dice: `random`, reseeded by web/boot/boot.mjs (a snapshot freezes its state)


def call(request_json):
    """The table's answer, with how Python started in this worker ("cold", "restored"
    from a snapshot, or "fallback: why"), as web/boot/boot.mjs noted it."""
    return table.call(request_json, boot=str(getattr(js, "riposteBoot", "cold")))


sync.call = call
