#!/usr/bin/env bash
# Writes the fuzz target's seed inputs into a directory (default: Fuzz/seeds), from the sample logs and the
# real-shapes test fixtures. A seed is a mode byte and a small log (see Sources/lctrace-fuzz/FuzzTarget.swift):
#
#   L + one line              each line of every log, read line by line
#   L + 6 lines, A + 6 lines  each log cut into runs of six lines, read line by line and analysed
#   A + the whole log         every log, and the gzip fixture
#   C + the whole log         every log, analysed into every reporter
#
# A seed longer than the fuzzer's -max_len (1024 bytes, README.md) is left out. Seeds are named by their SHA-1, so a
# seed met twice is kept once. The directory is not committed: run this again
# to make it.
set -euo pipefail
fuzz_dir="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$fuzz_dir")"
out="${1:-$fuzz_dir/seeds}"
max_bytes=1024
mkdir -p "$out"

# SHA-1 of a file, in hex: GNU coreutils' sha1sum where there is one, else Perl's shasum (macOS).
if command -v sha1sum >/dev/null 2>&1; then
  sha1() { sha1sum "$1" | cut -c1-40; }
else
  sha1() { shasum -a 1 "$1" | cut -c1-40; }
fi

# Writes standard input, prefixed with the mode byte $1, as one seed.
seed() {
  local tmp
  tmp="$(mktemp)"
  { printf '%s' "$1"; cat; } > "$tmp"
  if [ "$(wc -c < "$tmp")" -le "$max_bytes" ]; then
    mv "$tmp" "$out/$(sha1 "$tmp")"
  else
    rm -f "$tmp"
  fi
}

logs=("$root"/SampleLogs/*.log "$root"/Tests/LCTraceKitTests/Fixtures/real-shapes/*.log)
for log in "${logs[@]}"; do
  # One line at a time (with its newline, as in the log).
  while IFS= read -r line || [ -n "$line" ]; do
    printf '%s\n' "$line" | seed L
  done < "$log"
  # Runs of six lines.
  lines=$(wc -l < "$log")
  for ((first = 1; first <= lines; first += 6)); do
    sed -n "${first},$((first + 5))p" "$log" | seed L
    sed -n "${first},$((first + 5))p" "$log" | seed A
  done
  # The whole log, into the discarding sink and into every reporter.
  seed A < "$log"
  seed C < "$log"
done
for gz in "$root"/Tests/LCTraceKitTests/Fixtures/gzip/*.gz; do
  seed A < "$gz"
done
# (wc pads its count with spaces on macOS.)
echo "$(($(find "$out" -type f | wc -l))) seeds in $out"
