#!/usr/bin/env python3
"""The verdict of Benchmarks/churn.sh: did anything grow over the churn?

Reads DIR/samples.txt (`SECONDS RSS_ANON_KB THREADS FDS CONTROL_THREAD_TICKS`, one
line every 5 s) and DIR/jackd.log (every server of the run), prints one line
and writes DIR/churn.json. The baseline is the first sample at or after 178 s,
the end of the third minute (its controller client has closed, the next is not
open yet, the first preset plays); the end is the last sample, read in the same
state. Not the first minute: the heap takes about three minutes of switches
to reach the layout it then keeps (measured over 600 s of a release build,
RssAnon at each minute's 58 s: 6324, 6440, 6540, 6532, … kB; in between it
moves by up to 150 kB with the sound sets alive at that moment). Nothing grew when
RssAnon at the end is within RSS_BOUND_KB of the baseline and the descriptors
and threads are the same number.

The server's xruns are counted from its log, and those it blames on the tactus
client (jack2: `JackEngine::XRun: client = tactus was not finished`) apart.

usage: churn_report.py DIR [--seconds S] [--restarts N] [--clock-ticks HZ]
exit status: 0 nothing grew, 1 something grew, 2 no samples
"""
import json
import os
import re
import sys

RSS_BOUND_KB = 64
BASELINE_SECONDS = 178
XRUN = re.compile(r"XRun: client (?:= )?([^ ,]+)")


def read_samples(path):
    """[(seconds, rss_kb, threads, fds, ticks)] from samples.txt, lines that do not parse left out."""
    samples = []
    if not os.path.exists(path):
        return samples
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) == 5 and all(x.lstrip("-").isdigit() for x in fields):
                samples.append(tuple(int(x) for x in fields))
    return samples


def xruns(log_text, client="tactus"):
    """(all xrun lines of the server's log, those naming `client`)."""
    found = XRUN.findall(log_text)
    return len(found), sum(1 for name in found if name == client)


def verdict(samples, seconds=None, restarts=0, clock_ticks=100, log_text=""):
    """The figures of the run as a dict; `grew` lists what grew (empty: nothing)."""
    if not samples:
        return None
    baseline = next((s for s in samples if s[0] >= BASELINE_SECONDS), samples[-1])
    end = samples[-1]
    all_xruns, tactus_xruns = xruns(log_text)
    span = end[0] - samples[0][0]
    cpu_seconds = (end[4] - samples[0][4]) / clock_ticks
    result = {
        "seconds": seconds if seconds is not None else end[0],
        "restarts": restarts,
        "baseline_at": baseline[0], "end_at": end[0],
        "rss_anon_kb": [baseline[1], end[1]], "rss_growth_kb": end[1] - baseline[1], "rss_bound_kb": RSS_BOUND_KB,
        "rss_peak_kb": max(s[1] for s in samples),
        "threads": [baseline[2], end[2]], "fds": [baseline[3], end[3]],
        "control_cpu_seconds": cpu_seconds,
        "control_cpu_percent": 100 * cpu_seconds / span if span > 0 else None,
        "xruns": all_xruns, "xruns_tactus": tactus_xruns,
    }
    grew = []
    if end[1] - baseline[1] > RSS_BOUND_KB:
        grew.append(f"RssAnon +{end[1] - baseline[1]} kB")
    if end[2] != baseline[2]:
        grew.append(f"threads {baseline[2]} → {end[2]}")
    if end[3] != baseline[3]:
        grew.append(f"fds {baseline[3]} → {end[3]}")
    result["grew"] = grew
    return result


def line(v):
    cpu = f"{v['control_cpu_percent']:.2f} %" if v["control_cpu_percent"] is not None else "—"
    restarts = f"{v['restarts']} server restart{'s' if v['restarts'] != 1 else ''}"
    return (f"churn {v['seconds']} s ({restarts}): RssAnon {v['rss_anon_kb'][0]} kB at {v['baseline_at']} s, "
            f"{v['rss_anon_kb'][1]} kB at {v['end_at']} s ({v['rss_growth_kb']:+d} kB, bound {v['rss_bound_kb']} kB; "
            f"peak {v['rss_peak_kb']} kB); fds {v['fds'][0]} → {v['fds'][1]}; threads {v['threads'][0]} → {v['threads'][1]}; "
            f"control thread CPU {cpu} of one core ({v['control_cpu_seconds']:.1f} s); "
            f"server xruns {v['xruns']}, {v['xruns_tactus']} naming tactus; "
            + ("nothing grew" if not v["grew"] else "GREW: " + ", ".join(v["grew"])))


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    folder = argv[0]

    def option(name, default, kind=int):
        return kind(argv[argv.index(name) + 1]) if name in argv else default
    log_text = ""
    if os.path.exists(os.path.join(folder, "jackd.log")):
        with open(os.path.join(folder, "jackd.log"), errors="replace") as f:
            log_text = f.read()
    v = verdict(read_samples(os.path.join(folder, "samples.txt")), option("--seconds", None), option("--restarts", 0),
                option("--clock-ticks", 100), log_text)
    if v is None:
        print(f"churn: no samples in {folder}/samples.txt")
        return 2
    with open(os.path.join(folder, "churn.json"), "w") as f:
        json.dump(v, f)
    print(line(v))
    return 1 if v["grew"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
