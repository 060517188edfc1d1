"""A paper page shows an abstract's LaTeX as text, with its marks on the words they came from."""

from __future__ import annotations

import json
import re

import pytest

ABSTRACT = (
    r"We introduce FooNet, a convolutional network for image classification. "
    r"On the ImageNet benchmark it improves top-1 accuracy by $4.4$ points and reaches "
    r"$44$\% fewer errors than \emph{ResNet-50}."
)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from api import create_app
    from graph.build import build

    work = tmp_path_factory.mktemp("latex")
    corpus = work / "one.jsonl"
    record = {"id": "latex-1", "abstract": ABSTRACT}
    corpus.write_text(json.dumps(record) + "\n", encoding="utf-8")
    build([corpus], out_dir=work / "exports", store=str(work / "store"))
    app = create_app({"store": str(work / "store"), "TESTING": True, "rate_limit": 0,
                      "query_workers": 1, "exports_dir": str(work / "exports")})
    response = app.test_client().get("/paper/latex-1")
    app.extensions["paperkg"].close()
    return response


def test_latex_shows_as_text(page):
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    text = re.sub(r"<[^>]+>", "", html)
    assert "by 4.4 points" in text
    assert "44% fewer errors than ResNet-50." in text
    assert "$44$" not in html and r"\emph" not in html


def test_marks_cover_the_readable_words(page):
    html = page.get_data(as_text=True)
    marks = re.findall(r'<mark class="m m-[^"]*"[^>]*>(.*?)</mark>', html)
    marked = [re.sub(r"<[^>]+>", "", m) for m in marks]
    assert any("ImageNet" in m for m in marked)
    assert not any("$" in m or "\\" in m for m in marked)
