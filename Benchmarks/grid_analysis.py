#!/usr/bin/env python3
"""Timing analysis of a `tactus-jack-probe record` file (no numpy needed).

A recording lists audio onsets (`A port frame value`), MIDI events
(`M port frame hex..`) at absolute JACK frames, and holes (`H from to`: cycles
the recorder was not run for). Its header (`# key value ...`) gives the rate,
the period and the server's xrun count. For a series of frames that should sit
on a grid of `interval` frames this module reports:

  max_error_anchored  worst distance from the ideal grid anchored at `origin`
                      (the frame where index 0 should be; default: the first
                      event) -- the acceptance rule: <= 0.5 frame
  max_error_fitted    worst distance from the ideal grid at the nominal interval,
                      its phase fitted (fair to a tool whose first event is
                      itself rounded, and to one whose origin is unknown): the
                      phase is the middle of the errors that lie within a frame
                      of the median error, so whole-frame rounding costs at most
                      0.5 and one late event shows its whole lateness, not half
                      of it: THE max error of the benchmark table
  offset              mean distance from the grid anchored at `origin`: a whole
                      grid shifted by a fraction of a frame shows here
  drift_ppm           slope of a least-squares line through (index, frame)
                      against the nominal interval, in parts per million
  drift_stderr_ppm    the standard error of that slope: what rounding to whole
                      frames alone leaves undecided over this many events
  missing, extra      grid points with no event, events on a point already taken
  unseen              grid points with no event that fall in a hole of the
                      recording (`holes`): the recorder was not run then, so
                      they are not counted as missing
  errors              each event's error against the phase-fitted grid (frames),
                      with `indices` (grid index of each event): the plot's data

Used by Benchmarks/jack-vs-peers.sh and scripts/bench; importable
(`from grid_analysis import ...`); tested by Benchmarks/test_grid_analysis.py.
"""
import sys


def _number(text):
    """A frame: integer as the recorder writes it, or fractional (synthetic or interpolated)."""
    return float(text) if "." in text or "e" in text else int(text)


def read_recording(path):
    """Returns (header dict, onsets {port: [frame]}, midi {port: [(frame, bytes)]}).

    The header also carries `holes`: [(from, to)] frames the recorder missed.
    """
    header, onsets, midi = {"holes": []}, {}, {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if not fields:
                continue
            if fields[0] == "#":
                for key, value in zip(fields[1::2], fields[2::2]):
                    header[key] = _number(value)
            elif fields[0] == "A":
                onsets.setdefault(int(fields[1]), []).append(_number(fields[2]))
            elif fields[0] == "M":
                midi.setdefault(int(fields[1]), []).append((_number(fields[2]), [int(b, 16) for b in fields[3:]]))
            elif fields[0] == "H":
                header["holes"].append((_number(fields[1]), _number(fields[2])))
    return header, onsets, midi


def disturbances(header):
    """What makes a recording unfit to measure timing: xruns the server reported,
    cycles the recorder was not run for (skipped cycles), events it had no room for.
    Returns a short text, empty when the recording is clean."""
    found = []
    if header.get("xruns", 0):
        found.append(f"{header['xruns']} xruns")
    if header.get("holes"):
        found.append(f"{len(header['holes'])} skipped-cycle holes")
    if header.get("overflow", 0):
        found.append(f"{header['overflow']} events lost to a full recorder")
    return ", ".join(found)


def ticks(midi_events):
    """Frames of MIDI Timing Clock (0xF8) events."""
    return [frame for frame, data in midi_events if data == [0xF8]]


def grid_fit(frames, interval, origin=None, holes=()):
    """Timing figures of `frames` against a grid of `interval` frames (dict, see the module doc)."""
    n = len(frames)
    if n < 2:
        return {"count": n, "max_error_anchored": float("inf"), "max_error_fitted": float("inf"),
                "offset": float("nan"), "drift_ppm": float("nan"), "drift_stderr_ppm": float("nan"),
                "missing": 0, "extra": 0, "unseen": 0, "gaps": 0,
                "errors": [], "indices": []}
    reference = frames[0] if origin is None else origin
    # Each index from the previous one, so a drifting grid keeps its count.
    indices = [round((frames[0] - reference) / interval)]
    for previous, f in zip(frames, frames[1:]):
        indices.append(indices[-1] + round((f - previous) / interval))
    steps = [b - a for a, b in zip(indices, indices[1:])]
    extra = sum(1 for s in steps if s < 1)
    errors = [(f - reference) - i * interval for f, i in zip(frames, indices)]
    median = sorted(errors)[n // 2]
    core = [e for e in errors if abs(e - median) <= 1.0]
    phase = (max(core) + min(core)) / 2
    missing = unseen = 0
    for a, b in zip(indices, indices[1:]):
        for index in range(a + 1, b):
            expected = reference + phase + index * interval
            if any(start <= expected < end for start, end in holes):
                unseen += 1
            else:
                missing += 1

    mx = sum(indices) / n
    my = sum(f - reference for f in frames) / n
    sxy = sum((x - mx) * (f - reference - my) for x, f in zip(indices, frames))
    sxx = sum((x - mx) ** 2 for x in indices)
    slope = sxy / sxx if sxx else interval
    drift = (slope / interval - 1) * 1e6
    residuals = [f - reference - my - slope * (x - mx) for x, f in zip(indices, frames)]
    stderr = ((sum(r * r for r in residuals) / (n - 2) / sxx) ** 0.5 / interval * 1e6) if n > 2 and sxx else float("nan")
    return {"count": n, "max_error_anchored": max(abs(e) for e in errors),
            "max_error_fitted": max(abs(e - phase) for e in errors), "offset": sum(errors) / n,
            "drift_ppm": drift, "drift_stderr_ppm": stderr, "missing": missing, "extra": extra, "unseen": unseen, "gaps": missing + extra,
            "errors": [e - phase for e in errors], "indices": indices}


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
    print(" ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}" for k, v in fit.items()
                   if k not in ("errors", "indices")))
    trouble = disturbances(header)
    if trouble:
        print(f"recording disturbed: {trouble}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
