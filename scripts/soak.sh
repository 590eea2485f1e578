#!/usr/bin/env bash
# The workshop server under load (issue 25; BENCHMARKS.md, "serve"): a
# conflictlab serve process, N well-behaved attendees on one address (a
# room behind one NAT) answering lesson 1 and stepping through its race, a
# key every half second or so, and a hostile client running every attack
# alongside (hostile first sizes, 80 channels on a connection, resize
# storms, 1 MiB pastes, name collisions, connections that never finish a
# handshake, a connection flood). Prints the server's peak RSS, the
# well-behaved sessions' key-to-frame p50/p99, the refusals by reason, and
# the check of every progress file after the server stopped.
#
#   scripts/soak.sh                         # 60 sessions, 10 minutes
#   scripts/soak.sh --sessions 60 --duration 60s --assert   # what CI runs
#   scripts/soak.sh --ramp 20,40,60,80,100 --duration 60s  # the room's capacity
#   scripts/soak.sh --bin /tmp/old/conflictlab --ramp …     # another build's server
#
# Needs the Go toolchain; runs on loopback (127.0.0.1–127.0.0.4).
set -euo pipefail
export GOTOOLCHAIN=local
cd "$(dirname "$0")/.."

sessions=60 duration=10m ramp="" assert=0 hostile=1 bin=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sessions) sessions=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --ramp) ramp=$2; shift 2 ;;
    --assert) assert=1; shift ;;
    --bin) bin=$2; shift 2 ;;
    --no-hostile) hostile=0; shift ;;
    --attacks) export CONFLICTLAB_SOAK_ATTACKS=$2; shift 2 ;;  # sizes,channels,resizes,paste,names,handshakes,flood
    *) echo "soak.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$bin" ]; then
  go build -o "$tmp/conflictlab" .
  bin="$tmp/conflictlab"
fi
echo "soak: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
status=0
CONFLICTLAB_SOAK_BIN="$bin" CONFLICTLAB_SOAK_SESSIONS=$sessions CONFLICTLAB_SOAK_DURATION=$duration \
CONFLICTLAB_SOAK_RAMP=$ramp CONFLICTLAB_SOAK_ASSERT=$assert CONFLICTLAB_SOAK_HOSTILE=$hostile \
  go test ./serve/ -run '^TestSoak$' -count=1 -v -timeout 3h >"$tmp/out" 2>&1 || status=$?
grep -v '^=== RUN\|^--- PASS\|^PASS$\|^ok ' "$tmp/out" || true
echo "soak: load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
exit $status
