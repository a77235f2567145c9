"""``make audit``: Lighthouse (npm, pinned 12.2.3) against the built site served locally,
for a phone, in headless Chromium; prints the scores and every audit that lost points.

Targets (issue "Judged from outside"): accessibility and best practices at least 95.
Usage: ``python tools/audit.py [--site _site]``; CHROME_PATH defaults to what
tools/find_chromium.py finds.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import find_chromium
import serve

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"accessibility": 95, "best-practices": 95}
FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run"


def audit(site: Path) -> int:
    server = serve.serve(site, 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    chrome = os.environ.get("CHROME_PATH") or find_chromium.find()
    if not chrome:
        sys.exit("audit: no Chromium (set CHROME_PATH)")
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        subprocess.run(
            [str(ROOT / "node_modules" / ".bin" / "lighthouse"), url, "--quiet", "--output=json", f"--output-path={report}",
             "--only-categories=performance,accessibility,best-practices,seo", "--form-factor=mobile",
             "--screenEmulation.mobile", f"--chrome-flags={FLAGS}", "--max-wait-for-load=60000"],
            check=True, env={**os.environ, "CHROME_PATH": chrome},
        )
        data = json.loads(report.read_text())
    server.shutdown()
    failed = 0
    print(f"Lighthouse {data['lighthouseVersion']}, {data['configSettings']['formFactor']}, {url}")
    for key, category in data["categories"].items():
        score = round(category["score"] * 100)
        target = TARGETS.get(key)
        mark = "" if target is None else (" ok" if score >= target else f" BELOW {target}")
        failed += bool(target and score < target)
        print(f"  {category['title']:<16} {score:>3}{mark}")
        for ref in category["auditRefs"]:
            a = data["audits"][ref["id"]]
            if ref["weight"] and a["score"] is not None and a["score"] < 1:
                print(f"      - {a['id']}: {a['title']} ({a.get('displayValue', '')})")
    return 1 if failed else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=ROOT / "_site")
    sys.exit(audit(parser.parse_args().site))
