// Python starts first: index.html loads this module before app.js, and its
// graph is small (the engine's start, which page this is), so the worker, Pyodide and the
// engine start while the page's other modules are still being fetched and run. This is
// the one place that decides whether the page starts Python: a live table's page
// (`#table=`, `#reponse=`: web/live/follow.js) starts none, nor a page framed by another
// site (frame.js never lets this module run).
import "./frame.js";
import { launch } from "./engine.js";
import { followsLiveTable } from "../live/follow.js";
import { TEST_BUILD } from "../infra/hooks.js";

// The engine's start (a promise), or null on a page that starts no Python.
export const launched = followsLiveTable(window.location) ? null : launch();
if (TEST_BUILD && !launched) performance.mark("riposte:no-python");
