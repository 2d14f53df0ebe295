#!/usr/bin/env python3
"""Timing analysis of a `tactus-jack-probe record` file (no numpy needed).

A recording lists audio onsets (`A port frame value`) and MIDI events
(`M port frame hex..`) at absolute JACK frames. For a series of frames that
should sit on a grid of `interval` frames this module reports:

  max_error_anchored  worst distance from the ideal grid anchored at the first
                      event (the acceptance rule: <= 0.5 frame)
  max_error_fitted    worst distance from the ideal grid at the nominal interval,
                      phase chosen to minimise the worst error (fair to a tool
                      whose first event is itself rounded)
  drift_ppm           slope of a least-squares line through (index, frame)
                      against the nominal interval, in parts per million
  gaps                events whose grid index is not the previous index + 1
                      (a missing or an extra event)

Used by Benchmarks/jack-vs-peers.sh; importable (`from grid_analysis import ...`).
"""
import sys


def read_recording(path):
    """Returns (header dict, onsets {port: [frame]}, midi {port: [(frame, bytes)]})."""
    header, onsets, midi = {}, {}, {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if not fields:
                continue
            if fields[0] == "#":
                for key, value in zip(fields[1::2], fields[2::2]):
                    header[key] = int(value)
            elif fields[0] == "A":
                onsets.setdefault(int(fields[1]), []).append(int(fields[2]))
            elif fields[0] == "M":
                midi.setdefault(int(fields[1]), []).append((int(fields[2]), [int(b, 16) for b in fields[3:]]))
    return header, onsets, midi


def ticks(midi_events):
    """Frames of MIDI Timing Clock (0xF8) events."""
    return [frame for frame, data in midi_events if data == [0xF8]]


def grid_fit(frames, interval):
    """Timing figures of `frames` against a grid of `interval` frames (dict)."""
    if len(frames) < 2:
        return {"count": len(frames), "max_error_anchored": float("inf"), "max_error_fitted": float("inf"),
                "drift_ppm": float("nan"), "gaps": 0}
    first = frames[0]
    indices, errors, gaps, previous = [], [], 0, -1
    for f in frames:
        index = round((f - first) / interval)
        indices.append(index)
        errors.append((f - first) - index * interval)
        if index != previous + 1:
            gaps += 1
        previous = index
    fitted = (max(errors) - min(errors)) / 2
    n = len(frames)
    mx = sum(indices) / n
    my = sum(f - first for f in frames) / n
    sxy = sum((x - mx) * (f - first - my) for x, f in zip(indices, frames))
    sxx = sum((x - mx) ** 2 for x in indices)
    drift = (sxy / sxx / interval - 1) * 1e6 if sxx else 0.0
    return {"count": n, "max_error_anchored": max(abs(e) for e in errors), "max_error_fitted": fitted,
            "drift_ppm": drift, "gaps": gaps}


def main(argv):
    if len(argv) < 4:
        print("usage: grid_analysis.py RECORDING (click|clock) PORT BPM [SAMPLE_RATE]", file=sys.stderr)
        return 2
    header, onsets, midi = read_recording(argv[0])
    rate = int(argv[4]) if len(argv) > 4 else header.get("rate", 48000)
    beat = rate * 60 / float(argv[3])
    port = int(argv[2])
    if argv[1] == "click":
        fit = grid_fit(onsets.get(port, []), beat)
    else:
        fit = grid_fit(ticks(midi.get(port, [])), beat / 24)
    print(" ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}" for k, v in fit.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
