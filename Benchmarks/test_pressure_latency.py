#!/usr/bin/env python3
"""Row 7's analysis on synthetic recordings: a clock that changes tempo a known
number of frames after a strong press is reported with exactly that latency."""
import os
import tempfile
import unittest

import pressure_latency
from grid_analysis import read_recording, ticks

RATE = 48_000


def clock(start_bpm, changes, until):
    """Tick frames from 0 at start_bpm; `changes` = [(tick frame from which, new bpm)]."""
    frames, frame, tempo, pending = [], 0.0, start_bpm, list(changes)
    while frame < until:
        if pending and round(frame) >= pending[0][0]:
            tempo = pending.pop(0)[1]
        frames.append(round(frame))
        frame += RATE * 60 / (24 * tempo)
    return frames


def recording(tick_frames, control):
    lines = [f"M 1 {f} f8" for f in tick_frames] + [f"M 2 {f} {' '.join(f'{b:x}' for b in data)}" for f, data in control]
    handle, path = tempfile.mkstemp(suffix=".txt")
    with os.fdopen(handle, "w") as f:
        f.write("# rate 48000 period 256 first-frame 0 end-frame 480000 cycles 1875 overflow 0 xruns 0\n")
        f.write("\n".join(sorted(lines, key=lambda line: int(line.split()[2]))) + "\n")
    return path


class PressureLatencyOnSyntheticRecordings(unittest.TestCase):
    def measure(self, tick_frames, control):
        path = recording(tick_frames, control)
        try:
            header, _, midi = read_recording(path)
        finally:
            os.remove(path)
        return pressure_latency.latencies(ticks(midi[1]), midi[2], header["rate"])

    def test_the_first_tick_at_the_new_tempo_gives_the_latency(self):
        # 100 BPM = 1200 frames a tick; the strong press at 100 000, the clock at 110 BPM from tick 105 600.
        ticks_ = clock(100, [(105_600, 110)], 200_000)
        found = self.measure(ticks_, [(90_000, [0x90, 72, 100]), (92_400, [0xD0, 60]), (100_000, [0xD0, 120])])
        self.assertEqual(found, [(100_000, 1, 5_600)])

    def test_a_down_press_needs_a_slower_clock(self):
        ticks_ = clock(120, [(130_000, 108)], 200_000)         # 1000 frames a tick, then 1111.1
        found = self.measure(ticks_, [(110_000, [0x90, 71, 100]), (121_500, [0xD0, 120])])
        self.assertEqual(found, [(121_500, -1, 8_500)])

    def test_a_light_step_of_one_bpm_is_not_the_new_tempo(self):
        ticks_ = clock(100, [(103_200, 101), (110_400, 111)], 200_000)
        found = self.measure(ticks_, [(90_000, [0x90, 72, 100]), (100_000, [0xD0, 120])])
        # 101 BPM ticks (1188.1 frames) from 103 200: the 7th, 111 517, is the first at or after 110 400.
        self.assertEqual(found, [(100_000, 1, 11_517)])

    def test_no_tempo_change_within_half_a_second_is_no_measurement(self):
        ticks_ = clock(100, [], 200_000)
        found = self.measure(ticks_, [(90_000, [0x90, 72, 100]), (100_000, [0xD0, 120])])
        self.assertEqual(found, [(100_000, 1, None)])
        self.assertEqual(pressure_latency.summary(found, RATE), {"presses": 1, "measured": 0})

    def test_summary_in_milliseconds(self):
        found = [(0, 1, frames) for frames in range(480, 480 * 101, 480)]      # 10, 20 … 1000 ms
        self.assertEqual(pressure_latency.summary(found, RATE),
                         {"presses": 100, "measured": 100, "min": 10.0, "median": 510.0, "p90": 910.0, "max": 1000.0})

    def test_the_scenario_alternates_keys_and_presses_within_one_step_period(self):
        lines = pressure_latency.scenario(presses=4)
        notes = [line.split() for line in lines if line.split()[1] == "90"]
        self.assertEqual([int(n[2], 16) for n in notes], [72, 71, 72, 71])
        strong = [float(line.split()[0]) for line in lines if line.split()[1:] == ["d0", "78"]]
        holds = [float(n[0]) for n in notes]
        self.assertEqual(len(strong), 4)
        for hold, press in zip(holds, strong):
            self.assertTrue(0.5 <= press - hold < 0.66)


if __name__ == "__main__":
    unittest.main()
