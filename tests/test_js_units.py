"""The unit tests of the page's pure JavaScript modules, run by Node (node --test) and
here, so that pytest runs them: the live table's compact codes (web/live/signal.js,
tests/live/), the die, the base64url codec, the cost's words, the storage that lasts and
the board's cards put in order, the targets a card offers (web/infra/die.js,
web/infra/base64url.js, web/views/labels.js, web/infra/lasting.js, web/infra/dom.js,
web/views/board-view.js: tests/web/), and the one shape
of every refusal, said by each screen (web/infra/refusals.js: tests/web/refusals.test.mjs)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed")
@pytest.mark.parametrize("folder", ["tests/live/", "tests/web/"])
def test_the_javascript_unit_tests_pass(folder: str) -> None:
    run = subprocess.run(["node", "--test", folder], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "# fail 0" in run.stdout
