"""Draw the PNG icons of the web app manifest from web/icon.svg, with Chromium.

Run once when the icon changes (``python tools/make_icons.py``); the PNGs are committed,
so the build needs no browser. A maskable icon keeps the mark inside the safe zone.
"""

from __future__ import annotations

from pathlib import Path

import find_chromium
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
SVG = (ROOT / "web" / "icon.svg").read_text()
OUT = ROOT / "web" / "icons"


def main() -> None:
    OUT.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_chromium.find(), args=["--no-sandbox", "--disable-gpu"])
        for size, maskable in ((192, False), (512, False), (512, True)):
            page = browser.new_page(viewport={"width": size, "height": size})
            # A maskable icon: full-bleed background, the mark in the central 80 %.
            inner = f'<div style="width:{size * 0.8}px;height:{size * 0.8}px">{SVG}</div>' if maskable else SVG
            page.set_content(f'<body style="margin:0;display:grid;place-items:center;width:{size}px;height:{size}px;'
                             f'background:{"#8a2a14" if maskable else "transparent"}">{inner}</body>')
            page.add_style_tag(content="svg{width:100%;height:100%;display:block}")
            name = f"icon-{size}{'-maskable' if maskable else ''}.png"
            page.screenshot(path=str(OUT / name), omit_background=not maskable)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
