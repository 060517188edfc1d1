"""The query page is YASGUI, served from this server: type a query, run it, see the rows,
download them as CSV; the examples run; errors are the endpoint's one line. No console
error and no request leaves the loopback server."""

from __future__ import annotations

import csv
import io
from typing import Any

from . import test_browser
from .test_browser import Watch
from .web_fixture import SCRIPT

# The browser, its pages and the skip rule of the other browser tests.
browser = test_browser.browser
page = test_browser.page
pytestmark = test_browser.pytestmark

PAPERS = ("PREFIX pkg: <https://w3id.org/paperkg/ns#>\n"
          "PREFIX dcterms: <http://purl.org/dc/terms/>\n"
          "SELECT ?p ?title WHERE { ?p a pkg:Paper ; dcterms:title ?title } ORDER BY ?p")


def _type_query(tab: Any, text: str) -> None:
    tab.click(".CodeMirror")
    tab.keyboard.press("Control+A")
    tab.keyboard.press("Delete")
    tab.keyboard.insert_text(text)


def test_type_a_query_run_it_see_rows_and_download_csv(page: tuple[Any, Watch]) -> None:
    tab, watch = page
    tab.goto(tab.server + "/sparql/ui", wait_until="load")
    assert tab.locator(".yasqe .CodeMirror-code").inner_text().startswith("1\nPREFIX pkg:")
    _type_query(tab, PAPERS)
    tab.click(".yasqe_queryButton")
    tab.wait_for_selector(".yasr table tbody tr")
    rows = tab.locator(".yasr table tbody tr")
    assert rows.count() == 15
    assert tab.locator(".yasr table thead th").all_inner_texts()[1:] == ["p", "title"]
    # The hostile title is text in a cell, not markup.
    assert f'"Quoted" & <b>bold</b> {SCRIPT} title' in tab.locator(".yasr table").inner_text()
    assert tab.locator(".yasr table script").count() == 0
    with tab.expect_download() as info:
        tab.click(".yasr_downloadIcon")
    download = info.value
    assert download.suggested_filename.endswith(".csv")
    with open(download.path(), encoding="utf-8") as handle:
        table = list(csv.reader(io.StringIO(handle.read())))
    assert table[0] == ["p", "title"] and len(table) == 16
    assert ["https://w3id.org/paperkg/id/paper/p01",
            "Sparse Routing Transformers for Long Documents"] in table
    assert watch.problems() == {}


def test_an_example_runs_when_chosen(page: tuple[Any, Watch]) -> None:
    tab, watch = page
    tab.goto(tab.server + "/sparql/ui", wait_until="load")
    tab.select_option("#examples", index=3)  # papers per research area
    tab.wait_for_selector(".yasr table tbody tr")
    assert tab.locator(".yasr table thead th").all_inner_texts()[1:] == ["area", "papers"]
    assert "PREFIX skos: <http://www.w3.org/2004/02/skos/core#>" in \
        tab.locator(".yasqe .CodeMirror-code").inner_text()
    assert watch.problems() == {}


def test_a_query_in_the_address_runs_at_once(page: tuple[Any, Watch]) -> None:
    tab, watch = page
    tab.goto(tab.server + "/sparql/ui?query=SELECT%20%3Fp%20WHERE%20%7B%20%3Fp%20a%20"
             "pkg%3APaper%20%7D", wait_until="load")
    tab.wait_for_selector(".yasr table tbody tr")
    assert tab.locator(".yasr table tbody tr").count() == 15
    # The prefix the query uses is declared in the editor, where the user sees it.
    assert tab.locator(".yasqe .CodeMirror-code").inner_text().startswith(
        "1\nPREFIX pkg: <https://w3id.org/paperkg/ns#>\n2\nSELECT ?p")
    assert watch.problems() == {}


def test_an_error_is_the_endpoints_line_with_the_users_line_number(
        page: tuple[Any, Watch]) -> None:
    tab, watch = page
    tab.goto(tab.server + "/sparql/ui", wait_until="load")
    _type_query(tab, "SELECT * WHERE {\n  ?s foo:bar ?o }")
    tab.click(".yasqe_queryButton")
    tab.wait_for_selector(".yasr .errorResult")
    assert "line 2, column 6: prefix foo: is not declared" in \
        tab.locator(".yasr .errorResult").inner_text()
    # The browser logs the 400 itself; nothing else went wrong.
    assert [e for e in watch.console_errors if "status of 400" not in e] == []
    assert watch.blocked == [] and watch.page_errors == []
