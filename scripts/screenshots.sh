#!/usr/bin/env bash
# Regenerates the README's screenshots, assets/home.png, assets/race.png
# (120×40) and assets/lesson-80x24.png (the size the README promises), from
# the real binary: it runs the tutorial in tmux terminals of its own, drives
# them with send-keys, captures the pane with its colours (capture-pane -e)
# and renders the capture with charmbracelet/freeze.
#
#   scripts/screenshots.sh            # writes the three PNGs under assets/
#
# Needs tmux and the Go toolchain (freeze is fetched by `go run`).
set -euo pipefail
export GOTOOLCHAIN=local
cd "$(dirname "$0")/.."

FREEZE="go run github.com/charmbracelet/freeze@v0.2.2"
tmp=$(mktemp -d)
sock="conflictlab-shots-$$"
cleanup() { tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT

go build -o "$tmp/conflictlab" .

# Lesson 1 done, so the home screen shows states, a score and "continue".
seed_progress() {
  mkdir -p "$tmp/state/conflictlab"
  cat > "$tmp/state/conflictlab/progress.json" <<'JSON'
{"version": 1, "last": "lost-update",
 "lessons": {"versions": {"step": 0, "done": true, "answers": {"1": {"attempts": 1, "correct": true, "firstTry": true}}}}}
JSON
}
seed_progress

start() { # WIDTH HEIGHT
  tmux -L "$sock" kill-session -t shot 2>/dev/null || true
  tmux -L "$sock" new-session -d -s shot -x "$1" -y "$2" \
    "env TERM=xterm-256color COLORTERM=truecolor XDG_STATE_HOME=$tmp/state $tmp/conflictlab"
}
start 120 40

screen() { tmux -L "$sock" capture-pane -p -t shot; }
keys() { tmux -L "$sock" send-keys -t shot "$@"; }
wait_for() {
  for _ in $(seq 1 300); do
    if screen | grep -qF -- "$1"; then return 0; fi
    sleep 0.05
  done
  echo "timed out waiting for: $1" >&2
  screen >&2
  exit 1
}
shot() {
  # freeze ignores SGR 49 (default background), which tmux uses to end a
  # background; spell it out as freeze's own background instead.
  tmux -L "$sock" capture-pane -e -p -t shot | sed 's/\x1b\[49m/\x1b[48;2;30;30;46m/g' > "$tmp/$1.ansi"
  $FREEZE --language ansi --window --padding 20 --margin 0 --font.size 14 \
    --background "#1e1e2e" --output "assets/$1.png" "$tmp/$1.ansi" >/dev/null
  echo "wrote assets/$1.png"
}

wait_for "Continue where you left off"
shot home

# Lesson 2: predict right, watch the race to the end at 8x, then step
# back to the write that erases a's field so the YAML shows the ghost line.
keys c
wait_for "Two writers, one version"
right=$(screen | grep -oE '([0-9])\. Only data.replicas' | head -1 | cut -c1)
keys "$right" + + +
wait_for "erased by b at step 6"
keys Left Left
wait_for "step 6/8"
shot race

# The same lesson at 80×24, the race finished and the write that erased
# a's field inspected (i): request, answer, the version it produced.
tmux -L "$sock" send-keys -t shot q
sleep 0.5
seed_progress
start 80 24
wait_for "Continue"
keys c
wait_for "Two writers, one version"
right=$(screen | grep -oE '([0-9])\. Only data.replicas' | head -1 | cut -c1)
keys "$right" + + +
wait_for "step 8/8"
keys Left Left
wait_for "step 6/8"
keys i
wait_for "UPDATE"
shot lesson-80x24
