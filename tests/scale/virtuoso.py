"""Start and stop an OpenLink Virtuoso server (Debian's virtuoso-opensource) in a temporary
folder, on free loopback ports, with a user allowed to update, for the remote-store tests."""

from __future__ import annotations

import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.scale.server import free_port, ready

STARTUP_SECONDS = 90.0
BINARY = "virtuoso-t"
ISQL = "isql-vt"
VAD = "/usr/share/virtuoso-opensource-7/vad"

# A database of its own in the folder; row limit above any test graph (the packaged 10,000
# would cut answers); small buffers: it shares the machine.
_INI = """[Database]
DatabaseFile = {folder}/virtuoso.db
ErrorLogFile = {folder}/virtuoso.log
LockFile = {folder}/virtuoso.lck
TransactionFile = {folder}/virtuoso.trx
xa_persistent_file = {folder}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
Striping = 0
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = {folder}/virtuoso-temp.db
TransactionFile = {folder}/virtuoso-temp.trx
Striping = 0
[Parameters]
ServerPort = 127.0.0.1:{sql_port}
DisableUnixSocket = 1
MaxClientConnections = 10
CheckpointInterval = 60
CaseMode = 2
DirsAllowed = ., {folder}, {vad}
NumberOfBuffers = 10000
MaxDirtyBuffers = 6000
ThreadsPerQuery = 2
MaxQueryMem = 500M
VADInstallDir = {vad}/
[HTTPServer]
ServerPort = 127.0.0.1:{http_port}
ServerRoot = {folder}/vsp
MaxClientConnections = 10
ServerThreads = 10
Charset = UTF-8
EnabledDavVSP = 0
[SPARQL]
ResultSetMaxRows = 1000000
MaxQueryExecutionTime = 60
MaxQueryCostEstimationTime = 400
"""


@dataclass(frozen=True)
class Virtuoso:
    url: str  # the SPARQL endpoint, http://127.0.0.1:PORT/sparql
    user: str
    password: str
    folder: Path


def virtuoso_binary() -> str | None:
    return shutil.which(BINARY)


@contextmanager
def virtuoso_server(folder: Path) -> Iterator[Virtuoso]:
    """virtuoso-t on 127.0.0.1:<free ports> with its database in `folder`, and a user
    `paperkg` (random password) holding SPARQL_UPDATE; stopped on exit."""
    binary, isql = shutil.which(BINARY), shutil.which(ISQL)
    if binary is None or isql is None:
        raise FileNotFoundError("virtuoso-opensource is not installed")
    http_port, sql_port = free_port(), free_port()
    (folder / "vsp").mkdir(parents=True, exist_ok=True)
    ini = folder / "virtuoso.ini"
    ini.write_text(_INI.format(folder=folder, http_port=http_port, sql_port=sql_port, vad=VAD),
                   encoding="utf-8")
    url = f"http://127.0.0.1:{http_port}/sparql"
    log = open(folder / "server.out", "wb")
    process = subprocess.Popen([binary, "+foreground", "+configfile", str(ini)], cwd=folder,
                               stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not ready(url, timeout=2):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("virtuoso did not start: "
                                   + (folder / "virtuoso.log").read_text(errors="replace")[-2000:])
            time.sleep(0.25)
        password = secrets.token_hex(12)
        # The new user's password goes through stdin, not the command line; `dba`/`dba` is
        # the fresh database's own administrator, on loopback, for this test only.
        script = (f"DB.DBA.USER_CREATE('paperkg', '{password}');\n"
                  'GRANT SPARQL_UPDATE TO "paperkg";\n')
        subprocess.run([isql, f"127.0.0.1:{sql_port}", "dba", "dba"], input=script.encode(),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=60)
        yield Virtuoso(url=url, user="paperkg", password=password, folder=folder)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
