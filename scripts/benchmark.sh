#!/usr/bin/env bash
# The performance benchmark: generates deterministic logs of realistic lifecycle traffic, then times lctrace
# against GNU grep counting / printing the same lifecycle lines, alternating the commands and the input sizes
# run by run, and prints medians, ratios and peak memory as a Markdown table. Exits 1 when a timed command fails, and
# when a goal is missed:
#   - lctrace check                      <= 1.0 x  grep -cP PATTERN        (1 GiB)
#   - lctrace --format ndjson            <= 1.5 x  grep -P PATTERN > file   (1 GiB)
#   - a whole-device log (`log show --style compact`: other processes around the app, whose lines are 2 % of
#     DEVICE bytes): lctrace check <= 1.0 x grep -cP with a pattern of the app's lifecycle lines and their header
#   - lctrace check --jobs 2 on one large file at least 1.9 x as fast as --jobs 1 (with 2 cores or more)
#   - peak resident memory <= 64 MiB for every lctrace run
#   - linear time: 1 GiB takes 9-11 x what 100 MiB takes (lctrace json)
#   - no error or warning on legal traffic: the benchmark's inputs, and a log of the generator's legal traffic logged by
#     class name alone (same class pushed onto itself, a stack per tab, sheets, cancelled gestures…), SMALL in size
#   - one endless session (what `log stream | lctrace` is): 2 M events in one session, once from one controller shown
#     500,000 times, once from 400,000 instances living one after another at addresses of their own, each in the
#     text, JSON and JSON Lines reports without events: peak resident memory <= 64 MiB, and each run <= 30 s (the time
#     must grow with the events, not with the square of the instances)
# The JSON report without events, the default text report (lctrace FILE) and check with one job are timed too, for
# information, and so are two runs of check with one job started at once (with 2 cores or more): against one run
# alone, a reference for two jobs' scaling, what two independent single-job runs reach on this machine (it moves from
# run to run, like the other ratios); and, on the large log, the bytes JSON Lines and grep -P print, written alone to
# the same file (dd from /dev/zero, a MiB at a time): what the machine takes to put each output in memory, which
# bounds JSON Lines' time from below (its output is about 3.2 times grep's, and the time to write new bytes into
# memory moves a lot from run to run). On the large log it also times JSON Lines with its output sent to /dev/null:
# its analysis and rendering without the kernel's copy of its bytes; its goal leaves 1.5 times grep -P printing's time
# less that for the copy. With valgrind installed, it also counts the instructions per input line of `check --jobs 1`
# on the first 10 MiB of the large log and of the device log (callgrind on a stripped build, less the start-up a
# one-line input takes), against a goal of about 2,000 (information: instruction counts are not timed goals), and
# prints them stage by stage: the header, the message, the rest of reading and the sessions.
#
#   scripts/benchmark.sh              # 100M and 1G, 3 runs each
#   RUNS=5 scripts/benchmark.sh
#   SMALL_REPEAT=5 DEVICE_REPEAT=11 scripts/benchmark.sh   # more runs of the short inputs a round
#   SMALL=10M LARGE=100M DEVICE=20M scripts/benchmark.sh   # a quick run (the ratios still apply; linearity is 10 x)
#
# It needs bash 4 or later, GNU time and GNU grep with -P. On Linux these are the system's (/usr/bin/time from
# Debian's `time`); on macOS, Homebrew's: `brew install bash gnu-time grep coreutils`, with Homebrew's bash first on
# PATH or named to run the script; GNU time and grep are then gtime and ggrep, and the processor count comes from
# nproc, gnproc, getconf or sysctl, whichever there is.
set -euo pipefail
cd "$(dirname "$0")/.."

TIME=/usr/bin/time
GREP="grep"
DATE="date"
if [ "$(uname -s)" = Darwin ]; then
    if command -v gtime >/dev/null 2>&1; then TIME=gtime; fi
    if command -v ggrep >/dev/null 2>&1; then GREP=ggrep; fi
    if command -v gdate >/dev/null 2>&1; then DATE=gdate; fi
fi
lacking=()
[ "${BASH_VERSINFO[0]}" -ge 4 ] || lacking+=("bash 4 or later (this is $BASH_VERSION, $BASH)")
"$TIME" -f '%e %M' -o /dev/null true >/dev/null 2>&1 || lacking+=("GNU time ($TIME -f FORMAT -o FILE)")
printf 'a b\n' | "$GREP" -cP '\w \w' >/dev/null 2>&1 || lacking+=("GNU grep with Perl regular expressions ($GREP -P)")
[ -n "${EPOCHREALTIME:-}" ] || [[ "$("$DATE" +%6N 2>/dev/null)" =~ ^[0-9]{6}$ ]] \
    || lacking+=("bash 5, or GNU date ($DATE +%N), for a clock finer than GNU time's 10 ms")
if [ "${#lacking[@]}" -gt 0 ]; then
    echo "benchmark.sh: missing what it needs:" >&2
    printf '  - %s\n' "${lacking[@]}" >&2
    if [ "$(uname -s)" = Darwin ]; then
        echo "On macOS: brew install bash gnu-time grep coreutils; the benchmark then uses gtime, ggrep, and gnproc (or" \
            "sysctl -n hw.ncpu). Run it with Homebrew's bash: first on PATH (eval \"\$(brew shellenv)\"), or as" \
            "\"\$(brew --prefix)/bin/bash\" scripts/benchmark.sh" >&2
    else
        echo "On Debian/Ubuntu: apt-get install time grep" >&2
    fi
    exit 1
fi
# Peak memory in KiB, as GNU time reports it on Linux. macOS gives ru_maxrss in bytes: a GNU time that prints it as it
# is reports more than 64 MiB for `true`, which cannot be KiB, and its numbers are divided by 1024.
RSS_DIVISOR=1
if [ "$(uname -s)" = Darwin ] && [ "$("$TIME" -f '%M' true 2>&1 >/dev/null)" -gt 65536 ]; then RSS_DIVISOR=1024; fi
processors() { nproc 2>/dev/null || gnproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpu; }

RUNS=${RUNS:-3}
SMALL_REPEAT=${SMALL_REPEAT:-3}
# The device log's runs take a tenth of a second, within a few percent of grep's: seven a round steady their median.
DEVICE_REPEAT=${DEVICE_REPEAT:-7}
SMALL=${SMALL:-100M}
LARGE=${LARGE:-1G}
HABITS_SIZE=${HABITS_SIZE:-20M}
DEVICE=${DEVICE:-200M}
SEED=${SEED:-1}
DATA=bench-data
mkdir -p "$DATA"

scripts/install-deps.sh >/dev/null
# The release build `make build` makes: on Linux with the Swift runtime linked in, as installed.
RELEASE_FLAGS=()
[ "$(uname -s)" = Linux ] && RELEASE_FLAGS=(--static-swift-stdlib)
swift build -c release ${RELEASE_FLAGS[@]+"${RELEASE_FLAGS[@]}"} --product lctrace >&2
swift build -c release ${RELEASE_FLAGS[@]+"${RELEASE_FLAGS[@]}"} --product lctrace-loggen >&2
LCTRACE=.build/release/lctrace
LOGGEN=.build/release/lctrace-loggen

# The lifecycle lines the generator writes (NSLog classic format): `Class >>>> selector`, main(), UIKit's warning.
PATTERN='\] (?:\w+ +>{2,} +\w+|main\(\)$|Received memory warning\.)'

for size in "$SMALL" "$LARGE"; do
    file="$DATA/$size.log"
    if [ ! -s "$file" ] || [ "$(cat "$file.seed" 2>/dev/null)" != "$SEED" ]; then
        echo "generating $file (seed $SEED)…" >&2
        "$LOGGEN" --bytes "$size" --seed "$SEED" > "$file"
        echo "$SEED" > "$file.seed"
    fi
done

# A whole-device log in `log show --style compact`: the shop app's launches with SpringBoard, daemons and the kernel
# logging around them, the app's lines 2 % of the lines; and the pattern of the app's lifecycle lines with their header.
device_log="$DATA/device-$DEVICE.log"
if [ ! -s "$device_log" ] || [ "$(cat "$device_log.seed" 2>/dev/null)" != "$SEED" ]; then
    echo "generating $device_log (seed $SEED)…" >&2
    "$LOGGEN" --bytes "$DEVICE" --seed "$SEED" --format log-compact --app-share 0.02 > "$device_log"
    echo "$SEED" > "$device_log.seed"
fi
DEVICE_PATTERN='^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \w\w ShopApp\[\d+:[0-9a-f]+\] \[[^\]]*\] (?:\w+ \w+(?:\(\S*\))?$|main\(\)$|Received memory warning\.$)'

# One session without end, 2,000,001 lines each: one controller loaded once, then shown and hidden 500,000 times; and
# 400,000 instances of one class, each at an address of its own, loaded, shown, hidden and deallocated in turn.
endless_one="$DATA/endless-one-controller.log"
endless_many="$DATA/endless-400k-instances.log"
[ -s "$endless_one" ] || awk 'BEGIN { print "V viewDidLoad()"; for (i = 0; i < 500000; i++) {
    print "V viewWillAppear(_:)"; print "V viewDidAppear(_:)"; print "V viewWillDisappear(_:)"; print "V viewDidDisappear(_:)" } }' > "$endless_one"
[ -s "$endless_many" ] || awk 'BEGIN { for (i = 0; i < 400000; i++) { a = sprintf("<M.C: 0x6000%08x>", 16 * i)
    print a " viewDidLoad()"; print a " viewWillAppear(_:)"; print a " viewDidAppear(_:)"; print a " viewWillDisappear(_:)"
    print a " viewDidDisappear(_:)"; print a " deinit" } }' > "$endless_many"

# The wall clock in microseconds: GNU time's %e counts in 10 ms steps, an eighth of the device log's grep run and a
# thirtieth of the 100 MiB JSON report's, which moved those ratios by a tenth from one run to the next. Bash 5 has it
# built in (its decimal point is the locale's: only the digits are kept); an older bash asks GNU date. The span
# timed includes GNU time's own start, about a millisecond, alike for every command.
if [ -n "${EPOCHREALTIME:-}" ]; then
    clock() { REPLY=${EPOCHREALTIME//[!0-9]/}; }
else
    clock() { REPLY=$("$DATE" +%s%6N); }
fi
# Where a timed command's output goes: a file in memory (tmpfs) where there is one with room for three times the
# large log (JSON Lines of it are about 2.3 times its size), else in $DATA. Not /dev/null, where GNU grep stops at its
# first match. A file on disk is written back while the next commands run, which slows them (docs/performance.md).
OUT="$DATA/out.tmp"
shm_room_kib=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
large_kib=$(( $(wc -c < "$DATA/$LARGE.log") / 1024 ))
if [ -d /dev/shm ] && [ -w /dev/shm ] && [ "${shm_room_kib:-0}" -gt $(( 3 * large_kib )) ]; then
    OUT=$(mktemp /dev/shm/lctrace-bench.XXXXXX)
fi
trap 'rm -f "$OUT" "$OUT.2"' EXIT
# Runs the command once (the caller interleaves the commands), its output kept in $OUT; prints "seconds
# peak-RSS-KiB". Every command timed here exits 0 on these logs (lctrace's runs give no --fail-on but never; grep
# finds lines in each): one that does not timed a failure, not the work, and the benchmark stops and says which.
# (Called in a command substitution, the exit ends the substitution, whose status ends the script under `set -e`.)
measure() {
    local start status=0
    # Emptied before the clock starts: freeing the last command's output (2.5 GB of JSON Lines, about 0.3 s in tmpfs)
    # is not this command's work.
    : > "$OUT"
    clock
    start=$REPLY
    "$TIME" -f "%M" -o "$DATA/time.tmp" "$@" > "$OUT" || status=$?
    clock
    if [ "$status" -ne 0 ]; then
        echo "benchmark: '$*' exited with status $status; its time is not a measure" >&2
        exit 1
    fi
    awk -v start="$start" -v end="$REPLY" -v d="$RSS_DIVISOR" '{ rss = $1 } END { printf "%.4f %d\n", (end - start) / 1e6, rss / d }' "$DATA/time.tmp"
}

# Runs two of the command at once, each with its output in a file of its own, and prints the seconds until both have
# ended. Against the time of one run alone, a reference for two jobs' scaling: what two independent single-job runs
# of the same work reach on this machine. It moves from run to run (a ratio above 2 is such a move), and the pair's
# time is that of the slower of the two.
measure_pair() {
    local start first second status=0
    : > "$OUT"
    : > "$OUT.2"
    clock
    start=$REPLY
    "$@" > "$OUT" &
    first=$!
    "$@" > "$OUT.2" &
    second=$!
    wait "$first" || status=$?
    wait "$second" || status=$?
    clock
    if [ "$status" -ne 0 ]; then
        echo "benchmark: two of '$*' at once: a run exited with status $status; their time is not a measure" >&2
        exit 1
    fi
    awk -v start="$start" -v end="$REPLY" 'BEGIN { printf "%.4f\n", (end - start) / 1e6 }'
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# Writes the given number of MiB of zeros to standard output: the printing commands' bytes, without the work that
# made them.
write_zeros() { measure sh -c 'exec dd if=/dev/zero bs=1048576 count="$1" 2>/dev/null' write-zeros "$1"; }
# Runs the command with its output sent to /dev/null, which lctrace renders and writes as to any file while the kernel
# copies nothing: JSON Lines' analysis and rendering without the kernel's copy of its bytes. For lctrace only: GNU grep
# stops at its first match when its output is /dev/null (see OUT).
measure_discarded() { measure sh -c 'exec "$@" > /dev/null' discarded "$@"; }
# The last command's output in MiB, rounded up.
output_blocks() { echo $(( ($(wc -c < "$OUT") + 1048575) / 1048576 )); }

COMMANDS="wc grep-count lctrace-check lctrace-check-1-job lctrace-json grep-print lctrace-ndjson lctrace-text"
DEVICE_COMMANDS="grep-count lctrace-check"
declare -A times rss print_blocks ndjson_blocks
status=0
# Errors and warnings in a summary: every one on legal traffic is a false alarm. (An info finding is not: it tells of
# what the log shows, such as a gap in it, without judging the app.)
findings() { tr -d ' \n' < "$1" | grep -o '"findings":{"error":[0-9]*,"warning":[0-9]*' | tail -1 | grep -o '[0-9]*' | awk '{ n += $1 } END { print n + 0 }'; }
report="$DATA/report.tmp"
legal="$DATA/legal-$SMALL.log"
if [ ! -s "$legal" ] || [ "$(cat "$legal.seed" 2>/dev/null)" != "$SEED" ]; then
    "$LOGGEN" --traffic legal --style swift --format nslog-modern --bytes "$SMALL" --seed "$SEED" > "$legal"
    echo "$SEED" > "$legal.seed"
fi
"$LCTRACE" --format json --no-events "$legal" > "$report"
false_findings=$(findings "$report")
# Legal traffic of an app with every logging habit at once (no load lines, no dealloc, one class on several tabs,
# many sheets of one class…), where identity needs several readings: its errors and warnings (false findings, for
# information: the identity tests hold each combination to its figure) and the time per MB against plain traffic.
habits_log="$DATA/habits-$HABITS_SIZE.log"
if [ ! -s "$habits_log" ] || [ "$(cat "$habits_log.seed" 2>/dev/null)" != "$SEED" ]; then
    "$LOGGEN" --traffic legal --style arrows --format nslog-modern --bytes "$HABITS_SIZE" --seed "$SEED" \
        --habit no-load --habit no-dealloc --habit loadview-sometimes --habit memory-warnings-everywhere \
        --habit same-class-tabs --habit many-sheets > "$habits_log"
    echo "$SEED" > "$habits_log.seed"
fi
"$LCTRACE" --format json --no-events "$habits_log" > "$report"
habit_findings=$(findings "$report")
habit_seconds=()
for _ in $(seq "$RUNS"); do
    # check exits 1 when it reports an error: only its time is wanted here.
    habit_seconds+=("$({ "$TIME" -f '%e' "$LCTRACE" check --no-config "$habits_log" 2>&1 >/dev/null || true; } | tail -1)")
done
# Warms the page cache with FILE, adds the errors and warnings lctrace reports on it (all false: it is legal traffic)
# to false_findings, and checks that lctrace's event count equals grep's count of PATTERN, or the comparison is not
# like for like.
compare_events() {
    local file=$1 pattern=$2 events matches
    cat "$file" > /dev/null
    "$LCTRACE" --format json --no-events "$file" > "$report"
    events=$(grep -o '"events": [0-9]*' "$report" | tail -1 | grep -o '[0-9]*$')
    false_findings=$((false_findings + $(findings "$report")))
    matches=$("$GREP" -cP "$pattern" "$file")
    if [ "$events" != "$matches" ]; then
        echo "event count $events differs from grep's $matches on $file" >&2
        status=1
    fi
}
compare_events "$DATA/$SMALL.log" "$PATTERN"
compare_events "$DATA/$LARGE.log" "$PATTERN"
compare_events "$device_log" "$DEVICE_PATTERN"
# Each round runs every command on both inputs, the small one SMALL_REPEAT times, then the device log's pair
# DEVICE_REPEAT times: both sizes meet the machine's slow and fast spells alike (the linearity check divides one by
# the other), and the short runs, more numerous, steady their median.
for _ in $(seq "$RUNS"); do
    for size in "$SMALL" "$LARGE"; do
        file="$DATA/$size.log"
        repeats=1
        [ "$size" = "$SMALL" ] && repeats=$SMALL_REPEAT
        for _ in $(seq "$repeats"); do
            for name in $COMMANDS; do
                case $name in
                    wc) result=$(measure wc -l "$file") ;;
                    grep-count) result=$(measure "$GREP" -cP "$PATTERN" "$file") ;;
                    grep-print) result=$(measure "$GREP" -P "$PATTERN" "$file"); print_blocks[$size]=$(output_blocks) ;;
                    lctrace-json) result=$(measure "$LCTRACE" --format json --no-events "$file") ;;
                    lctrace-check) result=$(measure "$LCTRACE" check --quiet --fail-on never "$file") ;;
                    lctrace-check-1-job) result=$(measure "$LCTRACE" check --quiet --fail-on never --jobs 1 "$file") ;;
                    lctrace-ndjson) result=$(measure "$LCTRACE" --format ndjson "$file"); ndjson_blocks[$size]=$(output_blocks) ;;
                    lctrace-text) result=$(measure "$LCTRACE" "$file") ;;
                esac
                times[$size/$name]+="${result% *} "
                rss[$size/$name]+="${result#* } "
            done
            if [ "$size" = "$LARGE" ]; then
                times[$size/write-print-bytes]+="$(write_zeros "${print_blocks[$size]}" | cut -d' ' -f1) "
                times[$size/write-ndjson-bytes]+="$(write_zeros "${ndjson_blocks[$size]}" | cut -d' ' -f1) "
                result=$(measure_discarded "$LCTRACE" --format ndjson "$file")
                times[$size/lctrace-ndjson-discarded]+="${result% *} "
                rss[$size/lctrace-ndjson-discarded]+="${result#* } "
            fi
        done
    done
    if [ "$(processors)" -ge 2 ]; then
        times[$LARGE/two-check-1-job-at-once]+="$(measure_pair "$LCTRACE" check --quiet --fail-on never --jobs 1 "$DATA/$LARGE.log") "
    fi
    for _ in $(seq "$DEVICE_REPEAT"); do
        for name in $DEVICE_COMMANDS; do
            case $name in
                grep-count) result=$(measure "$GREP" -cP "$DEVICE_PATTERN" "$device_log") ;;
                lctrace-check) result=$(measure "$LCTRACE" check --quiet --fail-on never "$device_log") ;;
            esac
            times[device/$name]+="${result% *} "
            rss[device/$name]+="${result#* } "
        done
    done
done
# The endless sessions, once each: the memory goal holds for every run, not for a median.
declare -A endless
for file in "$endless_one" "$endless_many"; do
    for format in text json ndjson; do
        endless[$(basename "$file" .log)/$format]=$(measure "$LCTRACE" --format "$format" --no-events "$file")
    done
done
rm -f "$OUT" "$OUT.2" "$DATA/time.tmp" "$report"

med() { echo "${times[$1]}" | tr ' ' '\n' | grep . | median; }
peak() { echo "${rss[$1]}" | tr ' ' '\n' | grep . | sort -n | tail -1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
check() { if within "$@"; then echo "met"; else echo "**missed**"; fi; }

# Instructions per input line (callgrind, when valgrind is installed): `check --jobs 1` on the first 10 MiB of the
# large log and of the device log, less the start-up of a one-line input. valgrind cannot read the release binary's
# debug information, so a stripped copy runs.
# Stage by stage as well: the header, the message and the sessions are the inclusive counts of the functions that do
# them (`HandHeader.parse`, `MessageParser.read`, `InputSessions.take`, found by their symbols' prefixes; a stage
# whose function is not found, inlined or renamed, shows `?`), and the rest of reading is what is left.
declare -A per_line stage
STAGE_SYMBOLS=(
    "header=\$s10LCTraceKit10HandHeaderO5parse_4from4tail"
    "message=\$s10LCTraceKit13MessageParserC4read_7message"
    "sessions=\$s10LCTraceKit13InputSessionsC4takeySbAA5EventVnF"
)
if command -v valgrind >/dev/null 2>&1; then
    stripped="$DATA/lctrace.stripped"
    strip --strip-debug -o "$stripped" "$LCTRACE" 2>/dev/null || cp "$LCTRACE" "$stripped"
    instructions() { valgrind --tool=callgrind --callgrind-out-file="$2" "$stripped" check --no-config --jobs 1 --fail-on never \
        --quiet "$1" 2>&1 >/dev/null | awk '/Collected/ { print $NF }'; }
    # The inclusive count of the function whose symbol starts with $2 in the callgrind file $1 (not its recursive calls).
    # (awk reads to the end: a reader that stopped early would fail the pipe.)
    inclusive() {
        callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null | awk -v prefix="$2" '
            BEGIN { quote = sprintf("%c", 39) }
            found == "" {
                for (i = 2; i <= NF; i++) {
                    split($i, parts, ":")
                    if (index(parts[2], prefix) == 1 && index(parts[2], quote) == 0) { found = $1; gsub(",", "", found); break }
                }
            }
            END { print found }'
    }
    for input in "$LARGE" device; do
        source_log="$DATA/$input.log"
        [ "$input" = device ] && source_log="$device_log"
        head -c 10485760 "$source_log" | awk '{ print }' > "$DATA/head.tmp"
        head -1 "$DATA/head.tmp" > "$DATA/one.tmp"
        total=$(instructions "$DATA/head.tmp" "$DATA/head.callgrind")
        start_up=$(instructions "$DATA/one.tmp" /dev/null)
        lines=$(wc -l < "$DATA/head.tmp")
        per_line[$input]=$(awk -v t="$total" -v s="$start_up" -v n="$lines" 'BEGIN { printf "%d", (t - s) / (n - 1) }')
        rest=${per_line[$input]}
        for entry in "${STAGE_SYMBOLS[@]}"; do
            name=${entry%%=*}
            count=""
            command -v callgrind_annotate >/dev/null 2>&1 && count=$(inclusive "$DATA/head.callgrind" "${entry#*=}")
            if [ -n "$count" ] && [ "$rest" != "?" ]; then
                stage[$input/$name]=$(awk -v c="$count" -v n="$lines" 'BEGIN { printf "%d", c / (n - 1) }')
                rest=$((rest - stage[$input/$name]))
            else
                stage[$input/$name]="?"
                rest="?"
            fi
        done
        stage[$input/rest]=$rest
    done
    rm -f "$stripped" "$DATA/head.tmp" "$DATA/one.tmp" "$DATA/head.callgrind"
fi

echo
echo "Machine: $(processors) cores, $(uname -sr); $("$GREP" --version | head -1); lctrace $(git rev-parse --short HEAD 2>/dev/null || echo '?'); median of $RUNS runs ($SMALL: $((RUNS * SMALL_REPEAT)), device: $((RUNS * DEVICE_REPEAT)))"
echo
echo "| input | command | median s | peak RSS MiB |"
echo "|---|---|---|---|"
for size in "$SMALL" "$LARGE"; do
    for name in $COMMANDS; do
        echo "| $size | $name | $(med "$size/$name") | $(mib "$(peak "$size/$name")") |"
    done
done
if [ -n "${times[$LARGE/two-check-1-job-at-once]:-}" ]; then
    echo "| $LARGE | two lctrace-check-1-job at once (until both end) | $(med "$LARGE/two-check-1-job-at-once") | |"
fi
echo "| $LARGE | grep-print's ${print_blocks[$LARGE]} MiB written alone (dd) | $(med "$LARGE/write-print-bytes") | |"
echo "| $LARGE | lctrace-ndjson's ${ndjson_blocks[$LARGE]} MiB written alone (dd) | $(med "$LARGE/write-ndjson-bytes") | |"
echo "| $LARGE | lctrace-ndjson, its output discarded (/dev/null) | $(med "$LARGE/lctrace-ndjson-discarded") | $(mib "$(peak "$LARGE/lctrace-ndjson-discarded")") |"
for name in $DEVICE_COMMANDS; do
    echo "| device $DEVICE | $name | $(med "device/$name") | $(mib "$(peak "device/$name")") |"
done
echo
check_ratio=$(ratio "$(med "$LARGE/lctrace-check")" "$(med "$LARGE/grep-count")")
json_ratio=$(ratio "$(med "$LARGE/lctrace-json")" "$(med "$LARGE/grep-count")")
ndjson_ratio=$(ratio "$(med "$LARGE/lctrace-ndjson")" "$(med "$LARGE/grep-print")")
device_ratio=$(ratio "$(med "device/lctrace-check")" "$(med "device/grep-count")")
scaling=$(ratio "$(med "$LARGE/lctrace-check-1-job")" "$(med "$LARGE/lctrace-check")")
linear=$(ratio "$(med "$LARGE/lctrace-json")" "$(med "$SMALL/lctrace-json")")
highest_rss=0
for key in "${!rss[@]}"; do
    case $key in */lctrace-*) highest_rss=$(printf '%s\n' "$highest_rss" ${rss[$key]} | sort -n | tail -1) ;; esac
done
highest_rss=$(mib "$highest_rss")
scaling_target=1.9
[ "$(processors)" -ge 2 ] || scaling_target=0
echo "| goal | measured | target | |"
echo "|---|---|---|---|"
echo "| lctrace check / grep -cP ($LARGE) | $check_ratio | <= 1.0 | $(check "$check_ratio" 0 1.0) |"
echo "| lctrace ndjson / grep -P printing ($LARGE) | $ndjson_ratio | <= 1.5 | $(check "$ndjson_ratio" 0 1.5) |"
echo "| device log: lctrace check / grep -cP of the app's lines ($DEVICE, the app 2 % of lines) | $device_ratio | <= 1.0 | $(check "$device_ratio" 0 1.0) |"
echo "| check --jobs 1 / check --jobs 2 ($LARGE) | $scaling | >= $scaling_target | $(check "$scaling" "$scaling_target" 1000) |"
echo "| peak RSS, every lctrace run above | $highest_rss MiB | <= 64 MiB | $(check "$highest_rss" 0 64) |"
echo "| time $LARGE / time $SMALL (lctrace json) | $linear | 9-11 | $(check "$linear" 9 11) |"
echo "| errors + warnings on legal traffic ($SMALL, $LARGE, device, legal-$SMALL by class name) | $false_findings | 0 | $(check "$false_findings" 0 0) |"
if [ -n "${times[$LARGE/two-check-1-job-at-once]:-}" ]; then
    # Two runs' worth of work in the time both took, against one run's in the time it took alone.
    pair_reference=$(awk -v one="$(med "$LARGE/lctrace-check-1-job")" -v two="$(med "$LARGE/two-check-1-job-at-once")" \
        'BEGIN { printf "%.2f", (two > 0 ? 2 * one / two : 0) }')
    echo "| two check --jobs 1 at once ($LARGE): twice one's time alone / the pair's time (until both end), for comparison with two jobs' scaling | $pair_reference | (information) | |"
fi
echo "| lctrace json --no-events / grep -cP ($LARGE) | $json_ratio | (information) | |"
# What writing the two outputs' bytes alone takes, against grep's whole run: JSON Lines cannot take less than its own
# bytes' writing, shared by two cores with the analysis and the rendering.
echo "| writing lctrace ndjson's bytes alone / grep -P printing ($LARGE) | $(ratio "$(med "$LARGE/write-ndjson-bytes")" "$(med "$LARGE/grep-print")") | (information) | |"
# JSON Lines with nothing stored: what its goal leaves for the kernel's copy of its bytes is 1.5 minus this.
echo "| lctrace ndjson, its output discarded / grep -P printing ($LARGE) | $(ratio "$(med "$LARGE/lctrace-ndjson-discarded")" "$(med "$LARGE/grep-print")") | (information) | |"
echo "| writing grep -P's printed bytes alone / grep -P printing ($LARGE) | $(ratio "$(med "$LARGE/write-print-bytes")" "$(med "$LARGE/grep-print")") | (information) | |"
echo "| errors + warnings on legal traffic with every logging habit ($HABITS_SIZE, identity by readings) | $habit_findings | (information) | |"
echo "| lctrace check on it, median of $RUNS | $(printf '%s\n' "${habit_seconds[@]}" | median) s | (information) | |"
for input in "$LARGE" device; do
    [ -n "${per_line[$input]:-}" ] || continue
    echo "| instructions per line, check --jobs 1, first 10 MiB of the $input log (callgrind) | ${per_line[$input]} | about 2,000 (information) | |"
done
endless_met=0
for key in $(printf '%s\n' "${!endless[@]}" | sort); do
    result=${endless[$key]}
    seconds=${result% *}
    endless_rss=$(mib "${result#* }")
    echo "| one endless session, $key --no-events: peak RSS, time | $endless_rss MiB, $seconds s | <= 64 MiB, <= 30 s | $(within "$endless_rss" 0 64 && within "$seconds" 0 30 && echo met || echo '**missed**') |"
    within "$endless_rss" 0 64 && within "$seconds" 0 30 || endless_met=1
done
[ "$endless_met" = 0 ] || status=1
if [ -n "${per_line[$LARGE]:-}" ]; then
    echo
    echo "| instructions per line, check --jobs 1, first 10 MiB (callgrind) | $LARGE log | device log |"
    echo "|---|---:|---:|"
    echo "| the header: time, process, pid, thread (HandHeader.parse) | ${stage[$LARGE/header]} | ${stage[device/header]} |"
    echo "| the message: one lookup for a message met before (MessageParser.read) | ${stage[$LARGE/message]} | ${stage[device/message]} |"
    echo "| the rest of reading: lines, dispatch, the event made of the message | ${stage[$LARGE/rest]} | ${stage[device/rest]} |"
    echo "| sessions: identity, lifecycle rules, transitions, leaks (InputSessions.take) | ${stage[$LARGE/sessions]} | ${stage[device/sessions]} |"
    echo "| total | ${per_line[$LARGE]} | ${per_line[device]} |"
fi
within "$false_findings" 0 0 && within "$check_ratio" 0 1.0 && within "$ndjson_ratio" 0 1.5 && within "$device_ratio" 0 1.0 \
    && within "$scaling" "$scaling_target" 1000 && within "$highest_rss" 0 64 && within "$linear" 9 11 || status=1
exit $status
