"""The live table's compact codes (web/live/signal.js, issue #15): their unit tests are
JavaScript (tests/live/signal.test.mjs, node --test), run here so that pytest runs them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
def test_offer_and_answer_codes_round_trip() -> None:
    run = subprocess.run(["node", "--test", "tests/live/"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout
