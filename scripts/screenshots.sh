#!/usr/bin/env bash
# Regenerates the README's screenshots, assets/home.png and assets/race.png,
# from the real binary: it runs the tutorial in a tmux terminal of its own
# (120×40), drives it with send-keys, captures the pane with its colours
# (capture-pane -e) and renders the capture with charmbracelet/freeze.
#
#   scripts/screenshots.sh            # writes assets/home.png, assets/race.png
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
mkdir -p "$tmp/state/conflictlab"
cat > "$tmp/state/conflictlab/progress.json" <<'JSON'
{"version": 1, "last": "lost-update",
 "lessons": {"versions": {"step": 0, "done": true, "answers": {"1": {"attempts": 1, "correct": true, "firstTry": true}}}}}
JSON

tmux -L "$sock" new-session -d -s shot -x 120 -y 40 \
  "env TERM=xterm-256color COLORTERM=truecolor XDG_STATE_HOME=$tmp/state $tmp/conflictlab"

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
wait_for "erased by b at step 5"
keys Left Left
wait_for "step 6/8"
shot race
