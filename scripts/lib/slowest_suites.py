#!/usr/bin/env python3
"""The slowest suites of a `swift test --xunit-output` run, with their times.

`swift test --xunit-output FILE` writes XCTest's report to FILE and Swift
Testing's to FILE with `-swift-testing` before `.xml`; both list each test case
with its classname (the module and the suites around it) and its time in
seconds. A suite's time is the sum of its own test cases' times (the suites
nested in it count apart). scripts/test prints the ten slowest at the end of
every run, passed or failed, so that a suite that grew shows where the time went.

Swift Testing run in parallel writes each case's time as the time from the run's
start to the case's end (swift 6.x), which says nothing of the case: for such a
tier the suites' times come from its console instead (`--console LOG`: the lines
`✔ Suite NAME passed after N seconds`), each a suite's wall time from its start
to its end while others ran beside it.

Usage: slowest_suites.py [--count N] [--console LOG]... [REPORT]...
       (a missing report is passed over, an unreadable one named)
"""
import os
import re
import sys
import xml.etree.ElementTree as ET


def suite_times(xml_text):
    """{classname: (seconds, tests, failed)} of every suite in one report."""
    times = {}
    for case in ET.fromstring(xml_text).iter("testcase"):
        name = case.get("classname", "") or "(no suite)"
        try:
            seconds = float(case.get("time", "0") or 0)
        except ValueError:
            seconds = 0.0
        bad = case.find("failure") is not None or case.find("error") is not None
        s, n, f = times.get(name, (0.0, 0, 0))
        times[name] = (s + seconds, n + 1, f + int(bad))
    return times


SUITE_LINE = re.compile(r"^[\u2714\u2718] Suite (.+?) (passed|failed) after ([0-9.]+) seconds")


def console_suite_times(text):
    """{name (wall, parallel): (seconds, 0, failed)} from Swift Testing's console lines."""
    times = {}
    for line in text.splitlines():
        m = SUITE_LINE.match(line)
        if m:
            name = m.group(1).strip('"') + " (wall, in parallel)"
            times[name] = (float(m.group(3)), 0, int(m.group(2) == "failed"))
    return times


def merge(reports):
    """The suites of several reports together (a suite in two adds up)."""
    total = {}
    for times in reports:
        for name, (s, n, f) in times.items():
            s0, n0, f0 = total.get(name, (0.0, 0, 0))
            total[name] = (s0 + s, n0 + n, f0 + f)
    return total


def slowest(times, count=10):
    """Lines `  123.4 s  Suite (N tests[, F failed])`, slowest first, and a total line."""
    ranked = sorted(times.items(), key=lambda item: (-item[1][0], item[0]))[:count]
    lines = []
    for name, (s, n, f) in ranked:
        counted = f"{n} test{'s' if n != 1 else ''}" if n else ""
        failed = f"{f} failed" if f else ""
        words = ", ".join(w for w in (counted, failed) if w)
        lines.append(f"{s:8.1f} s  {name}" + (f" ({words})" if words else ""))
    serial = {k: v for k, v in times.items() if v[1]}
    lines.append(f"{sum(s for s, _, _ in serial.values()):8.1f} s  all {len(serial)} serialized suites, "
                 f"{sum(n for _, n, _ in serial.values())} tests")
    return lines


def main(argv):
    args = argv[1:]
    count = 10
    if len(args) >= 2 and args[0] == "--count":
        count, args = int(args[1]), args[2:]
    reports = []
    while len(args) >= 2 and args[0] == "--console":
        try:
            with open(args[1], encoding="utf-8", errors="replace") as f:
                reports.append(console_suite_times(f.read()))
        except OSError as e:
            print(f"(no console read from {args[1]}: {e})")
        args = args[2:]
    for path in args:
        if not os.path.exists(path):
            continue  # XCTest writes none when no XCTest ran
        try:
            with open(path, encoding="utf-8") as f:
                reports.append(suite_times(f.read()))
        except (OSError, ET.ParseError) as e:
            print(f"(no report read from {path}: {e})")
    times = merge(reports)
    if not times:
        print("no test case in the reports")
        return 0
    print("\n".join(slowest(times, count)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
