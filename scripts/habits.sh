#!/usr/bin/env bash
# What lctrace reports on legal traffic written with the generator's logging habits (lctrace-loggen --habit): for each
# combination of habits and each message style, generates `--traffic legal` of SIZE with a fixed seed, runs
# `lctrace --format json --no-events --no-config` on it (the default rule settings, whatever .lctrace.yml the working
# directory holds) and prints a Markdown table of the errors, the warnings and the three commonest rules among them.
# Legal traffic holds only sequences UIKit produces, so every error or warning is a false finding.
#
#   scripts/habits.sh                    # all 64 combinations x 4 styles, 1M each
#   scripts/habits.sh --quick            # no habit, each habit alone, and all of them together
#   scripts/habits.sh --bytes 4M --lctrace /path/to/lctrace --loggen /path/to/lctrace-loggen
#
# Options:
#   --lctrace PATH   the lctrace to run (default: $LCTRACE_BIN, else .build/release/lctrace)
#   --loggen PATH    the lctrace-loggen to run (default: $LOGGEN_BIN, else .build/release/lctrace-loggen)
#   --bytes SIZE     the size of each log, as lctrace-loggen reads it: 1024, 64K, 1M… (default 1M)
#   --seed N         the generator's seed (default 1)
#   --quick          8 combinations instead of 64
#
# It needs bash (3.2 or later) and python3. Exits 1 when a run fails, 2 on a usage error.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)

HABITS="no-load no-dealloc loadview-sometimes memory-warnings-everywhere same-class-tabs many-sheets"
STYLES="arrows objc swift swift-address"
LCTRACE=${LCTRACE_BIN:-$ROOT/.build/release/lctrace}
LOGGEN=${LOGGEN_BIN:-$ROOT/.build/release/lctrace-loggen}
BYTES=1M
SEED=1
QUICK=0

# The comment above, as help; exits with $1.
usage() {
    sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
    exit "$1"
}

while [ $# -gt 0 ]; do
    case "$1" in
        --lctrace) [ $# -ge 2 ] || usage 2; LCTRACE=$2; shift 2 ;;
        --loggen) [ $# -ge 2 ] || usage 2; LOGGEN=$2; shift 2 ;;
        --bytes) [ $# -ge 2 ] || usage 2; BYTES=$2; shift 2 ;;
        --seed) [ $# -ge 2 ] || usage 2; SEED=$2; shift 2 ;;
        --quick) QUICK=1; shift ;;
        -h|--help) usage 0 ;;
        *) echo "habits.sh: unknown option $1" >&2; usage 2 ;;
    esac
done

for tool in "$LCTRACE" "$LOGGEN"; do
    if [ ! -x "$tool" ]; then
        echo "habits.sh: $tool is not an executable (build it: swift build -c release --product $(basename "$tool"))," \
            "or name another with --lctrace / --loggen" >&2
        exit 2
    fi
done
command -v python3 >/dev/null 2>&1 || { echo "habits.sh: python3 is needed to read lctrace's JSON report" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/lctrace-habits.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# The habits of combination MASK (bit i is the i-th habit), separated by spaces; empty for none.
habits_of() {
    local mask=$1 i=0 habit result=""
    for habit in $HABITS; do
        if [ $(( (mask >> i) & 1 )) -eq 1 ]; then result="$result $habit"; fi
        i=$((i + 1))
    done
    echo "${result# }"
}

# The combinations to run, as masks: every one of the 64, or none, each habit alone and all together.
count=$(echo "$HABITS" | wc -w | tr -d ' ')
all=$(( (1 << count) - 1 ))
if [ "$QUICK" -eq 1 ]; then
    masks=0
    i=0
    while [ $i -lt "$count" ]; do masks="$masks $((1 << i))"; i=$((i + 1)); done
    masks="$masks $all"
else
    masks=$(i=0; while [ $i -le $all ]; do echo $i; i=$((i + 1)); done)
fi

# errors, warnings and the three commonest rules (of the errors and warnings) of an lctrace JSON report, `|`-separated.
SUMMARY_PY='
import collections, json, sys
report = json.load(open(sys.argv[1]))
counts = report["summary"]["findings"]
rules = collections.Counter(f["rule"] for f in report["findings"] if f["severity"] in ("error", "warning"))
top = ", ".join("%s %d" % (rule, n) for rule, n in sorted(rules.items(), key=lambda item: (-item[1], item[0]))[:3])
print("%d|%d|%s" % (counts.get("error", 0), counts.get("warning", 0), top or "-"))
'

started=$(date +%s)
echo "Legal traffic, $BYTES per log, seed $SEED, nslog-classic lines; $LCTRACE --format json --no-events --no-config"
echo
echo "| habits | style | errors | warnings | top rules |"
echo "|---|---|---:|---:|---|"
for mask in $masks; do
    habits=$(habits_of "$mask")
    habit_args=""
    for habit in $habits; do habit_args="$habit_args --habit $habit"; done
    for style in $STYLES; do
        log="$WORK/legal.log"
        # $habit_args is split on purpose: habit names hold no spaces.
        # shellcheck disable=SC2086
        if ! "$LOGGEN" --traffic legal --bytes "$BYTES" --seed "$SEED" --style "$style" $habit_args > "$log"; then
            echo "habits.sh: $LOGGEN failed for habits '${habits:-none}', style $style" >&2
            exit 1
        fi
        status=0
        "$LCTRACE" --format json --no-events --no-config "$log" > "$WORK/report.json" 2> "$WORK/stderr" || status=$?
        if [ "$status" -ne 0 ]; then
            echo "habits.sh: $LCTRACE exited $status for habits '${habits:-none}', style $style:" >&2
            cat "$WORK/stderr" >&2
            exit 1
        fi
        row=$(python3 -c "$SUMMARY_PY" "$WORK/report.json")
        errors=${row%%|*}
        rest=${row#*|}
        warnings=${rest%%|*}
        top=${rest#*|}
        label=${habits:-none}
        label=${label// /, }
        echo "| $label | $style | $errors | $warnings | $top |"
    done
done
echo
echo "$(( $(date +%s) - started )) s"
