#!/usr/bin/env bash
# Draws the README's screenshots of the HTML timeline from real output: the seed's push and pop (light), and a busy
# session of a generated log (dark). Needs a debug build (swift build) and Chromium or Google Chrome:
# scripts/chromium-check.py runs the one LCTRACE_CHROMIUM or CHROMIUM names in the environment, else the first it finds
# on the PATH or, on macOS, in /Applications.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.build/debug/lctrace analyze SampleLogs/seed-push-pop.log --reporter html="$work/seed.html" >/dev/null
python3 scripts/chromium-check.py "$work/seed.html" --session 1 --width 1280 --height 700 \
  --screenshot docs/timeline-seed-push-pop.png >/dev/null
.build/debug/lctrace-loggen --bytes 400K --seed 9 --format nslog-modern >"$work/generated.log"
(cd "$work" && "$OLDPWD/.build/debug/lctrace" analyze generated.log --reporter html=generated.html >/dev/null)
python3 scripts/chromium-check.py "$work/generated.html" --session 24 --width 1280 --height 900 \
  --screenshot "$work/light.png" --dark-screenshot docs/timeline-generated-dark.png >/dev/null
ls -l docs/*.png
