#!/usr/bin/env python3
"""Row 11 of scripts/bench from Benchmarks/xrun.sh's output: the lines the two
forced-xrun acceptance tests print, read back into the table.

Run: python3 -m unittest discover -s Benchmarks -p 'test_*.py'   (scripts/test does)
"""
import os
import shutil
import tempfile
import unittest

import bench_report

JACK = ("JACK clock through one 68 ms stall at 133.0 BPM: 264 ticks, 5 late at a cycle start; 264 events, max error 2816.4 frames "
        "(best phase 2816.2), 0 gaps, 0 unseen, drift 0.02 ppm; stall 1234567 68012\n")
ALSA = ("ALSA clock through a 68 ms stall at 133 BPM: 250 ALSA ticks, 250 JACK ticks, JACK grid: 250 ticks, 0 missing, 0 doubled, 0 off; "
        "from 0.5 s after the stall (180 intervals): interval spread 0.061 ms (max |error| 0.190 ms), lateness p50 0.090 p95 0.180 "
        "max 0.400 ms; from 0.1 s before the stall to 0.5 s after: interval spread 2.900 ms, max |error| 6.000 ms; before it: "
        "spread 0.070 ms; the server's frames ran at 48000 a second; 1 xruns; arrival stamps stepped back by up to 12 µs; tactus: sent 252\n")


class XrunRow(unittest.TestCase):
    def test_both_lines_are_read(self):
        jack, alsa = bench_report.parse_xrun("tactus: building\n" + JACK + "alsa-vm\n" + ALSA)
        self.assertEqual(jack, {"stall_ms": 68, "bpm": 133.0, "ticks": 264, "late": 5, "max_error": 2816.4, "gaps": 0, "unseen": 0})
        self.assertEqual(alsa, {"stall_ms": 68, "bpm": 133.0, "alsa_ticks": 250, "jack_ticks": 250, "intervals": 180, "after": 0.061, "after_max": 0.19,
                                "p50": 0.09, "p95": 0.18, "max": 0.4, "during": 2.9, "during_max": 6.0, "before": 0.07, "xruns": 1})

    def test_row_11_in_the_table(self):
        raw = tempfile.mkdtemp()
        try:
            with open(os.path.join(raw, "xrun.txt"), "w") as f:
                f.write(JACK + "alsa-vm\n" + ALSA)
            rows = bench_report.xrun_rows(raw)
            self.assertEqual(rows[0][3], "264 ticks, 5 late at a cycle start, 0 gaps, 0 unseen")
            self.assertEqual(rows[1][2], "one 68 ms stall at 133 BPM, alsa-vm (emulated CPU); 1 xruns; 250 ALSA ticks, 250 on JACK")
            self.assertEqual(rows[1][3], "sd 0.070 / 2.900 / 0.061 ms; p50 0.090 p95 0.180 max 0.400 ms")
            with open(os.path.join(raw, "xrun.txt"), "w") as f:
                f.write("alsa-vm\n" + ALSA.replace("1 xruns;", "9 xruns, 10 noticed by the recorder (5 ms from the stall); 381 machine stalls over 1 ms after the stall "
                                                     "(the longest 33 ms); 11 of 17 half-second windows judged;"))
            self.assertEqual(bench_report.xrun_rows(raw)[0][2], "one 68 ms stall at 133 BPM, alsa-vm (emulated CPU); 9 xruns; "
                             "381 machine stalls over 1 ms after it (longest 33 ms); 11 of 17 half-second windows after it without either (judged); "
                             "250 ALSA ticks, 250 on JACK")
            with open(os.path.join(raw, "xrun.txt"), "w") as f:
                f.write("alsa-vm\n" + ALSA.replace("(180 intervals)", "(0 intervals)").replace("1 xruns", "44 xruns"))
            self.assertEqual(bench_report.xrun_rows(raw)[0][3],
                             "not measured: the server or the machine itself lost real time (xruns, timers over 1 ms late) in every window, "
                             "the test judges no timing then")
            with open(os.path.join(raw, "xrun.txt"), "w") as f:
                f.write("JACK clock through a forced xrun: no figures\n")
            self.assertEqual(bench_report.xrun_rows(raw), [[11, "clocks through a forced xrun", "no figures: see raw/xrun.txt", "—", "—"]])
        finally:
            shutil.rmtree(raw)


if __name__ == "__main__":
    unittest.main()
