"""The fighters the tests share (``scenarios/_casts.json``: Aldric, Orque, Lyra…), read
once, here: the scenarios, the CPython tests and the end-to-end tests take them from this
module."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

CASTS: dict[str, dict[str, Any]] = json.loads((Path(__file__).parent / "scenarios" / "_casts.json").read_text(encoding="utf-8"))
