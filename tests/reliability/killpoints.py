"""Fork server for the kill-point test: `python killpoints.py EXTRACTIONS.pickle`.

It imports the build code but never opens a store (an open RocksDB leaves thread pools a forked
child cannot use), then, for every line "K CORPUS STORE OUT" on stdin, forks a child that runs
`graph.build.build` with the pickled extractions (in place of the parse) and SIGKILLs itself at its K-th file
operation (0: never), and answers "killed K", or "done" and the names of the operations it
made, or "error ..." on stdout.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys

#: File operations of the write phase: generation folders, the symlink switch, temp files,
#: fsync, renames and clean-up.
KILL_POINTS = ("replace", "rename", "symlink", "fsync", "unlink", "rmdir", "mkdir")


def child(k: int, corpus: str, store: str, out: str, extractions, answer: int) -> None:
    import graph.build as build_module

    calls: list[str] = []

    def counted(fn):
        def call(*args, **kwargs):
            calls.append(fn.__name__)
            if len(calls) == k:
                os.kill(os.getpid(), signal.SIGKILL)
            return fn(*args, **kwargs)

        return call

    for name in KILL_POINTS:
        setattr(os, name, counted(getattr(os, name)))
    import graph.extractors.pipeline
    import graph.nlp

    build_module.extract = lambda papers, **_: extractions
    graph.extractors.pipeline.iter_extractions = lambda papers, **_: iter(extractions)
    graph.nlp.load = lambda *_, **__: None  # nothing is parsed
    try:
        build_module.build([corpus], out_dir=out, store=store)
        os.write(answer, f"done {' '.join(calls)}".encode())
        os._exit(0)
    except BaseException as exc:  # noqa: BLE001 - reported to the test
        os.write(answer, f"error {exc!r}".replace("\n", " ").encode())
        os._exit(3)


def main() -> None:
    import graph.build  # noqa: F401 - imported once, before any fork

    with open(sys.argv[1], "rb") as handle:
        extractions = pickle.load(handle)
    print("ready", flush=True)
    for line in sys.stdin:
        k, corpus, store, out = line.split()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            child(int(k), corpus, store, out, extractions, write)
        os.close(write)
        with os.fdopen(read) as pipe:
            message = pipe.read()
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
            message = f"killed {k}"
        print(message or f"status {status}", flush=True)


if __name__ == "__main__":
    main()
