#!/usr/bin/env bash
# Installs what is missing, builds lctrace, and runs it on a sample log (or on the files given).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --product lctrace >&2
if [ "$#" -eq 0 ]; then set -- SampleLogs/seed-push-pop.log; fi
exec .build/debug/lctrace "$@"
