#!/usr/bin/env bash
# Runs the Python client's tests (clients/python/tests) against a real node; ./verify calls it.
#   clients/python/test-with-node.sh [PYTEST ARGS...]
# 1. a virtualenv in clients/python/.venv (gitignored), with the package and its test extras
#    installed from this folder and PyPI (pip install 'clients/python[test]', not editable: the
#    tests use what a user would install);
# 2. a node started with the repository's own launcher (./railgun start: it builds first if a
#    source is newer than its last build), on a free port (--port 0), with an admin and an ingest
#    token and a 1 MiB body limit, its data in a temporary folder;
# 3. pytest with the node's URL and tokens in PYTEST_RAILGUN_* (not RAILGUN_*: the node refuses
#    RAILGUN_* variables it does not know); exit code 5 (no tests collected) fails like any other;
# 4. the node stopped with SIGTERM and its folder removed, whatever happened (its log is shown
#    when a step failed).
# PYTHON names the interpreter (default python3, 3.9 or later).
set -euo pipefail
py_dir="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$py_dir/../.." && pwd)"
python="${PYTHON:-python3}"
venv="$py_dir/.venv"

if ! command -v "$python" >/dev/null 2>&1 \
    || ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null; then
  echo "python-client: needs Python 3.9 or later as '$python' (set PYTHON=...)" >&2
  exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$py_dir[test]"

data_dir="$(mktemp -d "${TMPDIR:-/tmp}/pyclient-verify.XXXXXX")"
log="$data_dir/node.log"
node_pid=""
stop_node() {
  local status=$?
  if [ -n "$node_pid" ] && kill -0 "$node_pid" 2>/dev/null; then
    kill -TERM "$node_pid" 2>/dev/null || true
    wait "$node_pid" 2>/dev/null || true
  fi
  if [ "$status" -ne 0 ] && [ -f "$log" ]; then
    echo "python-client: failed; the node's log ends with:" >&2
    tail -n 40 "$log" >&2 || true
  fi
  rm -rf "$data_dir"
  exit "$status"
}
trap stop_node EXIT
trap 'exit 130' INT TERM

admin_token="$("$venv/bin/python" -c 'import secrets; print(secrets.token_hex(16))')"
ingest_token="$("$venv/bin/python" -c 'import secrets; print(secrets.token_hex(16))')"
# A small body limit, so that a 413 body_too_large costs little to provoke.
max_body_bytes=1048576
# The tokens go to the node in its environment, not on its command line (visible to ps).
RAILGUN_ADMIN_TOKEN="$admin_token" RAILGUN_INGEST_TOKEN="$ingest_token" \
  "$root/railgun" start --data-dir "$data_dir/data" --port 0 --max-body-bytes "$max_body_bytes" >"$log" 2>&1 &
node_pid=$!

# The launcher prints "Railgun node <id> serving <url> (...)" once the HTTP API listens; the first
# start may build Railgun first (minutes).
url=""
for _ in $(seq 1 600); do
  url="$(sed -n 's/^Railgun node .* serving \(https\{0,1\}:\/\/[^ ]*\) .*/\1/p' "$log" | head -n 1)"
  [ -n "$url" ] && break
  if ! kill -0 "$node_pid" 2>/dev/null; then
    echo "python-client: the node stopped before serving" >&2
    exit 1
  fi
  sleep 1
done
if [ -z "$url" ]; then
  echo "python-client: the node did not start within 10 minutes" >&2
  exit 1
fi
healthy=""
for _ in $(seq 1 60); do
  if "$venv/bin/python" -c 'import sys, railgun; sys.exit(not railgun.Railgun(sys.argv[1], retry=None, timeout=2).health())' "$url"; then
    healthy=yes
    break
  fi
  sleep 1
done
if [ -z "$healthy" ]; then
  echo "python-client: GET $url/health did not answer 200" >&2
  exit 1
fi

echo "python-client: pytest against the node at $url" >&2
(cd "$py_dir" && PYTEST_RAILGUN_URL="$url" PYTEST_RAILGUN_ADMIN_TOKEN="$admin_token" \
  PYTEST_RAILGUN_INGEST_TOKEN="$ingest_token" PYTEST_RAILGUN_MAX_BODY_BYTES="$max_body_bytes" \
  "$venv/bin/python" -m pytest -p no:cacheprovider "$@")
