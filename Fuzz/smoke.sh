#!/usr/bin/env bash
# Builds the fuzz target and runs it for a few seconds on the seed corpus: a quick check that it builds, runs and
# finds nothing at once. Usage: Fuzz/smoke.sh [SECONDS] (default 20). Not run by CI.
#
# New inputs found go to a temporary directory, thrown away at the end; a crash is kept in Fuzz/artifacts/ and makes
# the script fail.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-20}"

flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
if [ "$(uname)" = Linux ]; then
  # gold, the default linker, fails on the two definitions of `main` (SwiftPM's and libFuzzer's); lld links.
  flags+=(-Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld)
fi
# Without the manifest cache, a file added to LCTraceKit is seen by this package's build.
if ! swift build "${flags[@]}" --disable-build-manifest-caching; then
  if [ "$(uname)" = Darwin ]; then
    echo "smoke.sh: on macOS, -sanitize=fuzzer needs a swift.org toolchain (Xcode's has no libFuzzer): install one" \
      "and run TOOLCHAINS=swift Fuzz/smoke.sh (README.md)" >&2
  fi
  exit 1
fi
fuzzer="$(swift build "${flags[@]}" --show-bin-path)/lctrace-fuzz"

[ -d seeds ] || ./seed-corpus.sh
mkdir -p artifacts
# A trap is reported by libFuzzer (stack, input saved); Swift's own backtracer would first trip AddressSanitizer.
export SWIFT_BACKTRACE=enable=no
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$fuzzer" "$work" seeds -dict=lctrace.dict -max_len=1024 -timeout=10 -max_total_time="$seconds" \
  -print_final_stats=1 -artifact_prefix=artifacts/
