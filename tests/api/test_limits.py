"""Rate limiting (429 + Retry-After), CORS from the setting, 413 for oversized requests."""

from __future__ import annotations

import json

import pytest

from api.limits import TokenBucket

ASK = {"query": "ASK {}"}


def test_token_bucket_refills():
    now = [0.0]
    bucket = TokenBucket(60, 2, clock=lambda: now[0])  # one token a second, two at once
    assert bucket.take("a") == 0
    assert bucket.take("a") == 0
    assert bucket.take("a") == pytest.approx(1.0)
    assert bucket.take("b") == 0  # clients are counted apart
    now[0] = 1.0
    assert bucket.take("a") == 0
    assert bucket.take("a") > 0


def test_rate_limit_answers_429_with_retry_after(make_app):
    client = make_app(rate_limit=6, rate_limit_burst=3).test_client()
    statuses = [client.get("/api/papers?per_page=1").status_code for _ in range(3)]
    assert statuses == [200, 200, 200]
    response = client.get("/api/papers?per_page=1")
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "10"  # 6 a minute: one every 10 s
    assert json.loads(response.data)["error"]["status"] == 429
    # Another client address has its own bucket; liveness checks are never limited.
    other = client.get("/api/papers?per_page=1", environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200
    assert client.get("/healthz").status_code == 200
    assert client.get("/sparql", query_string=ASK).status_code == 429


def test_cors_for_an_allowed_origin(client):
    response = client.get("/api/papers?per_page=1", headers={"Origin": "https://allowed.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "https://allowed.example"
    assert "X-Paperkg-Truncated" in response.headers["Access-Control-Expose-Headers"]
    assert "Origin" in response.headers["Vary"]


def test_no_cors_for_other_origins(client):
    response = client.get("/sparql", query_string=ASK, headers={"Origin": "https://evil.example"})
    assert response.status_code == 200
    assert "Access-Control-Allow-Origin" not in response.headers


def test_cors_preflight(client):
    response = client.options("/sparql", headers={
        "Origin": "https://allowed.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Content-Type, X-Custom"})
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == "https://allowed.example"
    assert "POST" in response.headers["Access-Control-Allow-Methods"]
    assert response.headers["Access-Control-Allow-Headers"] == "Content-Type"


def test_preflight_from_another_origin_gets_no_grant(client):
    response = client.options("/sparql", headers={
        "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in response.headers
    assert "Access-Control-Allow-Methods" not in response.headers


def test_any_origin(make_app):
    client = make_app(cors_origins="*").test_client()
    response = client.get("/healthz", headers={"Origin": "https://anyone.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"


def test_oversized_post_is_413(make_app):
    client = make_app(max_request_bytes=200).test_client()
    query = "ASK { " + "?s ?p ?o . " * 40 + "}"
    response = client.post("/sparql", data=query, content_type="application/sparql-query")
    assert response.status_code == 413
    assert "max_request_bytes" in json.loads(response.data)["error"]["message"]
    form = client.post("/sparql", data={"query": query})
    assert form.status_code == 413


def test_oversized_query_string_is_413(make_app):
    client = make_app(max_request_bytes=200).test_client()
    response = client.get("/sparql", query_string={"query": "ASK { " + "?s ?p ?o . " * 40 + "}"})
    assert response.status_code == 413
    assert client.get("/sparql", query_string=ASK).status_code == 200
