#!/usr/bin/env python3
"""Pressure-to-tempo latency on a live server (row 7 of scripts/bench).

`scenario` writes the presses for `tactus-jack-probe send --script` (lines
`SECONDS HEX..`, seconds from the sender's first cycle): press k holds a
control key (Note On), rests at light pressure, then presses strong at a
pseudo-random moment within one step period (0.5 to 0.66 s into the hold, so
every phase of the 160 ms step clock and of the beat is met), and lets go
0.17 s later. Up and down keys alternate, so the tempo swings around where it
started instead of running into the 999 BPM limit.

`analyse` reads a `tactus-jack-probe record` file whose MIDI port 1 took
tactus:clock and port 2 the sender's own output (so each press is stamped
with the frame it entered tactus:control), and measures, per strong press,
the frames from the press to the first clock tick at the new tempo: the tick
from which the tick spacing is at least 5 BPM away from the spacing before the
press, in the key's direction (a strong step is 10 BPM). The same rule as the
offline test pressureToTempoLatencyIsWithinOneStepOneCycleAndOneTick.

usage: pressure_latency.py scenario OUT [PRESSES] [UP_KEY DOWN_KEY]
       pressure_latency.py analyse RECORDING [--json OUT]
"""
import json
import sys

from grid_analysis import read_recording, ticks

STRONG = 120          # a 7-bit pressure above the strong threshold (v >= 89)
LIGHT = 60            # between the light (v >= 4) and strong thresholds
CHANGE_BPM = 5        # a tempo this far from the previous one is the new tempo


def scenario(presses=100, up=72, down=71, start=1.0, every=1.0, seed=12_345):
    lines, state = [], seed
    for k in range(presses):
        state = (state * 6_364_136_223_846_793_005 + 1_442_695_040_888_963_407) % 2 ** 64
        jitter = (state >> 40) / 2 ** 24                     # 0 <= jitter < 1
        key = up if k % 2 == 0 else down
        hold = start + k * every
        press = hold + 0.5 + jitter * 0.16
        lines += [f"{hold:.6f} 90 {key:x} 64", f"{hold + 0.05:.6f} d0 {LIGHT:x}",
                  f"{press:.6f} d0 {STRONG:x}", f"{press + 0.17:.6f} d0 0", f"{press + 0.17:.6f} 80 {key:x} 0"]
    return lines


def bpm(interval, rate):
    return rate * 60 / (24 * interval)


def latencies(ticks_frames, control_events, rate, up=72, down=71):
    """[(press frame, direction, latency frames or None)] for each strong press."""
    found, direction = [], 0
    for frame, data in control_events:
        status = data[0] & 0xF0 if data else 0
        if status == 0x90 and len(data) > 2 and data[2] > 0:
            direction = 1 if data[1] == up else -1 if data[1] == down else 0
        elif status == 0xD0 and len(data) > 1 and data[1] >= 89 and direction:
            found.append((frame, direction, _latency(ticks_frames, frame, direction, rate)))
    return found


def _latency(tick_frames, press, direction, rate):
    before = [b - a for a, b in zip(tick_frames, tick_frames[1:]) if b <= press][-3:]
    if not before:
        return None
    tempo = bpm(sorted(before)[len(before) // 2], rate)
    for a, b in zip(tick_frames, tick_frames[1:]):
        if a < press:
            continue
        if a > press + rate // 2:
            return None
        if direction * (bpm(b - a, rate) - tempo) >= CHANGE_BPM:
            return a - press
    return None


def summary(found, rate):
    measured = sorted(x for _, _, x in found if x is not None)
    if not measured:
        return {"presses": len(found), "measured": 0}

    def ms(frames):
        return round(frames / rate * 1000, 1)
    n = len(measured)
    return {"presses": len(found), "measured": n, "min": ms(measured[0]), "median": ms(measured[n // 2]),
            "p90": ms(measured[min(n - 1, n * 9 // 10)]), "max": ms(measured[-1])}


def main(argv):
    if len(argv) >= 2 and argv[0] == "scenario":
        presses = int(argv[2]) if len(argv) > 2 else 100
        keys = (int(argv[3]), int(argv[4])) if len(argv) > 4 else (72, 71)
        with open(argv[1], "w") as f:
            f.write("\n".join(scenario(presses, *keys)) + "\n")
        return 0
    if len(argv) >= 2 and argv[0] == "analyse":
        header, _, midi = read_recording(argv[1])
        rate = header.get("rate", 48000)
        result = summary(latencies(ticks(midi.get(1, [])), midi.get(2, []), rate), rate)
        result["setting"] = (f"live on jackd dummy {rate} Hz p{header.get('period')}: tactus run; "
                             f"probe sender → tactus:control, recorder on tactus:clock")
        if header.get("xruns") or header.get("holes"):
            result["setting"] += f"; {header.get('xruns', 0)} xruns, {len(header['holes'])} holes"
        print(json.dumps(result, ensure_ascii=False))
        if "--json" in argv:
            with open(argv[argv.index("--json") + 1], "w") as f:
                json.dump(result, f, ensure_ascii=False)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
