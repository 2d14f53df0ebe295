#!/usr/bin/env python3
"""The tests a `swift test --xunit-output` run failed, as `--filter` patterns.

scripts/test runs a test that failed once more alone when it talks to a real
server (a private jackd, PipeWire, the network namespace): on a loaded host the
dummy driver wakes late and xruns, and a test that judges host-time behaviour in
frames can fail with nothing wrong in Tactus (README, "Tests"). The pure core's
tests (TactusCoreTests) are deterministic and are never run again, nor are more
than MAX_RERUN failures, which point at a fault, not at noise.

Prints one pattern per line (`Suite/name\\(\\)`, the form Swift Testing's
`--filter` matches in a test's identifier) and exits 0, or prints why not and
exits 2.
"""
import re
import sys
import xml.etree.ElementTree as ET

MAX_RERUN = 5
NEVER_RERUN = ("TactusCoreTests.",)


def failed(xml_text):
    """(classname, name) of every test case with a failure or error, in order, once each."""
    root = ET.fromstring(xml_text)
    seen = []
    for case in root.iter("testcase"):
        if case.find("failure") is None and case.find("error") is None:
            continue
        key = (case.get("classname", ""), case.get("name", ""))
        if key not in seen:
            seen.append(key)
    return seen


def pattern(classname, name):
    """The `--filter` pattern of one test: its innermost suite, a slash, its name."""
    suite = re.split(r"[./]", classname)[-1]
    return re.escape(suite) + "/" + re.escape(name)


def rerunnable(cases):
    """(patterns, None), or (None, why) when the failures must stand."""
    if not cases:
        return None, "the run failed but its report names no failed test (a crash, or a build error)"
    if len(cases) > MAX_RERUN:
        return None, f"{len(cases)} tests failed: more than {MAX_RERUN} is a fault, not host noise"
    pure = [f"{c}/{n}" for c, n in cases if c.startswith(NEVER_RERUN)]
    if pure:
        return None, "a pure core test failed (deterministic, never run again): " + ", ".join(pure)
    return [pattern(c, n) for c, n in cases], None


def main(argv):
    try:
        with open(argv[1], encoding="utf-8") as f:
            cases = failed(f.read())
    except (OSError, ET.ParseError, IndexError) as e:
        print(f"no test report to read: {e}")
        return 2
    patterns, why = rerunnable(cases)
    if why:
        print(why)
        return 2
    print("\n".join(patterns))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
