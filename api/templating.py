"""What the app's own templates share (api/templates/): `escape_html`, the standard
library's `html.escape` (quotes as `&quot;` and `&#x27;`, as the API's HTML answers always
wrote them), for the answers that are not web pages."""

from __future__ import annotations

import html

from flask import Flask
from markupsafe import Markup


def escape_html(value: object) -> Markup:
    return Markup(html.escape(str(value)))


def init_app(app: Flask) -> None:
    app.add_template_filter(escape_html, "escape_html")
