#!/usr/bin/env python3
"""Post-mortem across a fleet: many device logs into one view, with DuckDB on one machine or Spark on a cluster.

lctrace reads each log (`lctrace --format ndjson --no-events`, the wire format `docs/fleet/lctrace-ndjson.schema.json`
describes); this script turns its lines into five tables, the same for both engines, and runs the fleet report's SQL
(`docs/fleet/*.sql`) on them:

  inputs       one row per log: its app version and device (from its path, `--path-pattern`), what lctrace read,
               and the error when it could not be read
  sessions     one row per app launch: process, pid, launch time and launch durations
  controllers  one row per controller instance: class, time from viewDidLoad to its first viewDidAppear
  transitions  one row per transition: kind, from class, to class, duration
  findings     one row per finding: rule, severity, controller class, message

Every row carries the keys that join it: `log` (the log's path), `session`, `appVersion`, `device` and `logDate` (the
day of the log's first launch, else the day of the run).

  fleet.py duckdb LOGS… --db FILE [--jobs N] [--json]     one machine: DuckDB (pip install duckdb)
  fleet.py spark LOGS… --out DIR [--master local[2]]      a cluster: PySpark (pip install pyspark; Java 17)
  fleet.py report --db FILE [--json]                      the report of a DuckDB database made before
  fleet.py validate FILE…                                 checks lctrace JSON Lines against the schema
  fleet.py generate DIR --logs N                          a fleet of generated device logs to try it on

LOGS are files or folders (every .log, .txt, .gz, .ndjson and .json file below them). A log that cannot be read is
an `inputs` row with its error, and the run goes on. Runs are idempotent: the same logs give the same tables and
the same report.
"""

import argparse
import concurrent.futures
import datetime
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SQL_DIR = os.path.join(ROOT, "docs", "fleet")
SCHEMA = os.path.join(SQL_DIR, "lctrace-ndjson.schema.json")
LOG_SUFFIXES = (".log", ".txt", ".gz", ".ndjson", ".json")

# The tables' columns, in order, with their types: one description for DuckDB and Spark alike.
KEYS = [("log", "string"), ("appVersion", "string"), ("device", "string"), ("logDate", "string")]
TABLES = {
    "inputs": KEYS + [("format", "string"), ("bytes", "long"), ("lines", "long"), ("events", "long"),
                      ("sessions", "long"), ("status", "long"), ("error", "string")],
    "sessions": KEYS + [("session", "long"), ("process", "string"), ("pid", "long"), ("startTime", "string"),
                        ("durationMs", "double"), ("mainToFirstAppearMs", "double"),
                        ("finishLaunchingToActiveMs", "double"), ("controllers", "long"), ("findings", "long")],
    "controllers": KEYS + [("session", "long"), ("id", "string"), ("class", "string"), ("identity", "string"),
                           ("finalState", "string"), ("loadToFirstAppearMs", "double")],
    "transitions": KEYS + [("session", "long"), ("kind", "string"), ("fromClass", "string"), ("toClass", "string"),
                           ("startLine", "long"), ("durationMs", "double")],
    "findings": KEYS + [("session", "long"), ("rule", "string"), ("severity", "string"), ("line", "long"),
                        ("controllerClass", "string"), ("message", "string")],
}
# The report's parts, in order: each a query in docs/fleet/NAME.sql.
REPORT = ["findings_by_rule", "slowest_transitions", "load_to_appear", "launches", "possible_leaks", "unreadable_inputs"]


def class_of(instance):
    """`DetailViewController#2` or `DetailViewController@0x6000…` → `DetailViewController`."""
    return None if instance is None else re.sub(r"[@#].*$", "", instance)


def find_logs(paths, paths_from=None):
    """The log files the paths name, folders walked (hidden ones left out), and those listed one per line in the file
    `paths_from` (object-store paths, read with `--fetch`), in path order."""
    logs = []
    if paths_from:
        with open(paths_from) as file:
            logs += [line.strip() for line in file if line.strip()]
    for path in paths:
        if os.path.isdir(path):
            for folder, subfolders, files in os.walk(path):
                subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
                logs += [os.path.join(folder, f) for f in files
                         if not f.startswith(".") and f.lower().endswith(LOG_SUFFIXES)]
        else:
            logs.append(path)
    return sorted(set(logs))


def read_log(lctrace, log, path_pattern, today, fetch=None):
    """Runs lctrace on one log and yields (table, row) for what it reports, its `inputs` row last. Streams: a log of
    any size is read in bounded memory. With `fetch` (a command with `{}` for the path, such as `aws s3 cp {} -`), the
    log is streamed from that command's output into lctrace, named by its path."""
    match = re.search(path_pattern, log) if path_pattern else None
    groups = match.groupdict() if match else {}
    keys = {"log": log, "appVersion": groups.get("version"), "device": groups.get("device"), "logDate": None}
    pending = []  # rows before the first launch's day is known
    counts = {"sessions": 0}
    read = {}

    def row(table, values):
        return table, {**keys, **values}

    command = [lctrace, "--no-config", "--format", "ndjson", "--no-events", "--jobs", "1", "--quiet"]
    fetcher = None
    if fetch:
        fetcher = subprocess.Popen([part.replace("{}", log) for part in shlex.split(fetch)], stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL)
        command += ["--stdin-name", log, "-"]
    else:
        command.append(log)
    # Standard error goes to a file, read at the end: a pipe read only then could fill and stall lctrace.
    errors_file = tempfile.TemporaryFile(mode="w+", errors="replace")
    process = subprocess.Popen(command, stdin=fetcher.stdout if fetcher else subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=errors_file, text=True, errors="replace")
    if fetcher:
        fetcher.stdout.close()  # lctrace holds it now
    for line in process.stdout:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        kind = record.get("type")
        out = []
        if kind == "session":
            counts["sessions"] += 1
            start = record.get("startTime") or ""
            if keys["logDate"] is None:
                # A first launch without a date: the log has none (a time of day, or no time), so the run's day.
                keys["logDate"] = start[:10] if re.match(r"\d{4}-\d{2}-\d{2}", start) else today
            launch = record.get("launch") or {}
            out.append(row("sessions", {
                "session": record["index"], "process": record.get("process"), "pid": record.get("pid"),
                "startTime": record.get("startTime"), "durationMs": record.get("durationMs"),
                "mainToFirstAppearMs": launch.get("mainToFirstAppearMs"),
                "finishLaunchingToActiveMs": launch.get("finishLaunchingToActiveMs"),
                "controllers": len(record.get("controllers", [])), "findings": record.get("findings")}))
            for controller in record.get("controllers", []):
                if controller.get("kind", "controller") != "controller":
                    continue
                out.append(row("controllers", {
                    "session": record["index"], "id": controller["id"], "class": controller["class"],
                    "identity": controller.get("identity"), "finalState": controller.get("finalState"),
                    "loadToFirstAppearMs": controller.get("loadToFirstAppearMs")}))
        elif kind == "transition":
            start = record.get("startTime") or ""
            if keys["logDate"] is None and re.match(r"\d{4}-\d{2}-\d{2}", start):
                keys["logDate"] = start[:10]
            out.append(row("transitions", {
                "session": record["session"], "kind": record["kind"], "fromClass": class_of(record.get("from")),
                "toClass": class_of(record.get("to")), "startLine": record.get("startLine"),
                "durationMs": record.get("durationMs")}))
        elif kind == "finding":
            out.append(row("findings", {
                "session": record["session"], "rule": record["rule"], "severity": record["severity"],
                "line": record.get("line"), "controllerClass": class_of(record.get("controller")),
                "message": record.get("message")}))
        elif kind == "input":
            read = record
        # Rows wait for the log's day, which its first dated transition or its first launch gives: only the first few.
        if keys["logDate"] is None:
            pending += out
            continue
        for table, values in pending + out:
            values["logDate"] = values["logDate"] or keys["logDate"]
            yield table, values
        pending = []
    status = process.wait()
    errors_file.seek(0)
    errors = errors_file.read()
    errors_file.close()
    if fetcher and fetcher.wait() != 0 and status < 2:
        status, errors = 2, f"{fetch} failed with status {fetcher.returncode}"
    keys["logDate"] = keys["logDate"] or today
    for table, values in pending:
        values["logDate"] = keys["logDate"]
        yield table, values
    # Exit status 1 only says a finding reached --fail-on (never, here); 2 is an input that could not be read.
    error = None
    if status >= 2 or status < 0:
        lines = [l for l in errors.splitlines() if l.strip()]
        error = (lines[-1] if lines else f"lctrace exited with status {status}").removeprefix("lctrace: ")
    yield row("inputs", {"logDate": keys["logDate"], "format": read.get("format"), "bytes": read.get("bytes"),
                         "lines": read.get("lines"), "events": read.get("events"), "sessions": counts["sessions"],
                         "status": status, "error": error})


def lctrace_path(given):
    for candidate in [given, os.path.join(ROOT, ".build", "release", "lctrace"), os.path.join(ROOT, ".build", "debug", "lctrace"),
                      shutil.which("lctrace")]:
        if candidate and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    sys.exit("fleet.py: no lctrace found: build it (swift build -c release) or name it with --lctrace")


def sql(name):
    with open(os.path.join(SQL_DIR, name + ".sql")) as file:
        return file.read()


def rounded(value):
    """To the microsecond of a millisecond figure. Rounded to 9 places first: two engines' interpolated percentiles can
    differ in the last bits, and one that lands on a half (18.8705) would otherwise round up in one and down in the
    other."""
    return round(round(value, 9), 3) if isinstance(value, float) else value


def print_report(report, as_json):
    if as_json:
        json.dump(report, sys.stdout, indent=2, sort_keys=False)
        print()
        return
    for name in REPORT:
        part = report[name]
        print(f"## {name.replace('_', ' ')}")
        if not part["rows"]:
            print("(none)\n")
            continue
        widths = [max(len(str(c)), *(len(str(r[i])) for r in part["rows"])) for i, c in enumerate(part["columns"])]
        print("  ".join(str(c).ljust(w) for c, w in zip(part["columns"], widths)))
        for r in part["rows"]:
            print("  ".join(str(v).ljust(w) for v, w in zip(r, widths)))
        print()


# MARK: DuckDB

def duckdb_run(args):
    import duckdb
    lctrace = lctrace_path(args.lctrace)
    logs = find_logs(args.logs, args.paths_from)
    if not logs:
        sys.exit("fleet.py: no log file in " + ", ".join(args.logs))
    work = args.work or (args.db + ".parts")
    if os.path.isdir(work):
        shutil.rmtree(work)
    os.makedirs(work)
    today = datetime.date.today().isoformat()

    def one(log):
        # Named after the log's path, so a run writes the same files each time.
        stem = os.path.join(work, hashlib.sha1(log.encode()).hexdigest()[:16])
        files = {table: open(f"{stem}.{table}.ndjson", "w") for table in TABLES}
        for table, values in read_log(lctrace, log, args.path_pattern, today, args.fetch):
            files[table].write(json.dumps(values) + "\n")
        for file in files.values():
            file.close()

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(one, logs))
    connection = duckdb.connect(args.db)
    for table, columns in TABLES.items():
        types = ", ".join(f"'{name}': '{ {'string': 'VARCHAR', 'long': 'BIGINT', 'double': 'DOUBLE'}[kind] }'"
                          for name, kind in columns)
        connection.execute(f"CREATE OR REPLACE TABLE {table} AS SELECT * FROM read_json("
                           f"'{work}/*.{table}.ndjson', format = 'newline_delimited', columns = {{{types}}})")
    connection.close()
    if not args.keep_parts:
        shutil.rmtree(work)
    duckdb_report(args)


def duckdb_report(args):
    import duckdb
    connection = duckdb.connect(args.db, read_only=True)
    report = {}
    for name in REPORT:
        result = connection.execute(sql(name))
        report[name] = {"columns": [d[0] for d in result.description],
                        "rows": [[rounded(v) for v in r] for r in result.fetchall()]}
    connection.close()
    print_report(report, args.json)
    return report


# MARK: Spark

def spark_run(args):
    from pyspark import SparkFiles, StorageLevel
    from pyspark.sql import SparkSession
    from pyspark.sql import types as T

    lctrace = lctrace_path(args.lctrace)
    logs = find_logs(args.logs, args.paths_from)
    if not logs:
        sys.exit("fleet.py: no log file in " + ", ".join(args.logs))
    builder = (SparkSession.builder.appName("lctrace fleet").config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false"))
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    # The binary goes to every executor with the job.
    spark.sparkContext.addFile(lctrace)
    name = os.path.basename(lctrace)
    pattern, today, fetch = args.path_pattern, datetime.date.today().isoformat(), args.fetch

    def rows(partition):
        binary = SparkFiles.get(name)
        os.chmod(binary, 0o755)
        for log in partition:
            for table, values in read_log(binary, log, pattern, today, fetch):
                yield table, json.dumps(values)

    spark_types = {"string": T.StringType(), "long": T.LongType(), "double": T.DoubleType()}
    partitions = min(len(logs), max(spark.sparkContext.defaultParallelism * 4, 1))
    # Kept for the five tables that are split from them, spilled to disk rather than read again.
    records = spark.sparkContext.parallelize(logs, partitions).mapPartitions(rows).persist(StorageLevel.MEMORY_AND_DISK)
    for table, columns in TABLES.items():
        schema = T.StructType([T.StructField(column, spark_types[kind]) for column, kind in columns])
        lines = records.filter(lambda record, table=table: record[0] == table).map(lambda record: record[1])
        frame = spark.read.schema(schema).json(lines) if not lines.isEmpty() else spark.createDataFrame([], schema)
        partition_by = ["rule", "logDate"] if table == "findings" else ["logDate"]
        frame.write.mode("overwrite").partitionBy(*partition_by).parquet(os.path.join(args.out, table))
    records.unpersist()
    report = spark_report(spark, args.out)
    spark.stop()
    print_report(report, args.json)
    return report


def spark_report(spark, out):
    for table in TABLES:
        spark.read.parquet(os.path.join(out, table)).createOrReplaceTempView(table)
    report = {}
    for name in REPORT:
        frame = spark.sql(sql(name))
        report[name] = {"columns": frame.columns, "rows": [[rounded(v) for v in r] for r in frame.collect()]}
    return report


# MARK: A generated fleet

HABITS = ["no-load", "no-dealloc", "loadview-sometimes", "memory-warnings-everywhere", "same-class-tabs", "many-sheets"]
STYLES = ["arrows", "objc", "swift", "swift-address"]


def generate(args):
    """`--logs` device logs of `lctrace-loggen`'s traffic under DIR/VERSION/device-NNNNN.log.gz: five app versions,
    each log its own seed, spelling and logging habits; one in ten, in every version, with planted deviations."""
    import gzip
    loggen = args.loggen or next((p for p in [os.path.join(ROOT, ".build", "release", "lctrace-loggen"),
                                              os.path.join(ROOT, ".build", "debug", "lctrace-loggen")] if os.access(p, os.X_OK)), None)
    if not loggen:
        sys.exit("fleet.py: no lctrace-loggen found: build it (swift build -c release) or name it with --loggen")
    versions = [f"2.{minor}.0" for minor in range(3, 8)]

    def one(index):
        version = versions[index % len(versions)]
        path = os.path.join(args.directory, version, f"device-{index:05d}.log.gz")
        habits = [h for bit, h in enumerate(HABITS) if (index * 7 + 3) >> bit & 1 and bit != 4]
        planted = index // len(versions) % 10 == 0
        command = [loggen, "--bytes", args.bytes, "--seed", str(index + 1), "--format", "nslog-modern",
                   "--traffic", "plant" if planted else "legal", "--style", STYLES[index % len(STYLES)]]
        command += [a for h in habits for a in ("--habit", h)] + (["--manifest", os.devnull] if planted else [])
        text = subprocess.run(command, capture_output=True, check=True).stdout
        with gzip.open(path, "wb", compresslevel=6) as file:
            file.write(text)
        return len(text)

    for version in versions:
        os.makedirs(os.path.join(args.directory, version), exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        total = sum(pool.map(one, range(args.logs)))
    print(f"{args.logs} logs, {total / 1e9:.2f} GB of text, in {args.directory}")


# MARK: Validation

def validate(args):
    import jsonschema
    with open(SCHEMA) as file:
        schema = json.load(file)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in args.files:
        with open(path) as file:
            first = True
            for number, line in enumerate(file, 1):
                record = json.loads(line)
                problems = [e.message for e in validator.iter_errors(record)]
                if first and record.get("type") != "stream":
                    problems.append("the first line is not a stream line")
                first = False
                if problems:
                    bad += 1
                    print(f"{path}:{number}: {problems[0]}")
    if bad:
        sys.exit(1)


def main():
    parser = argparse.ArgumentParser(prog="fleet.py", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    def common(command):
        command.add_argument("logs", nargs="*", help="log files or folders")
        command.add_argument("--paths-from", help="a file listing more logs, one path per line (object-store paths: "
                                                  "with --fetch)")
        command.add_argument("--fetch", help="a command that writes the log named {} to its standard output, run for "
                                             "each log (e.g. 'aws s3 cp {} -' or 'gsutil cat {}'), streamed into lctrace")
        command.add_argument("--lctrace", help="the lctrace to run (default: this checkout's build, else PATH's)")
        command.add_argument("--path-pattern", default=None,
                             help="a regular expression with named groups version and device, matched against each "
                                  "log's path (e.g. '(?P<version>[^/]+)/(?P<device>[^/]+)\\.log')")
        command.add_argument("--json", action="store_true", help="print the report as JSON")

    duck = commands.add_parser("duckdb", help="load the logs into a DuckDB database and print the fleet report")
    common(duck)
    duck.add_argument("--db", required=True, help="the DuckDB database file (its tables are replaced)")
    duck.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="logs read at once")
    duck.add_argument("--work", help="where lctrace's output is put before loading (default: DB.parts)")
    duck.add_argument("--keep-parts", action="store_true", help="keep that output after loading")
    spark = commands.add_parser("spark", help="run on Spark: Parquet tables in --out, and the fleet report")
    common(spark)
    spark.add_argument("--out", required=True, help="the folder of the Parquet tables (replaced)")
    spark.add_argument("--master", default=None, help="the Spark master (default: spark-submit's, else local[*])")
    report = commands.add_parser("report", help="the fleet report of a DuckDB database")
    report.add_argument("--db", required=True)
    report.add_argument("--json", action="store_true")
    make = commands.add_parser("generate", help="write a fleet of generated device logs, to try the pipeline on")
    make.add_argument("directory")
    make.add_argument("--logs", type=int, default=1000)
    make.add_argument("--bytes", default="300K", help="each log's size, as lctrace-loggen takes it")
    make.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    make.add_argument("--loggen", help="the lctrace-loggen to run (default: this checkout's build)")
    check = commands.add_parser("validate", help="check lctrace JSON Lines files against the wire format's schema")
    check.add_argument("files", nargs="+")
    args = parser.parse_args()
    {"duckdb": duckdb_run, "spark": spark_run, "report": duckdb_report, "generate": generate,
     "validate": validate}[args.command](args)


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:  # `fleet.py report … | head`: the reader has what it wanted
        sys.stderr.close()
        os._exit(0)
