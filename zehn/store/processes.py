"""Server processes on this machine: is one alive, which ones serve a data directory, ending them.

The managed server must never leak a process: a start that hangs is ended
(SIGTERM, then SIGKILL after a grace period, then reaped), and before a new
server starts on a data directory every older ``redis-server`` still working
in it — a wedged start, the fork of a killed server's background save — is
ended, so two servers never write one append-only file. Linux reads ``/proc``;
elsewhere only the recorded pid is known.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

SERVER_PROGRAM = b"redis-server"
DEFAULT_GRACE_S = 5.0  # how long SIGTERM may take before SIGKILL


def pid_alive(pid: int) -> bool:
    """True for a running process; a zombie (exited, not yet reaped) counts as dead."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii", errors="replace")
    except OSError:
        return True
    return "\nState:\tZ" not in status


def is_server_process(pid: int) -> bool:
    """Guard against pid reuse: the pid must still be a redis-server (no /proc: assume so)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return not Path("/proc/self").exists()
    except OSError:
        return False
    return SERVER_PROGRAM in cmdline


def servers_in(data_dir: Path) -> list[int]:
    """Live redis-server processes whose working directory is ``data_dir`` (Linux)."""
    target = os.path.realpath(data_dir)
    found = []
    for pid in _all_pids():
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            continue
        cwd = cwd.removesuffix(" (deleted)")
        if cwd == target and is_server_process(pid) and pid_alive(pid):
            found.append(pid)
    return sorted(found)


def servers_marked(marker: str) -> list[int]:
    """Live redis-server processes whose environment holds ``marker`` (``NAME=value``)."""
    needle = marker.encode()
    found = []
    for pid in _all_pids():
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if needle in environ and is_server_process(pid) and pid_alive(pid):
            found.append(pid)
    return sorted(found)


def end_child(process: subprocess.Popen[bytes], grace_s: float = DEFAULT_GRACE_S) -> str:
    """End a server this process started and reap it; says what it took."""
    if process.poll() is not None:
        return f"it exited with status {process.returncode}"
    process.terminate()
    try:
        process.wait(grace_s)
        how = "stopped it with SIGTERM"
    except subprocess.TimeoutExpired:
        _kill_group(process.pid)
        process.wait()
        how = f"it ignored SIGTERM for {grace_s:g} s: killed it with SIGKILL"
    _kill_group(process.pid)  # forks it left (a background save) go with it
    return how


def end_process(pid: int, grace_s: float = DEFAULT_GRACE_S) -> bool:
    """End a server another process started (SIGTERM, then SIGKILL); True once it is gone."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGTERM)
    if not wait_for_exit(pid, grace_s):
        _kill_group(pid)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    _kill_group(pid)
    return wait_for_exit(pid, grace_s)


def wait_for_exit(pid: int, timeout_s: float) -> bool:
    """True once ``pid`` has exited (reaping it when it is our child)."""
    deadline = time.monotonic() + timeout_s
    while pid_alive(pid):
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitpid(pid, os.WNOHANG)
        if time.monotonic() >= deadline:
            return not pid_alive(pid)
        time.sleep(0.02)
    return True


def _kill_group(pid: int) -> None:
    """SIGKILL the servers of the group ``pid`` led (its session's: group id == its pid).

    Members are looked up one by one and must be redis-servers, so a reused pid never
    takes an unrelated program with it.
    """
    members = [p for p in _all_pids() if _group_of(p) == pid and is_server_process(p)]
    if not members and not Path("/proc/self").exists() and is_server_process(pid):
        members = [pid]  # no /proc: the leader alone
    for member in members:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(member, signal.SIGKILL)


def _group_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    except OSError:
        return None
    fields = stat.rpartition(")")[2].split()  # after "pid (comm)": state, ppid, pgrp, ...
    return int(fields[2]) if len(fields) > 2 else None


def _all_pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []
