"""The engine's side of the page, in a PyScript worker: glue only.

JS calls ``sync.call(request_json)`` once per tap and gets JSON text back; the table
session (engine/table.py) does the rest and is tested in CPython. Python here never
touches the DOM.

While a call works long (a replay), the worker says it is alive and how far it is: at most
every PULSE seconds, ``{"done", "total"}`` as JSON text on the BroadcastChannel the page
named (``sync.listen``, web/boot/engine.js), which a busy worker can post to and a dead
one cannot.
"""

import time

import js
from pyscript import sync

from engine.table import Table

table = Table()  # its dice: `random`, reseeded by web/boot/boot.mjs (a snapshot freezes its state)
PULSE = 0.2  # seconds
signs = {"channel": None, "last": 0.0}


def listen(name):
    """The page's channel for this worker's signs of life."""
    signs["channel"] = js.BroadcastChannel.new(str(name)) if hasattr(js, "BroadcastChannel") else None


def pulse(done, total):
    now = time.monotonic()
    if signs["channel"] is not None and now - signs["last"] >= PULSE:
        signs["last"] = now
        signs["channel"].postMessage(f'{{"done":{int(done)},"total":{int(total)}}}')


table.pulse = pulse


def call(request_json):
    """The table's answer, with how Python started in this worker ("cold", "restored"
    from a snapshot, or "fallback: why"), as web/boot/boot.mjs noted it."""
    return table.call(request_json, boot=str(getattr(js, "riposteBoot", "cold")))


sync.listen = listen
sync.call = call
