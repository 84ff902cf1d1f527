"""The fleet pipeline (scripts/fleet.py): DuckDB and Spark give the same report of the same logs, a log that cannot
be read is reported and skipped, a run again gives the same, and lctrace's JSON Lines hold to their schema.

Run by `swift test` (FleetTests), or alone: LCTRACE=.build/debug/lctrace LOGGEN=.build/debug/lctrace-loggen
python3 -m unittest Tests/Fleet/test_fleet.py
"""

import glob
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FLEET = os.path.join(ROOT, "scripts", "fleet.py")
LCTRACE = os.environ.get("LCTRACE", os.path.join(ROOT, ".build", "debug", "lctrace"))
LOGGEN = os.environ.get("LOGGEN", os.path.join(ROOT, ".build", "debug", "lctrace-loggen"))
PATTERN = r"(?P<version>[0-9.]+)/(?P<device>[^/]+?)\.log"


def fleet(*arguments):
    run = subprocess.run([sys.executable, FLEET, *arguments, "--lctrace", LCTRACE] if arguments[0] != "validate"
                         else [sys.executable, FLEET, *arguments], capture_output=True, text=True)
    return run


class FleetTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.mkdtemp(prefix="lctrace-fleet-")
        cls.logs = os.path.join(cls.directory, "logs")
        # Two app versions, three devices each, planted deviations among legal traffic, gzip-compressed.
        for version, seed in (("1.0.0", 1), ("1.1.0", 2)):
            os.makedirs(os.path.join(cls.logs, version))
            for device in range(1, 4):
                text = subprocess.run([LOGGEN, "--bytes", "120K", "--seed", str(seed * 10 + device), "--format", "nslog-modern",
                                       "--traffic", "plant", "--style", "objc", "--manifest", os.devnull],
                                      capture_output=True, check=True).stdout
                with gzip.open(os.path.join(cls.logs, version, f"device-{device}.log.gz"), "wb") as file:
                    file.write(text)
        # A log cut short in the middle of its gzip stream.
        with open(os.path.join(cls.logs, "1.0.0", "device-1.log.gz"), "rb") as file:
            whole = file.read()
        with open(os.path.join(cls.logs, "1.1.0", "device-9.log.gz"), "wb") as file:
            file.write(whole[: len(whole) // 3])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.directory, ignore_errors=True)

    def duckdb(self, name):
        run = fleet("duckdb", self.logs, "--db", os.path.join(self.directory, name), "--jobs", "2",
                    "--path-pattern", PATTERN, "--json")
        self.assertEqual(run.returncode, 0, run.stderr)
        return json.loads(run.stdout)

    def test_duckdb_and_spark_give_the_same_report(self):
        duck = self.duckdb("fleet.duckdb")
        run = fleet("spark", self.logs, "--out", os.path.join(self.directory, "parquet"), "--master", "local[2]",
                    "--path-pattern", PATTERN, "--json")
        self.assertEqual(run.returncode, 0, run.stderr[-2000:])
        spark = json.loads(run.stdout)
        self.assertEqual(duck, spark)
        # The report says something: a planted rule on each of the six devices and on what was read of the log cut
        # short (a copy of one of them, so a seventh log and a fourth device name), and that log as unreadable.
        by_rule = {row[0]: row for row in duck["findings_by_rule"]["rows"]}
        self.assertEqual(by_rule["did-appear-twice"][2:6], [7, 4, 7, 2])  # findings, devices, logs, app versions
        self.assertEqual([row[0].rsplit("/", 2)[-2:] for row in duck["unreadable_inputs"]["rows"]], [["1.1.0", "device-9.log.gz"]])
        self.assertIn("compressed data ends early", duck["unreadable_inputs"]["rows"][0][2])
        self.assertEqual({row[0] for row in duck["launches"]["rows"]}, {"1.0.0", "1.1.0"})
        # Findings are partitioned by rule and date in Parquet.
        self.assertTrue(glob.glob(os.path.join(self.directory, "parquet", "findings", "rule=did-appear-twice", "logDate=*")))

    def test_a_run_again_gives_the_same_report(self):
        self.assertEqual(self.duckdb("again.duckdb"), self.duckdb("again.duckdb"))

    def test_logs_listed_in_a_file_are_fetched_by_a_command(self):
        # Object-store paths are listed in a file and streamed by a command (`aws s3 cp {} -`); `cat` stands in here.
        logs = sorted(glob.glob(os.path.join(self.logs, "1.0.0", "*.log.gz")))
        listed = os.path.join(self.directory, "paths.txt")
        with open(listed, "w") as file:
            file.write("\n".join(logs) + "\n")
        fetched = fleet("duckdb", "--paths-from", listed, "--fetch", "cat {}", "--db", os.path.join(self.directory, "fetched.duckdb"),
                        "--path-pattern", PATTERN, "--json")
        direct = fleet("duckdb", *logs, "--db", os.path.join(self.directory, "direct.duckdb"), "--path-pattern", PATTERN, "--json")
        self.assertEqual(fetched.returncode, 0, fetched.stderr)
        self.assertEqual(json.loads(fetched.stdout), json.loads(direct.stdout))
        self.assertTrue(json.loads(fetched.stdout)["findings_by_rule"]["rows"])

    def test_reports_hold_to_the_schema(self):
        paths = sorted(glob.glob(os.path.join(ROOT, "SampleLogs", "*.log")))
        out = os.path.join(self.directory, "samples.ndjson")
        with open(out, "w") as file:
            subprocess.run([LCTRACE, "--no-config", "--format", "ndjson", *paths], stdout=file, check=False)
        generated = os.path.join(self.directory, "generated.ndjson")
        with open(generated, "w") as file:
            subprocess.run([LCTRACE, "--no-config", "--format", "ndjson", "--jobs", "2", self.logs], stdout=file, check=False)
        run = fleet("validate", out, generated)
        self.assertEqual(run.returncode, 0, run.stdout[-2000:])
        # A line that breaks the schema is named.
        broken = os.path.join(self.directory, "broken.ndjson")
        with open(out) as source, open(broken, "w") as file:
            lines = source.readlines()
            event = next(i for i, line in enumerate(lines) if '"type":"event"' in line)
            lines[event] = lines[event].replace('"session":', '"sessions":', 1)
            file.writelines(lines)
        run = fleet("validate", broken)
        self.assertEqual(run.returncode, 1)
        self.assertIn(f"broken.ndjson:{event + 1}:", run.stdout)


if __name__ == "__main__":
    unittest.main()
