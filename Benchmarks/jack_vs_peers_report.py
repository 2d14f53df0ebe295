#!/usr/bin/env python3
"""The table of Benchmarks/jack-vs-peers.sh, from its recording.

Recording ports: audio 1 = tactus:click, audio 2 = klick; MIDI 1 = tactus:clock,
MIDI 2 = jack_midi_clock. Process figures come as NAME=CPU_PERCENT,RSS_ANON_KB.

usage: jack_vs_peers_report.py RECORDING BPM NAME=CPU,RSS...
"""
import sys

from grid_analysis import grid_fit, read_recording, ticks


def main(argv):
    path, bpm = argv[0], float(argv[1])
    processes = {}
    for item in argv[2:]:
        name, figures = item.split("=", 1)
        cpu, rss = figures.split(",")
        processes[name] = (float(cpu), int(rss or 0))
    header, onsets, midi = read_recording(path)
    rate = header.get("rate", 48000)
    beat = rate * 60 / bpm
    rows = [
        ("tactus", "click", grid_fit(onsets.get(1, []), beat)),
        ("klick", "click", grid_fit(onsets.get(2, []), beat)),
        ("tactus", "clock", grid_fit(ticks(midi.get(1, [])), beat / 24)),
        ("jack_midi_clock", "clock", grid_fit(ticks(midi.get(2, [])), beat / 24)),
    ]
    print(f"JACK dummy {rate} Hz, period {header.get('period')}, {bpm:g} BPM, "
          f"{(header.get('end-frame', 0) - header.get('first-frame', 0)) / rate:.1f} s recorded")
    print(f"{'program':<16} {'stream':<6} {'events':>7} {'max err (first)':>16} {'max err (phase)':>16} "
          f"{'drift ppm':>10} {'gaps':>5} {'CPU %':>7} {'RssAnon':>9}")
    for name, stream, fit in rows:
        cpu, rss = processes.get(name, (float("nan"), 0))
        print(f"{name:<16} {stream:<6} {fit['count']:>7} {fit['max_error_anchored']:>16.3f} {fit['max_error_fitted']:>16.3f} "
              f"{fit['drift_ppm']:>10.3f} {fit['gaps']:>5} {cpu:>7.2f} {rss / 1024:>7.1f} MB")
    peers = processes.get("klick", (0, 0))[0] + processes.get("jack_midi_clock", (0, 0))[0]
    tactus_cpu, tactus_rss = processes.get("tactus", (float("nan"), 0))
    print(f"targets: error <= 0.5 frame, drift 0, CPU {tactus_cpu:.2f} % <= klick + jack_midi_clock {peers:.2f} %, "
          f"RssAnon {tactus_rss / 1024:.1f} MB <= 8 MB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
