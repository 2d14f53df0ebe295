#!/usr/bin/env python3
"""The figures of one Benchmarks/jack-vs-peers.sh run, from its recording.

Recording ports: audio 1 = tactus:click, audio 2 = klick; MIDI 1 = tactus:clock,
MIDI 2 = jack_midi_clock. Process figures come as NAME=CPU_PERCENT,RSS_ANON_KB[,RT_CPU_PERCENT]
(the last: the real-time threads' share, i.e. the JACK process thread).
Prints the run's table; with --json FILE also writes every figure and each
event's error (what scripts/bench folds into its table and plot).

usage: jack_vs_peers_report.py RECORDING BPM [--json FILE] [--server NAME] NAME=CPU,RSS[,RTCPU]...
"""
import json
import sys

from grid_analysis import disturbances, grid_fit, read_recording, ticks

# (program, stream, kind, recorder port)
STREAMS = [
    ("tactus", "click", "A", 1),
    ("klick", "click", "A", 2),
    ("tactus", "clock", "M", 1),
    ("jack_midi_clock", "clock", "M", 2),
]


def analyse(path, bpm, processes, server="jackd"):
    """Every figure of one run as a dict (JSON-ready)."""
    header, onsets, midi = read_recording(path)
    rate = header.get("rate", 48000)
    beat = rate * 60 / bpm
    first = header.get("first-frame", 0)
    streams = []
    for program, stream, kind, port in STREAMS:
        if kind == "A":
            frames, interval = onsets.get(port, []), beat
        else:
            frames, interval = ticks(midi.get(port, [])), beat / 24
        fit = grid_fit(frames, interval, holes=header["holes"])
        streams.append({"program": program, "stream": stream, "interval": interval,
                        "seconds": [(f - first) / rate for f in frames], **fit})
    return {"server": server, "bpm": bpm, "rate": rate, "period": header.get("period"),
            "recorded_seconds": (header.get("end-frame", 0) - first) / rate,
            "xruns": header.get("xruns", 0), "holes": len(header["holes"]), "overflow": header.get("overflow", 0),
            "disturbed": disturbances(header), "streams": streams,
            "processes": {name: {"cpu_percent": p[0], "rss_anon_kb": p[1], "rt_cpu_percent": p[2] if len(p) > 2 else None}
                          for name, p in processes.items()}}


def print_table(run):
    print(f"{run['server']} {run['rate']} Hz, period {run['period']}, {run['bpm']:g} BPM, "
          f"{run['recorded_seconds']:.1f} s recorded" + (f"; DISTURBED: {run['disturbed']}" if run["disturbed"] else ""))
    print(f"{'program':<16} {'stream':<6} {'events':>7} {'max err (first)':>16} {'max err (phase)':>16} "
          f"{'drift ppm':>10} {'gaps':>5} {'CPU %':>7} {'RssAnon':>9}")
    processes = run["processes"]
    for s in run["streams"]:
        p = processes.get(s["program"], {"cpu_percent": float("nan"), "rss_anon_kb": 0})
        print(f"{s['program']:<16} {s['stream']:<6} {s['count']:>7} {s['max_error_anchored']:>16.3f} {s['max_error_fitted']:>16.3f} "
              f"{s['drift_ppm']:>10.3f} {s['gaps']:>5} {p['cpu_percent']:>7.2f} {p['rss_anon_kb'] / 1024:>7.1f} MB")
    peers = sum(processes.get(n, {"cpu_percent": 0})["cpu_percent"] for n in ("klick", "jack_midi_clock"))
    tactus = processes.get("tactus", {"cpu_percent": float("nan"), "rss_anon_kb": 0})
    print(f"targets: error <= 0.5 frame, drift 0, CPU {tactus['cpu_percent']:.2f} % <= klick + jack_midi_clock {peers:.2f} %, "
          f"RssAnon {tactus['rss_anon_kb'] / 1024:.1f} MB <= 8 MB")


def main(argv):
    args, json_path, server = [], None, "jackd"
    i = 0
    while i < len(argv):
        if argv[i] == "--json":
            json_path, i = argv[i + 1], i + 2
        elif argv[i] == "--server":
            server, i = argv[i + 1], i + 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    processes = {}
    for item in args[2:]:
        name, figures = item.split("=", 1)
        fields = figures.split(",")
        processes[name] = (float(fields[0]), int(fields[1] or 0), *(float(f) for f in fields[2:3] if f))
    run = analyse(args[0], float(args[1]), processes, server)
    print_table(run)
    if json_path:
        with open(json_path, "w") as f:
            json.dump(run, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
