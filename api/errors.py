"""One error shape for the whole API: `{"error": {"status": N, "message": "..."}}`.

Views raise `ApiError` (or any werkzeug HTTPException); the handlers registered by
`init_app` turn them into that shape for every API path, 404/405/500 included.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError
from werkzeug.wrappers import Response as WerkzeugResponse

log = logging.getLogger(__name__)

# Paths whose errors are JSON; anything else (the web pages) keeps HTML errors.
API_PREFIXES = ("/api/", "/api", "/sparql", "/id/", "/exports/", "/healthz", "/openapi.json")


class ApiError(HTTPException):
    """An HTTP error with a message for the client and optional extra headers."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(description=message)
        self.code = status
        self.extra_headers = dict(headers or {})


def error_response(status: int, message: str,
                   headers: dict[str, str] | None = None) -> Response:
    response = jsonify({"error": {"status": status, "message": message}})
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _is_api_path(path: str) -> bool:
    return path == "/api" or any(path.startswith(prefix) for prefix in API_PREFIXES)


def _wants_html() -> bool:
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "text/html" and request.accept_mimetypes["text/html"] > \
        request.accept_mimetypes["application/json"]


def _html_error(status: int, message: str) -> Response:
    body = render_template("error.html", status=status, message=message)
    return Response(body, status=status, mimetype="text/html")


def handle_http_exception(exc: HTTPException) -> Response | HTTPException:
    if not _is_api_path(request.path):
        return exc
    status = exc.code or 500
    message = exc.description or exc.name
    headers: dict[str, str] = dict(getattr(exc, "extra_headers", {}) or {})
    if status == 405 and exc.get_response().headers.get("Allow"):
        headers["Allow"] = exc.get_response().headers["Allow"]
    if status == 405:
        message = f"method {request.method} is not allowed for {request.path}"
    elif status == 404 and not isinstance(exc, ApiError):
        message = f"no resource at {request.path}"
    if request.path.startswith("/id/") and _wants_html():
        response = _html_error(status, message)
        for name, value in headers.items():
            response.headers[name] = value
        return response
    return error_response(status, message, headers)


def handle_unexpected(exc: Exception) -> Response | HTTPException | WerkzeugResponse:
    if isinstance(exc, HTTPException):
        return handle_http_exception(exc)
    log.exception("unhandled error on %s %s", request.method, request.path)
    if not _is_api_path(request.path):
        return InternalServerError().get_response()
    return error_response(500, "internal server error")


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Exception, handle_unexpected)
