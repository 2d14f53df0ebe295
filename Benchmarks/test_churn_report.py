#!/usr/bin/env python3
"""Benchmarks/churn_report.py on synthetic samples: what counts as growth.

Run: python3 -m unittest discover -s Benchmarks -p 'test_*.py'   (scripts/test does)
"""
import json
import os
import shutil
import tempfile
import unittest

import bench_report
import churn_report

LOG = ("JackEngine::XRun: client = tactus was not finished, state = Triggered\n"
       "JackEngine::XRun: client = presser3 was not finished, state = Running\n"
       "JackAudioDriver::ProcessGraphAsyncMaster: Process error\n")


def samples(rss_at_60, rss_end, threads=(7, 7), fds=(17, 17)):
    """A 300 s run: 6 500 kB at 3 s, the baseline at 178 s, the end at 300 s."""
    return [(3, 6500, 7, 17, 10), (173, rss_at_60 - 500, 7, 17, 40), (178, rss_at_60, threads[0], fds[0], 45),
            (250, rss_at_60 + 4, 7, 17, 100), (300, rss_end, threads[1], fds[1], 310)]


class ChurnVerdict(unittest.TestCase):
    def test_the_baseline_is_the_first_sample_from_178_s_and_64_kb_more_is_still_nothing(self):
        v = churn_report.verdict(samples(7064, 7128), seconds=300, restarts=1, clock_ticks=100, log_text=LOG)
        self.assertEqual(v["baseline_at"], 178)
        self.assertEqual(v["rss_anon_kb"], [7064, 7128])
        self.assertEqual(v["rss_growth_kb"], 64)
        self.assertEqual(v["rss_peak_kb"], 7128)
        self.assertEqual(v["grew"], [])
        self.assertEqual((v["xruns"], v["xruns_tactus"]), (2, 1))
        self.assertAlmostEqual(v["control_cpu_seconds"], 3.0)
        self.assertAlmostEqual(v["control_cpu_percent"], 100 * 3.0 / 297)

    def test_65_kb_more_one_thread_or_one_descriptor_more_is_growth(self):
        self.assertEqual(churn_report.verdict(samples(7064, 7129))["grew"], ["RssAnon +65 kB"])
        self.assertEqual(churn_report.verdict(samples(7064, 7064, threads=(7, 8)))["grew"], ["threads 7 → 8"])
        self.assertEqual(churn_report.verdict(samples(7064, 7064, fds=(17, 16)))["grew"], ["fds 17 → 16"])

    def test_the_line_and_the_exit_status(self):
        folder = tempfile.mkdtemp()
        try:
            with open(os.path.join(folder, "samples.txt"), "w") as f:
                f.write("".join(" ".join(str(x) for x in s) + "\n" for s in samples(7064, 7070)) + "garbage line\n")
            with open(os.path.join(folder, "jackd.log"), "w") as f:
                f.write(LOG)
            self.assertEqual(churn_report.main([folder, "--seconds", "300", "--restarts", "1"]), 0)
            with open(os.path.join(folder, "churn.json")) as f:
                v = json.load(f)
            self.assertEqual(churn_report.line(v),
                             "churn 300 s (1 server restart): RssAnon 7064 kB at 178 s, 7070 kB at 300 s (+6 kB, bound 64 kB; "
                             "peak 7070 kB); fds 17 → 17; threads 7 → 7; control thread CPU 1.01 % of one core (3.0 s); "
                             "server xruns 2, 1 naming tactus; nothing grew")
            self.assertEqual(churn_report.main([os.path.join(folder, "none")]), 2)
        finally:
            shutil.rmtree(folder)

    def test_row_10_from_the_churn_figures(self):
        raw = tempfile.mkdtemp()
        try:
            os.makedirs(os.path.join(raw, "churn"))
            with open(os.path.join(raw, "churn", "churn.json"), "w") as f:
                json.dump(churn_report.verdict(samples(7064, 7200, fds=(17, 18)), seconds=3600, restarts=1, log_text=LOG), f)
            row = bench_report.churn_rows(raw)[0]
            self.assertEqual(row[0], 10)
            self.assertEqual(row[3], "7064 → 7200 kB (+136 kB, bound 64); fds 17 → 18; threads 7 → 7; CPU 1.01 %; "
                                     "xruns 2 (1 naming tactus); GREW: RssAnon +136 kB, fds 17 → 18")
        finally:
            shutil.rmtree(raw)


if __name__ == "__main__":
    unittest.main()
