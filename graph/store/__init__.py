"""The graph store: embedded Oxigraph on disk (the default), in memory, or a SPARQL 1.1 server.

    protocol.py   the Store protocol every backend implements (and `data_block`)
    location.py   `open_store`: which backend a location names
    embedded.py   EmbeddedStore: Oxigraph in a folder (atomic generations) or in memory
    bulk.py       N-Quads files sized for the bulk loader, and loading them
    http.py       the remote backend's HTTP: endpoints, logins, requests, answers
    remote.py     RemoteStore: any SPARQL 1.1 server (Protocol and Graph Store Protocol)
    virtuoso.py   VirtuosoStore: RemoteStore adapted to Virtuoso's dialect

The store holds no paper vocabulary: what a paper owns and how its facts change in one SPARQL
Update is graph.build.update's.
"""

from graph.store.bulk import LINKED_FILE_LINES, LOAD_FILE_LINES, STREAM_FILE_LINES, NQuadsFiles
from graph.store.embedded import MEMORY, EmbeddedStore
from graph.store.location import DEFAULT_LOCATION, DIALECT_ENV, STORE_ENV, open_store
from graph.store.protocol import (
    DEFAULT_GRAPH,
    NQuadsSource,
    QueryResult,
    Store,
    Triples,
    data_block,
    solutions,
)

__all__ = [
    "DEFAULT_GRAPH",
    "DEFAULT_LOCATION",
    "DIALECT_ENV",
    "LINKED_FILE_LINES",
    "LOAD_FILE_LINES",
    "MEMORY",
    "STORE_ENV",
    "STREAM_FILE_LINES",
    "EmbeddedStore",
    "NQuadsFiles",
    "NQuadsSource",
    "QueryResult",
    "Store",
    "Triples",
    "data_block",
    "solutions",
    "open_store",
]
