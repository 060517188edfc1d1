"""The pages in headless Chromium: offline, escaped, drawn, clickable, queryable.

Every request that does not go to the loopback server is aborted and counted as a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import pytest

from .web_fixture import HOSTILE_KEY, IMG, SCRIPT

CHROMIUM = "/usr/bin/chromium"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]

HOSTILE_METHOD = "method/script-alert-1-script-net-db0af9b3"
HOSTILE_DATASET = "dataset/img-src-x-onerror-alert-1-set-da8c564b"


@dataclass
class Watch:
    """What went wrong on a page: failed or blocked requests, console errors, dialogs."""

    failed: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def problems(self) -> dict[str, list[str]]:
        return {k: v for k, v in vars(self).items() if v}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--headless", "--disable-gpu",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"],
        )
        yield launched
        launched.close()


@pytest.fixture()
def page(browser: Any, live_server: str) -> Iterator[tuple[Any, Watch]]:
    watch = Watch()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)

    def only_loopback(route: Any) -> None:
        host = urlparse(route.request.url).hostname
        if host == "127.0.0.1":
            route.continue_()
        else:
            watch.blocked.append(route.request.url)
            route.abort()

    context.route("**/*", only_loopback)
    tab = context.new_page()
    tab.on("requestfailed", lambda r: watch.failed.append(f"{r.url} {r.failure}"))
    tab.on("console", lambda m: m.type == "error" and watch.console_errors.append(m.text))
    tab.on("pageerror", lambda e: watch.page_errors.append(str(e)))

    def on_dialog(dialog: Any) -> None:
        watch.dialogs.append(dialog.message)
        dialog.dismiss()

    tab.on("dialog", on_dialog)
    tab.server = live_server
    yield tab, watch
    context.close()


def wait_still(tab: Any, frame: Any = None) -> None:
    """Until the graph view has stabilised and frozen its layout."""
    (frame or tab).wait_for_selector("body[data-graph-state='still']", timeout=20_000)


PAGES = [
    "/",
    "/search?q=net",
    "/paper/p01",
    f"/paper/{HOSTILE_KEY}",
    "/entity/method/sparse-routing-attention",
    f"/entity/{HOSTILE_METHOD}",
    f"/entity/{HOSTILE_DATASET}",
    "/entity/domain/computer-vision",
    f"/entity/claim/{HOSTILE_KEY}-2",
    "/results",
    "/sparql/ui",
    "/viz/neighbourhood?node=paper/p01&depth=2",
    f"/viz/neighbourhood?node={HOSTILE_METHOD}",
    "/viz/overview",
]


def test_every_page_loads_offline_without_errors(page: tuple[Any, Watch]) -> None:
    tab, watch = page
    for path in PAGES:
        tab.goto(tab.server + path, wait_until="load")
        for frame in tab.frames:
            if "/viz/" in frame.url:
                wait_still(tab, frame)
        assert tab.title(), path
    assert watch.problems() == {}


def test_hostile_strings_show_as_text_and_inject_nothing(page: tuple[Any, Watch]) -> None:
    tab, watch = page
    for path in (f"/paper/{HOSTILE_KEY}", f"/entity/{HOSTILE_METHOD}", "/results",
                 f"/search?q={SCRIPT}"):
        tab.goto(tab.server + path, wait_until="load")
        # No element the strings could have created; only the page's own scripts.
        assert tab.locator("img").count() == 0, path
        own = tab.evaluate(
            "Array.from(document.scripts).every(s => s.src.startsWith(location.origin) ||"
            " s.type === 'application/json')"
        )
        assert own, path
        assert SCRIPT in tab.locator("main").inner_text(), path
    tab.goto(tab.server + f"/paper/{HOSTILE_KEY}", wait_until="load")
    assert tab.locator("#title").inner_text() == f'"Quoted" & <b>bold</b> {SCRIPT} title'
    marks = tab.locator("#abstract mark.m-dataset")
    assert marks.first.inner_text() == f"{IMG} set"
    assert marks.first.get_attribute("title").startswith(f"Dataset: {IMG} set")
    assert watch.dialogs == []
    assert watch.problems() == {}


def _node_point(tab: Any, frame: Any, node_id: str) -> tuple[float, float]:
    """Page coordinates of a node of the frame's network."""
    dom = frame.evaluate(
        "(id) => { const n = window.paperkgNetwork; const p = n.getPositions([id])[id];"
        " return n.canvasToDOM(p); }",
        node_id,
    )
    box = frame.locator("#graph canvas").bounding_box()
    return box["x"] + dom["x"], box["y"] + dom["y"]


def test_neighbourhood_draws_every_node_and_freezes(page: tuple[Any, Watch]) -> None:
    tab, watch = page
    tab.goto(tab.server + "/viz/neighbourhood?node=paper/p01&depth=2", wait_until="load")
    wait_still(tab)
    drawn = tab.evaluate(
        "() => { const n = window.paperkgNetwork;"
        " return {ids: Object.keys(n.getPositions()).sort(),"
        " physics: n.physics.options.enabled,"
        " data: JSON.parse(document.getElementById('graph-data').textContent).nodes.length}; }"
    )
    assert "paper/p01" in drawn["ids"]
    assert "method/sparse-routing-attention" in drawn["ids"]
    assert len(drawn["ids"]) == drawn["data"] > 5
    assert drawn["physics"] is False
    # The canvas is not blank: some pixels differ from the white background.
    inked = tab.evaluate(
        "() => { const c = document.querySelector('#graph canvas');"
        " const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        " let n = 0; for (let i = 0; i < d.length; i += 4) {"
        "   if (d[i + 3] > 0 && (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240)) n++; }"
        " return n; }"
    )
    assert inked > 500
    assert watch.problems() == {}


def test_clicking_a_node_opens_its_page(page: tuple[Any, Watch]) -> None:
    tab, _ = page
    tab.goto(tab.server + "/viz/neighbourhood?node=paper/p01", wait_until="load")
    wait_still(tab)
    x, y = _node_point(tab, tab.main_frame, "method/sparse-routing-attention")
    tab.mouse.click(x, y)
    tab.wait_for_url(lambda url: "/method/sparse-routing-attention" in url, timeout=10_000)
    path = urlparse(tab.url).path
    assert path in ("/id/method/sparse-routing-attention",
                    "/entity/method/sparse-routing-attention")


def test_clicking_a_node_in_an_embedded_view_navigates_the_page(
    page: tuple[Any, Watch],
) -> None:
    tab, _ = page
    tab.goto(tab.server + "/paper/p01", wait_until="load")
    frame = tab.frame_locator("iframe.viz")
    frame.locator("body[data-graph-state='still']").wait_for(timeout=20_000)
    tab.locator("iframe.viz").scroll_into_view_if_needed()
    viz_frame = next(f for f in tab.frames if "/viz/neighbourhood" in f.url)
    x, y = _node_point(tab, viz_frame, "dataset/wikitext-103")
    tab.mouse.click(x, y)
    tab.wait_for_url(lambda url: "/dataset/wikitext-103" in url, timeout=10_000)
    assert tab.locator("#title").inner_text() == "WikiText-103"


def test_tooltip_is_plain_text(page: tuple[Any, Watch]) -> None:
    tab, watch = page
    tab.goto(tab.server + f"/viz/neighbourhood?node=paper/{HOSTILE_KEY}", wait_until="load")
    wait_still(tab)
    x, y = _node_point(tab, tab.main_frame, HOSTILE_DATASET)
    tab.mouse.move(x, y)
    tooltip = tab.locator("div.vis-tooltip")
    tooltip.wait_for(state="visible", timeout=5_000)
    assert tooltip.inner_text().startswith(f"Dataset: {IMG} set")
    # innerText turns the line breaks into <br>; nothing else may appear.
    tags = tab.evaluate(
        "Array.from(document.querySelectorAll('div.vis-tooltip *')).map(e => e.tagName)"
    )
    assert set(tags) <= {"BR"}
    assert tab.locator("img").count() == 0
    assert watch.dialogs == []


def test_results_table_sorts_and_filters(page: tuple[Any, Watch]) -> None:
    tab, watch = page
    tab.goto(tab.server + "/results", wait_until="load")
    table = "#results-table tbody"
    total = tab.locator(f"{table} tr").count()
    assert total == 13
    tab.click("#results-table th[data-key='value'] button")
    values = [float(v) for v in tab.locator(f"{table} td.num").all_inner_texts()]
    assert values == sorted(values)
    tab.click("#results-table th[data-key='value'] button")
    values = [float(v) for v in tab.locator(f"{table} td.num").all_inner_texts()]
    assert values == sorted(values, reverse=True)
    tab.select_option("#filter-dataset", "SQuAD")
    assert tab.locator(f"{table} tr:visible").count() == 2
    assert tab.locator("#row-count").inner_text() == f"2 of {total} results"
    # Only SQuAD's leaderboard stays, and the address keeps the choice.
    assert tab.locator("#leaderboards .board:visible").count() == 1
    assert tab.locator("#leaderboards .board:visible h3 a").first.inner_text() == "SQuAD"
    assert "dataset=SQuAD" in tab.url
    tab.select_option("#filter-dataset", "")
    tab.fill("#filter-text", "perplexity")
    assert tab.locator(f"{table} tr:visible").count() == 2
    assert watch.problems() == {}


def test_results_leaderboards_rank_by_value(page: tuple[Any, Watch]) -> None:
    tab, watch = page
    tab.goto(tab.server + "/results?dataset=CIFAR-10", wait_until="load")
    boards = tab.locator("#leaderboards .board:visible")
    assert boards.count() == 2
    titles = [boards.nth(i).locator("h3").inner_text() for i in range(boards.count())]
    assert [t.split("\n")[0].split(" lower")[0].split(" higher")[0] for t in titles]
    fid = tab.locator("#leaderboards .board[data-metric='FID']")
    assert "lower is better" in fid.locator("h3").inner_text()
    values = [float(v.split()[0]) for v in fid.locator("td.num[data-value]").all_inner_texts()]
    assert values == sorted(values) and len(values) == 2
    # The claim sentence is in the table, its quantity marked.
    assert tab.locator("#results-table td.quote mark.quantity").count() == 13
    assert watch.problems() == {}


def test_home_example_runs_when_clicked(page: tuple[Any, Watch]) -> None:
    tab, watch = page
    tab.goto(tab.server + "/", wait_until="load")
    tab.click("a.run-example >> nth=2")  # papers per research area
    tab.wait_for_selector("#example-table tbody tr")
    assert tab.locator("#example-table th").all_inner_texts() == ["area", "papers"]
    assert tab.locator("#example-table tbody tr").count() == 6
    status = tab.locator("#example-status").inner_text()
    assert status.startswith("Papers per research area: 6 rows")
    assert urlparse(tab.url).path == "/"
    assert watch.problems() == {}


def test_overview_is_one_readable_still_picture(page: tuple[Any, Watch]) -> None:
    tab, watch = page
    tab.goto(tab.server + "/viz/overview", wait_until="load")
    wait_still(tab)
    drawn = tab.evaluate(
        "() => { const n = window.paperkgNetwork; const ids = Object.keys(n.getPositions());"
        " const data = JSON.parse(document.getElementById('graph-data').textContent);"
        " return {ids: ids.length, nodes: data.nodes.length, physics: n.physics.options.enabled,"
        " scale: n.getScale(),"
        " fonts: data.nodes.map(d => d.font.size)}; }"
    )
    assert drawn["ids"] == drawn["nodes"] == 43
    assert drawn["physics"] is False
    # Labels at least 9 px high on screen at the zoom the page opens with.
    assert min(drawn["fonts"]) * drawn["scale"] >= 9
    assert tab.locator("#groups li").count() >= 3
    assert watch.problems() == {}


def test_overview_cap_notice_is_visible(page: tuple[Any, Watch]) -> None:
    tab, watch = page
    tab.goto(tab.server + "/viz/overview?limit=20", wait_until="load")
    wait_still(tab)
    notice = tab.locator("#trim-notice")
    assert notice.is_visible()
    assert "capped at 20 nodes" in notice.inner_text()
    assert watch.problems() == {}
