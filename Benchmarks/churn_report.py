#!/usr/bin/env python3
"""The verdict of Benchmarks/churn.sh: did anything grow over the churn?

Reads DIR/samples.txt (`SECONDS RSS_ANON_KB THREADS FDS CONTROL_THREAD_TICKS
[HEAP_BYTES HEAP_BLOCKS]`, one line every 5 s) and DIR/jackd.log (every server of
the run), prints one line and writes DIR/churn.json. The baseline is the first
sample at or after 178 s (--baseline), the end of the third minute (its
controller client has closed, the next is not open yet, the first preset
plays); the end is the last sample, read in the same state.

The exact measure is the live heap: Tests/RTProbe's count of the bytes
(malloc_usable_size) and blocks every thread allocated and did not free, the
least of ten reads 20 ms apart. After the first minute and the first server
restart (what is done once: that restart measured +2 kB in 20 blocks, each
later one about +1 kB in 6) it stays put in the quiet seconds before a minute's
end: read twice in the same state it differs by up to 300 bytes and 2 blocks. What may add to it
lawfully is what the live display keeps for its replay at exit: each line
written to standard error, the newest 500 (StandardErrorCapture); a server
restart writes five (about 1 kB: +640 to +1200 bytes, +5 to +7 blocks measured
per restart). So nothing grew when the live heap at the end is within
HEAP_BOUND_BYTES and HEAP_BOUND_BLOCKS of the baseline: a restart, a client or
a preset switch that left behind a JACK client (120 kB in 43 blocks), a port,
a sound set or one block per event (about 25 events a minute) shows.

RssAnon is the looser second check (what the heap count does not see: memory
mapped outside malloc): within RSS_BOUND_KB (--rss-bound) of the baseline. It
moves with the heap's layout, which takes about three minutes of switches to
settle (measured over 600 s of a release build, RssAnon at each minute's 58 s:
6324, 6440, 6540, 6532, … kB; in between it moves by up to 150 kB with the
sound sets alive at that moment): not the first minute for it. The descriptors
and threads must be the same number. With the interposer's report of tactus's
exit (DIR/rtprobe.txt) the process callback's cycles and its allocations and
locks (`violations`) are given too.

The server's xruns are counted from its log, and those it blames on the tactus
client (jack2: `JackEngine::XRun: client = tactus was not finished`) apart.
Beside them the xruns of a twin server run at the same time with only a
recorder on it (DIR/jackd-twin.log): what the machine does to a jackd without
Tactus. On a loaded machine the dummy driver's thread itself wakes late
(`JackTimedDriver::Process XRun`: in asynchronous mode a slow client never
delays the driver) and the server then blames every client not finished, tactus
too. A client the server finds `state = Triggered` was woken and never got a CPU
before the deadline (the machine's doing); one `Running` (or `finished after
current callback`) was inside its callback. The xruns Tactus caused are those
blamed on it while its callback ran (xruns.txt's `tactus`) when neither the twin
nor the server's driver had one within TWIN_SECONDS.

The clock on the grid: DIR/rec-N.txt are the recorder's takes of tactus:clock
(one per server, N the restarts before it), DIR/rec-N.start and .stop the seconds
of the run it began and was stopped at, DIR/xruns.txt the seconds at which each server's log got an
xrun (`SECONDS main|twin COUNT`). The engine places each tick at
`anchor + round(k × rate × 250 / hundredths)` from the tick where its tempo took
effect (GridAnchor), so the ticks split into runs of one tempo each, every tick
within a frame of the line from the run's first (its own frame is rounded ±0.5,
so is each tick's: the ±0.5 frame of the grid, twice); a
tick is off the grid when it fits none: a tempo outside 1-999 BPM (a doubled
tick), a tempo that held one interval twice in a row (a late tick and the one after
it: tempo changes come ≥ 160 ms apart), or one interval of about twice its
neighbours' (a missing tick). A minute is judged when one take covers it whole
without a hole and neither it nor the second around it had an xrun on the server;
the others are counted apart. Whole: from at most START_SLACK seconds after the
minute's start (a restart's take begins once the new server is up and Tactus is
back on it, 0.9 and 1.3 s after the minute's start measured) to at most a second
before its end.

usage: churn_report.py DIR [--seconds S] [--restarts N] [--clock-ticks HZ] [--baseline S] [--rss-bound KB]
exit status: 0 nothing grew and the clock kept its grid, 1 otherwise, 2 no samples
"""
import collections
import json
import os
import re
import sys

RSS_BOUND_KB = 64
HEAP_BOUND_BYTES = 4096
HEAP_BOUND_BLOCKS = 16
BASELINE_SECONDS = 178
XRUN = re.compile(r"XRun: client (?:= )?([^ ,]+)")
TEMPO_HUNDREDTHS = (100, 99_900)  # BPM.range
TWIN_SECONDS = 1.5  # the logs are read once a second
START_SLACK = 2.0
RUNNING = re.compile(r"XRun: client = tactus was not finished, state = Running|XRun: client tactus finished after")


def read_samples(path):
    """[(seconds, rss_kb, threads, fds, ticks[, heap_bytes, heap_blocks])] from samples.txt, lines that do
    not parse left out (a run without the interposer has no heap fields)."""
    samples = []
    if not os.path.exists(path):
        return samples
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) in (5, 7) and all(x.lstrip("-").isdigit() for x in fields):
                samples.append(tuple(int(x) for x in fields))
    return samples


def read_fd_targets(path):
    """{seconds: Counter of descriptor targets} from fds.txt (`SECONDS TARGET …`, inode numbers cut);
    {} without it."""
    found = {}
    if not os.path.exists(path):
        return found
    with open(path) as f:
        for line in f:
            fields = line.split()
            if fields and fields[0].isdigit():
                found[int(fields[0])] = collections.Counter(fields[1:])
    return found


def fd_difference(targets, baseline_at, end_at):
    """' (only at the baseline: …; only at the end: …)' when both samples' targets are known, else ''."""
    if baseline_at not in targets or end_at not in targets:
        return ""
    before, after = targets[baseline_at], targets[end_at]
    gone, came = sorted((before - after).elements()), sorted((after - before).elements())
    return f" (only at the baseline: {', '.join(gone) or 'none'}; only at the end: {', '.join(came) or 'none'})"


def read_rtprobe(path):
    """{name: count} from the interposer's report at tactus's exit (rtprobe.txt); None without it."""
    if not os.path.exists(path):
        return None
    found = {}
    with open(path) as f:
        for text in f:
            fields = text.split()
            if len(fields) == 2 and fields[1].lstrip("-").isdigit():
                found[fields[0]] = int(fields[1])
    return found


def xruns(log_text, client="tactus"):
    """(all xrun lines of the server's log, those naming `client`)."""
    found = XRUN.findall(log_text)
    return len(found), sum(1 for name in found if name == client)


def read_take(path, start_seconds, stop_seconds=None):
    """A recorder take: (rate, [(frame, status, seconds)] of its MIDI events, [(from_s, to_s)] holes, (first_s, end_s)).
    Its frames are put on the run's seconds from the second it began to the one it was stopped at when
    that is known (a server that fell behind real time would shift the later minutes), else at its rate."""
    rate, first, end, events, holes = 48000, 0, 0, [], []
    with open(path) as f:
        for text in f:
            fields = text.split()
            if text.startswith("# "):
                header = dict(zip(fields[1::2], fields[2::2]))
                rate, first, end = int(header.get("rate", 48000)), int(header.get("first-frame", 0)), int(header.get("end-frame", 0))
            elif fields and fields[0] == "M" and len(fields) >= 4:
                events.append((int(fields[2]), int(fields[3], 16)))
            elif fields and fields[0] == "H" and len(fields) == 3:
                holes.append((int(fields[1]), int(fields[2])))

    per_frame = 1 / rate
    if stop_seconds is not None and end > first and stop_seconds > start_seconds:
        per_frame = (stop_seconds - start_seconds) / (end - first)

    def at(frame):
        return start_seconds + (frame - first) * per_frame
    return rate, [(f, status, at(f)) for f, status in events], [(at(a), at(b)) for a, b in holes], (at(first), at(end))


BACKTRACK = 24


def bounds(k, d, rate):
    """The hundredths h with |d - k × rate × 250 / h| < 1, as (lo, hi): kR/(d+1) < h < kR/(d-1)."""
    kr = k * rate * 250
    return kr // (d + 1) + 1, (kr - 1) // (d - 1) if d > 1 else TEMPO_HUNDREDTHS[1]


def fit(frames, a, b, rate):
    """The hundredths h for which every tick a..b is within a frame of `frames[a] + k × rate × 250 / h`
    (the anchor tick's own frame rounded ±0.5, each tick's ±0.5), as (lo, hi), or None."""
    lo, hi = TEMPO_HUNDREDTHS
    for j in range(a + 1, b + 1):
        h = extend(frames, a, j, (lo, hi), rate)
        if h is None:
            return None
        lo, hi = h
    return lo, hi


def tempo_runs(frames, rate):
    """Split tick frames into runs of one tempo: [(first index, last index, hundredths range)], consecutive
    runs sharing their boundary tick (the tick a tempo takes effect at is its anchor). A run's ticks are
    within a frame of `frames[first] + k × rate × 250 / h` for every h in its range; an interval no
    tempo of BPM.range fits is a run of its own with range None. Where a run cannot take the next tick,
    the next run starts at the earliest of the last ticks from which it can (a close tempo leaves the old
    grid a few ticks after its anchor)."""
    runs = []
    i = 0
    while i + 1 < len(frames):
        j, h = i, None
        while j + 1 < len(frames):
            nxt = fit(frames, i, j + 1, rate) if h is None else extend(frames, i, j + 1, h, rate)
            if nxt is None:
                break
            h, j = nxt, j + 1
        if h is None:
            runs.append((i, i + 1, None))
            i += 1
            continue
        if j + 1 < len(frames):
            anchor = next((a for a in range(max(i + 1, j - BACKTRACK), j + 1) if fit(frames, a, j + 1, rate)), j)
            if anchor < j:
                h = fit(frames, i, anchor, rate)
                j = anchor
        runs.append((i, j, h))
        i = j
    return runs


def extend(frames, a, b, h, rate):
    """The range `h` of ticks a..b-1 narrowed by tick b, or None."""
    k, d = b - a, frames[b] - frames[a]
    if d < 1:
        return None
    low, high = bounds(k, d, rate)
    lo, hi = max(h[0], low), min(h[1], high)
    return (lo, hi) if lo <= hi else None


def off_grid_ticks(frames, rate):
    """Indices of the ticks that fit no tempo run (see the module's doc)."""
    runs = tempo_runs(frames, rate)
    off = set()
    for n, (a, b, h) in enumerate(runs):
        if h is None:
            off.add(b)
        elif b - a == 1:
            before = runs[n - 1] if n > 0 else None
            after = runs[n + 1] if n + 1 < len(runs) else None
            if (before and before[1] - before[0] == 1) or (after and after[1] - after[0] == 1):
                off.add(b)
            interval = frames[b] - frames[a]
            neighbours = [frames[r[1]] - frames[r[1] - 1] for r in (before, after) if r]
            if neighbours and all(abs(interval - 2 * x) <= 2 for x in neighbours):
                off.add(b)
    return sorted(off)


def read_xruns(path):
    """{server: [seconds of each xrun]} from xruns.txt (`SECONDS SERVER TOTAL`, the total so far); None without it."""
    found = {}
    if not os.path.exists(path):
        return None
    last = {}
    with open(path) as f:
        for text in f:
            fields = text.split()
            if len(fields) != 3:
                continue
            seconds, server, total = float(fields[0]), fields[1], int(fields[2])
            found.setdefault(server, []).extend([seconds] * (total - last.get(server, 0)))
            last[server] = total
    return found


def clock_minutes(takes, xrun_seconds, minutes):
    """Each minute's verdict on the clock: {"judged": [...], "off": {minute: count}, "excluded_xrun": [...],
    "excluded_not_whole": [...], "ticks": {minute: count}}. `takes` as read_take gives them."""
    result = {"judged": [], "off": {}, "excluded_xrun": [], "excluded_not_whole": [], "ticks": {}}
    for m in range(minutes):
        start, end = 60 * m, 60 * m + 60
        take = next((t for t in takes if t[3][0] <= start + START_SLACK and t[3][1] >= end - 1), None)
        if any(start - 1 <= x < end + 1 for x in xrun_seconds):
            result["excluded_xrun"].append(m)
            continue
        if take is None or any(a < end and b > start for a, b in take[2]):
            result["excluded_not_whole"].append(m)
            continue
        rate, events = take[0], take[1]
        ticks = [(f, s) for f, status, s in events if status == 0xF8]
        frames = [f for f, _ in ticks]
        off = off_grid_ticks(frames, rate)
        inside = [i for i in range(len(ticks)) if start <= ticks[i][1] < end]
        result["judged"].append(m)
        result["ticks"][m] = len(inside)
        bad = sum(1 for i in off if start <= ticks[i][1] < end)
        # A minute without its clock is off the grid as a whole.
        if bad or not inside:
            result["off"][m] = bad or len(inside) or 1
    return result


def verdict(samples, seconds=None, restarts=0, clock_ticks=100, log_text="", twin_log_text="", takes=None, xrun_times=None,
            baseline_seconds=BASELINE_SECONDS, rss_bound=RSS_BOUND_KB, rtprobe=None, fd_targets=None):
    """The figures of the run as a dict; `grew` lists what grew (empty: nothing), `clock_minutes_off` the
    judged minutes whose clock left its grid (None: no take recorded)."""
    if not samples:
        return None
    baseline = next((s for s in samples if s[0] >= baseline_seconds), samples[-1])
    end = samples[-1]
    all_xruns, tactus_xruns = xruns(log_text)
    span = end[0] - samples[0][0]
    cpu_seconds = (end[4] - samples[0][4]) / clock_ticks
    result = {
        "seconds": seconds if seconds is not None else end[0],
        "restarts": restarts,
        "baseline_at": baseline[0], "end_at": end[0],
        "rss_anon_kb": [baseline[1], end[1]], "rss_growth_kb": end[1] - baseline[1], "rss_bound_kb": rss_bound,
        "rss_peak_kb": max(s[1] for s in samples),
        "threads": [baseline[2], end[2]], "fds": [baseline[3], end[3]],
        "control_cpu_seconds": cpu_seconds,
        "control_cpu_percent": 100 * cpu_seconds / span if span > 0 else None,
        "xruns": all_xruns, "xruns_tactus": tactus_xruns, "xruns_twin": xruns(twin_log_text)[0],
        "xruns_tactus_running": len(RUNNING.findall(log_text)),
    }
    if len(baseline) == 7 and len(end) == 7:
        result.update({"heap_bytes": [baseline[5], end[5]], "heap_growth_bytes": end[5] - baseline[5],
                       "heap_blocks": [baseline[6], end[6]], "heap_growth_blocks": end[6] - baseline[6],
                       "heap_bound_bytes": HEAP_BOUND_BYTES, "heap_bound_blocks": HEAP_BOUND_BLOCKS,
                       "heap_peak_bytes": max(s[5] for s in samples if len(s) == 7)})
    if rtprobe is not None:
        result.update({"callback_cycles": rtprobe.get("cycles", 0), "callback_violations": rtprobe.get("violations", 0)})
    if xrun_times is not None:
        machine = xrun_times.get("twin", []) + xrun_times.get("driver", [])
        result["xruns_tactus_alone"] = sum(1 for t in xrun_times.get("tactus", []) if not any(abs(t - x) <= TWIN_SECONDS for x in machine))
    if takes is not None:
        minutes = (seconds if seconds is not None else end[0]) // 60
        clock = clock_minutes(takes, (xrun_times or {}).get("main", []), minutes)
        result.update({"clock_minutes_judged": len(clock["judged"]), "clock_minutes_off": sorted(clock["off"]),
                       "clock_off_ticks": sum(clock["off"].values()),
                       "clock_ticks_judged": sum(clock["ticks"].values()),
                       "clock_minutes_xrun": len(clock["excluded_xrun"]),
                       "clock_minutes_not_whole": len(clock["excluded_not_whole"])})
    grew = []
    if "heap_bytes" in result and (result["heap_growth_bytes"] > HEAP_BOUND_BYTES or result["heap_growth_blocks"] > HEAP_BOUND_BLOCKS):
        grew.append(f"live heap {result['heap_growth_bytes']:+d} bytes, {result['heap_growth_blocks']:+d} blocks")
    if end[1] - baseline[1] > rss_bound:
        grew.append(f"RssAnon +{end[1] - baseline[1]} kB")
    if end[2] != baseline[2]:
        grew.append(f"threads {baseline[2]} → {end[2]}")
    if end[3] != baseline[3]:
        grew.append(f"fds {baseline[3]} → {end[3]}" + fd_difference(fd_targets or {}, baseline[0], end[0]))
    result["grew"] = grew
    return result


def line(v):
    cpu = f"{v['control_cpu_percent']:.2f} %" if v["control_cpu_percent"] is not None else "—"
    restarts = f"{v['restarts']} server restart{'s' if v['restarts'] != 1 else ''}"
    return (f"churn {v['seconds']} s ({restarts}): " + heap_words(v) + f"RssAnon {v['rss_anon_kb'][0]} kB at {v['baseline_at']} s, "
            f"{v['rss_anon_kb'][1]} kB at {v['end_at']} s ({v['rss_growth_kb']:+d} kB, bound {v['rss_bound_kb']} kB; "
            f"peak {v['rss_peak_kb']} kB); fds {v['fds'][0]} → {v['fds'][1]}; threads {v['threads'][0]} → {v['threads'][1]}; "
            f"control thread CPU {cpu} of one core ({v['control_cpu_seconds']:.1f} s); "
            f"server xruns {v['xruns']}, {v['xruns_tactus']} naming tactus, {v.get('xruns_tactus_running', 0)} while its callback ran"
            + (f", {v['xruns_tactus_alone']} of those with neither the twin nor the driver late" if "xruns_tactus_alone" in v else "")
            + f"; its twin without tactus: {v.get('xruns_twin', 0)}; "
            + clock_words(v)
            + callback_words(v)
            + ("nothing grew" if not v["grew"] else "GREW: " + ", ".join(v["grew"])))


def heap_words(v):
    if "heap_bytes" not in v:
        return ""
    return (f"live heap {v['heap_bytes'][0]} bytes in {v['heap_blocks'][0]} blocks at {v['baseline_at']} s, "
            f"{v['heap_bytes'][1]} in {v['heap_blocks'][1]} at {v['end_at']} s ({v['heap_growth_bytes']:+d} bytes, "
            f"{v['heap_growth_blocks']:+d} blocks; bound {v['heap_bound_bytes']} bytes, {v['heap_bound_blocks']} blocks; "
            f"peak {v['heap_peak_bytes']} bytes); ")


def callback_words(v):
    if "callback_cycles" not in v:
        return ""
    return f"process callback: {v['callback_violations']} allocations or locks in {v['callback_cycles']} cycles; "


def clock_words(v):
    if "clock_minutes_judged" not in v:
        return ""
    judged, off = v["clock_minutes_judged"], v["clock_minutes_off"]
    verdict = "on the grid" if not off else f"OFF THE GRID in minutes {', '.join(map(str, off))} ({v['clock_off_ticks']} ticks)"
    return (f"clock {verdict} in {judged} undisturbed minute{'s' if judged != 1 else ''} ({v['clock_ticks_judged']} ticks; "
            f"{v['clock_minutes_xrun']} with an xrun, {v['clock_minutes_not_whole']} not recorded whole: not judged); ")


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
    twin_log_text = ""
    if os.path.exists(os.path.join(folder, "jackd-twin.log")):
        with open(os.path.join(folder, "jackd-twin.log"), errors="replace") as f:
            twin_log_text = f.read()
    takes = []
    for n in range(100):
        path = os.path.join(folder, f"rec-{n}.txt")
        if os.path.exists(path) and os.path.exists(os.path.join(folder, f"rec-{n}.start")):
            with open(os.path.join(folder, f"rec-{n}.start")) as f:
                start = float(f.read().split()[0])
            stop = None
            if os.path.exists(os.path.join(folder, f"rec-{n}.stop")):
                with open(os.path.join(folder, f"rec-{n}.stop")) as f:
                    stop = float(f.read().split()[0])
            takes.append(read_take(path, start, stop))
    v = verdict(read_samples(os.path.join(folder, "samples.txt")), option("--seconds", None), option("--restarts", 0),
                option("--clock-ticks", 100), log_text, twin_log_text, takes or None,
                read_xruns(os.path.join(folder, "xruns.txt")), option("--baseline", BASELINE_SECONDS),
                option("--rss-bound", RSS_BOUND_KB), read_rtprobe(os.path.join(folder, "rtprobe.txt")),
                read_fd_targets(os.path.join(folder, "fds.txt")))
    if v is None:
        print(f"churn: no samples in {folder}/samples.txt")
        return 2
    with open(os.path.join(folder, "churn.json"), "w") as f:
        json.dump(v, f)
    print(line(v))
    return 1 if v["grew"] or v.get("clock_minutes_off") else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
