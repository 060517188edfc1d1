"""Reading a search index file (graph.network.search_index writes them): search, entity and paper
lists, name lookup.

Search ranks by match kind first (the whole name, its start, the start of a word, anywhere in
it: KINDS), then entities before papers; entities by support, papers by BM25 (Okapi, k1 1.2,
b 0.75) of the query as one term in the title, its length in characters against the mean
title's; then label and id. Candidates come from the FTS5 trigram index (a query of three
characters or more) and are checked exactly; one row per node holds its label and all its
aliases, so no grouping is needed.

What a search costs does not grow with the papers it matches, as long as `limit` titles
start with the query: the papers are counted by the trigram indexes alone (no row read), and
ranked from the range of the titles index that starts with the query (the "exact" and
"prefix" kinds come before the others), with the papers that have aliases; entities, which
are few, have a trigram index of their own and are ranked in full. When fewer titles start
with the query, papers are ranked in full (the cost then grows with the matches). A word in
a third of 100k titles took 291 ms before this and 20 ms after (bench/bench_search.py,
docs/stores.md).
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from graph.slug import label_key
from graph.vocab import CONCEPT_TYPES

KINDS = ("exact", "prefix", "word", "substring")
_SEPARATORS = re.compile(r"[\s\-_/]+")

# The kind of the best match of :q in one name column, and in the "\n"-delimited aliases.
_LABEL_KIND = """CASE WHEN folded = :q THEN 0 WHEN substr(folded, 1, length(:q)) = :q THEN 1
  WHEN :word AND instr(spaced, ' ' || :q) > 0 THEN 2 WHEN instr(folded, :q) > 0 THEN 3
  ELSE 9 END"""
_ALIAS_KIND = """CASE WHEN afolded = '' THEN 9
  WHEN instr(afolded, char(10) || :q || char(10)) > 0 THEN 0
  WHEN instr(afolded, char(10) || :q) > 0 THEN 1
  WHEN :word AND instr(aspaced, ' ' || :q) > 0 THEN 2 WHEN instr(afolded, :q) > 0 THEN 3
  ELSE 9 END"""
# Okapi BM25 of the query as one term of the title (its idf is the same for every paper).
_BM25 = """((length(folded) - length(replace(folded, :q, ''))) / length(:q)) * 2.2
  / ((length(folded) - length(replace(folded, :q, ''))) / length(:q)
     + 1.2 * (0.25 + 0.75 * length(folded) / :mean))"""


# A row's rank key: the match kind, entities before papers, papers by BM25 and entities by
# support (best first), then label and id.
_RANKED = f"""SELECT rowid, MIN({_LABEL_KIND}, {_ALIAS_KIND}) AS kind, is_paper,
  CASE WHEN is_paper THEN -({_BM25}) ELSE -support END AS rank, sortlabel, id FROM search"""
_ORDER = "ORDER BY kind, is_paper, rank, sortlabel, id LIMIT :limit"


def _fold(text: str) -> str:
    return text.casefold()


def _above(text: str) -> str | None:
    """The least string above every string that starts with `text` (None if there is none
    to write): `folded >= text AND folded < above` is a range of an index."""
    point = ord(text[-1]) + 1 if text else 0
    if 0xD800 <= point < 0xE000:  # surrogates are no characters: skip them
        point = 0xE000
    return text[:-1] + chr(point) if text and point <= 0x10FFFF else None


def _kind(name: str, needle: str) -> int:
    """KINDS index of `needle` in one name (9: none), as the SQL above decides it."""
    text = _fold(name)
    if text == needle:
        return 0
    if text.startswith(needle):
        return 1
    if _SEPARATORS.search(needle) is None and (" " + needle) in " " + _SEPARATORS.sub(" ", text):
        return 2
    return 3 if needle in text else 9


class SearchIndex:
    """One index file, read by any number of threads (a connection each)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True,
                                 check_same_thread=False)
            db.row_factory = sqlite3.Row
            self._local.db = db
        return db

    @staticmethod
    def _node(row: sqlite3.Row) -> dict[str, Any]:
        return {"id": row["id"], "iri": row["iri"], "type": row["type"], "label": row["label"],
                "support": row["support"]}

    def node(self, key: str) -> dict[str, Any] | None:
        row = self._db().execute("SELECT * FROM nodes WHERE id = ?", (key,)).fetchone()
        return None if row is None else self._node(row)

    def aliases(self, keys: Iterable[str]) -> dict[str, list[str]]:
        wanted = list(dict.fromkeys(keys))
        out: dict[str, list[str]] = {key: [] for key in wanted}
        for start in range(0, len(wanted), 500):
            part = wanted[start:start + 500]
            for key, names in self._db().execute(
                    f"SELECT id, aliases FROM search WHERE id IN ({', '.join('?' * len(part))})",
                    part):
                out[key] = json.loads(names)
        return out

    def by_name(self, name: str) -> str | None:
        """The best-supported node whose label or an alias is `name` (by graph.slug's key)."""
        row = self._db().execute("""SELECT nodes.id FROM names JOIN nodes ON nodes.id = names.node
WHERE names.key = ? ORDER BY nodes.support DESC, nodes.id LIMIT 1""",
                                 (label_key(name),)).fetchone()
        return None if row is None else str(row[0])

    def papers(self, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        db = self._db()
        total = db.execute("SELECT value FROM meta WHERE key = 'papers'").fetchone()[0]
        rows = db.execute("SELECT * FROM nodes WHERE type = 'paper' ORDER BY id LIMIT ? OFFSET ?",
                          (limit, offset)).fetchall()
        return int(total), [self._node(row) for row in rows]

    def _holding(self, needle: str) -> tuple[str, dict[str, Any]]:
        """A WHERE clause for the rows with `needle` in a name, and its parameters."""
        if "\x00" in needle:  # no name holds NUL, and FTS5 cannot read it inside a phrase
            return "0", {}
        where = "(instr(folded, :q) > 0 OR instr(afolded, :q) > 0)"
        if len(needle) < 3:  # too short for trigrams: a scan, still in SQLite
            return where, {"q": needle}
        phrase = '"' + needle.replace('"', '""') + '"'
        return (f"rowid IN (SELECT rowid FROM search_fts WHERE search_fts MATCH :m) AND {where}",
                {"q": needle, "m": phrase})

    @staticmethod
    def _types(types: Sequence[str], params: dict[str, Any]) -> str:
        for index, kind in enumerate(types):
            params[f"t{index}"] = kind
        return f"type IN ({', '.join(f':t{i}' for i in range(len(types)))})"

    def entities(self, kind: str | None, q: str, limit: int
                 ) -> tuple[int, list[dict[str, Any]]]:
        """Entities (of one type, or all) whose label or an alias holds `q`, by support."""
        params: dict[str, Any] = {"limit": limit}
        where = self._types([kind] if kind else list(CONCEPT_TYPES), params)
        if not q:  # the nodes table's (type, support, label, id) index, then their aliases
            db = self._db()
            total = db.execute(f"SELECT COUNT(*) FROM nodes WHERE {where}", params).fetchone()[0]
            found = [self._node(row) for row in db.execute(
                f"SELECT * FROM nodes WHERE {where} ORDER BY support DESC, sortlabel, id "
                "LIMIT :limit", params)]
            names = self.aliases(node["id"] for node in found)
            return int(total), [{**node, "aliases": names[node["id"]]} for node in found]
        holding, extra = self._holding(_fold(q))
        where += " AND " + holding
        params.update(extra)
        rows = self._db().execute(f"""SELECT *, COUNT(*) OVER () AS total FROM search
WHERE {where} ORDER BY support DESC, sortlabel, id LIMIT :limit""", params).fetchall()
        total = int(rows[0]["total"]) if rows else 0
        return total, [{**self._node(row), "aliases": json.loads(row["aliases"])} for row in rows]

    def search(self, q: str, types: Sequence[str] | None, limit: int
               ) -> tuple[int, list[dict[str, Any]]]:
        """(number of nodes matched, the first `limit` of them ranked), each with the name
        it matched by (`matched`: title, label or alias; `match`: a KINDS name; `text`)."""
        needle = _fold(q)
        if "\x00" in needle:  # no name holds NUL, and FTS5 cannot read it inside a phrase
            return 0, []
        mean = self._db().execute("SELECT value FROM meta WHERE key = 'title_length'").fetchone()
        params: dict[str, Any] = {
            "q": needle, "word": int(_SEPARATORS.search(needle) is None), "limit": limit,
            "mean": float(mean[0]) if mean and mean[0] else 1.0}
        above = _above(needle)
        if len(needle) >= 3 and above is not None:
            total, ranked = self._ranked(needle, above, types, params)
        else:  # too short for trigrams: every node is read (a scan, in SQLite)
            where, extra = self._holding(needle)
            params.update(extra)
            if types:
                where += " AND " + self._types(types, params)
            counted = _RANKED.replace(" FROM search", ", COUNT(*) OVER () FROM search")
            ranked = self._db().execute(f"{counted} WHERE {where} {_ORDER}", params).fetchall()
            total = ranked[0][-1] if ranked else 0
        return int(total), self._results([row[0] for row in ranked], needle)

    def _ranked(self, needle: str, above: str, types: Sequence[str] | None,
                params: dict[str, Any]) -> tuple[int, list[tuple[Any, ...]]]:
        """(total, the best `limit` rows' rank keys) of a query of 3 characters or more, at a
        cost that does not grow with the papers matched when `limit` titles start with it.

        Entities (few) are ranked in full from their own trigram index. Papers are counted
        by the trigram indexes alone (every match, no row read), and ranked from the titles
        that start with the query (a range of an index on the titles: those are the "exact"
        and "prefix" kinds, which come before the others) when there are `limit` of them;
        else, and for papers with aliases, in full as before."""
        db = self._db()
        params.update(m='"' + needle.replace('"', '""') + '"', above=above)
        holding = "(instr(folded, :q) > 0 OR instr(afolded, :q) > 0)"
        kinds = [t for t in types if t != "paper"] if types else None
        rows: list[tuple[Any, ...]] = []
        total = 0
        if kinds is None or kinds:
            where = f"rowid IN (SELECT rowid FROM entity_fts WHERE entity_fts MATCH :m) " \
                f"AND {holding}" + (f" AND {self._types(kinds, params)}" if kinds else "")
            entities = db.execute(f"{_RANKED} WHERE {where} {_ORDER}", params).fetchall()
            rows.extend(entities)
            total += db.execute(f"SELECT COUNT(*) FROM search WHERE {where}",
                                params).fetchone()[0] if len(entities) == params["limit"] \
                else len(entities)
        if not types or "paper" in types:
            total += (db.execute("SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH :m",
                                 params).fetchone()[0]
                      - db.execute("SELECT COUNT(*) FROM entity_fts WHERE entity_fts MATCH :m",
                                   params).fetchone()[0])
            papers = db.execute(f"""SELECT rowid, CASE WHEN folded = :q THEN 0 ELSE 1 END AS kind,
  1 AS is_paper, -({_BM25}) AS rank, folded, id FROM search
WHERE is_paper AND afolded = '' AND folded >= :q AND folded < :above
ORDER BY kind, rank, folded, id LIMIT :limit""", params).fetchall()
            if len(papers) == params["limit"]:
                papers += db.execute(f"{_RANKED} WHERE is_paper = 1 AND afolded != '' "
                                     f"AND {holding} {_ORDER}", params).fetchall()
            else:
                papers = db.execute(f"""{_RANKED} WHERE rowid IN
  (SELECT rowid FROM search_fts WHERE search_fts MATCH :m) AND is_paper = 1 AND {holding}
{_ORDER}""", params).fetchall()
            rows.extend(papers)
        rows.sort(key=lambda row: tuple(row[1:]))
        return total, rows[:params["limit"]]

    def _results(self, rowids: list[int], needle: str) -> list[dict[str, Any]]:
        found = {row["rowid"]: row for row in self._db().execute(
            f"SELECT rowid, * FROM search WHERE rowid IN ({', '.join('?' * len(rowids))})",
            rowids)}
        results = []
        for rowid in rowids:
            row = found[rowid]
            field, text = row["field"], row["label"]
            kind = _kind(text, needle)
            aliases = json.loads(row["aliases"])
            best = min((_kind(a, needle) for a in aliases), default=9)
            if best < kind:  # matched by an alias: the first of that kind
                kind = best
                text = next(a for a in aliases if _kind(a, needle) == kind)
                field = "alias"
            results.append({**self._node(row), "matched": field, "match": KINDS[kind],
                            "text": text})
        return results

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None
