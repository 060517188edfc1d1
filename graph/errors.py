"""Errors a user can fix. The CLI prints them as one line and exits 2."""


class PaperkgError(Exception):
    """Base of every error paperkg reports to the user without a traceback."""


class InputError(PaperkgError):
    """Bad corpus input. The message names the file and the line or record."""


class StoreError(PaperkgError):
    """The store could not be opened, read or written."""


class QueryError(PaperkgError):
    """A SPARQL query that cannot be run (syntax, refused feature, limit)."""


class UnknownExtractorError(PaperkgError, KeyError):
    """An extractor name that is not registered; a KeyError too, as a failed registry lookup."""

    def __str__(self) -> str:
        # KeyError's str() quotes its argument; the message is a sentence
        return str(self.args[0]) if self.args else ""
