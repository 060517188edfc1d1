"""Screenshots of the home, paper and neighbourhood pages for the README (docs/img/*.png).

    .venv/bin/python tests/web/screenshots.py [--store PATH] [--paper KEY] [--node TYPE/SLUG]

Serves the pages over the given store (default: the web tests' fixture graph) on
a loopback port and photographs them with headless Chromium; nothing else is contacted.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).parent))

from web_fixture import load_fixture, make_app  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", help="store folder; default: the fixture graph")
    parser.add_argument("--paper", default="p06")
    parser.add_argument("--node", default="method/sparse-routing-attention")
    parser.add_argument("--out", default=str(ROOT / "docs" / "img"))
    args = parser.parse_args()

    import threading

    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    location = args.store
    if location is None:
        location = str(Path(tempfile.mkdtemp()) / "store")
        load_fixture(location)
    server = make_server("127.0.0.1", 0, make_app(location), threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root = f"http://127.0.0.1:{server.server_port}"
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    shots = [
        ("home.png", "/", None),
        ("paper.png", f"/paper/{args.paper}", "iframe.viz"),
        ("neighbourhood.png", f"/viz/neighbourhood?node={args.node}&depth=2", "#graph"),
        ("overview.png", "/viz/overview", "#graph"),
        ("results.png", "/results", None),
    ]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 860},
                                      device_scale_factor=1)
        context.route("**/*", lambda r: r.continue_() if "127.0.0.1" in r.request.url
                      else r.abort())
        page = context.new_page()
        for name, path, wait_for in shots:
            page.goto(root + path, wait_until="load")
            if wait_for == "#graph":
                page.wait_for_selector("body[data-graph-state='still']")
            elif wait_for:
                page.frame_locator(wait_for).locator(
                    "body[data-graph-state='still']").wait_for()
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / name), full_page=name == "paper.png")
            print(f"wrote {out / name}")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
