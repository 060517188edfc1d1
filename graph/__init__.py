"""paperkg's library: corpus readers, extractors, linking, RDF, store, network, viz, export, CLI.

Nothing here imports Flask or opens a network connection (except the remote store backend,
to the URL the user gave).
"""

__version__ = "0.1.0"
