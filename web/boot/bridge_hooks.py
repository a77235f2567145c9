"""The test build's part of the worker's bridge: tools/build_site.py appends it to
web/boot/bridge.py in the test build (``--test-hooks``, _site-test/) and ships it nowhere
else, so the shipped worker has no hook.

``sync.hooks()``, asked by the page when its test hooks are on (web/infra/hooks.js,
web/boot/engine.js), puts this worker's Python on its global as ``ripostePython``, for the
tests (Playwright reaches a worker's globals).
"""

import js
from pyscript import sync


def hooks():
    """``ripostePython``: Pyodide's module, for the tests."""
    import pyodide_js

    js.ripostePython = pyodide_js


sync.hooks = hooks
