#!/usr/bin/env python3
"""Benchmarks/churn_report.py on synthetic samples: what counts as growth.

Run: python3 -m unittest discover -s Benchmarks -p 'test_*.py'   (scripts/test does)
"""
import collections
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

    def test_a_changed_descriptor_count_names_what_came_or_went(self):
        targets = {178: collections.Counter(["/dev/shm/jack-0", "socket:[]", "socket:[]"]),
                   300: collections.Counter(["/dev/shm/jack-0", "socket:[]", "pipe:[]"])}
        self.assertEqual(churn_report.verdict(samples(7064, 7064, fds=(17, 16)), fd_targets=targets)["grew"],
                         ["fds 17 → 16 (only at the baseline: socket:[]; only at the end: pipe:[])"])
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "fds.txt"), "w") as f:
                f.write("178 /dev/null socket:[] socket:[] \n300 /dev/null socket:[]\n")
            read = churn_report.read_fd_targets(os.path.join(d, "fds.txt"))
            self.assertEqual(churn_report.fd_difference(read, 178, 300),
                             " (only at the baseline: socket:[]; only at the end: none)")
            self.assertEqual(churn_report.fd_difference(read, 178, 301), "")

    def test_the_live_heap_from_the_baseline_and_its_bound(self):
        def heaped(end_bytes, end_blocks):
            # The interposer's fields: bytes and blocks live at each sample.
            return [s + (900_000 + 10 * s[0], 2000) for s in samples(7064, 7064)[:-1]] + [samples(7064, 7064)[-1] + (end_bytes, end_blocks)]
        v = churn_report.verdict(heaped(901_780 + churn_report.HEAP_BOUND_BYTES, 2000 + churn_report.HEAP_BOUND_BLOCKS),
                                 baseline_seconds=173, rss_bound=512)
        self.assertEqual((v["baseline_at"], v["heap_bytes"][0], v["heap_blocks"][0]), (173, 901_730, 2000))
        self.assertEqual((v["heap_growth_bytes"], v["heap_growth_blocks"]), (50 + churn_report.HEAP_BOUND_BYTES, churn_report.HEAP_BOUND_BLOCKS))
        self.assertEqual(v["grew"], [f"live heap +{50 + churn_report.HEAP_BOUND_BYTES} bytes, +{churn_report.HEAP_BOUND_BLOCKS} blocks"])
        self.assertEqual(v["heap_peak_bytes"], 901_780 + churn_report.HEAP_BOUND_BYTES)
        self.assertEqual(churn_report.verdict(heaped(901_730 + churn_report.HEAP_BOUND_BYTES, 2001 + churn_report.HEAP_BOUND_BLOCKS),
                                              baseline_seconds=173, rss_bound=512)["grew"][0],
                         f"live heap +{churn_report.HEAP_BOUND_BYTES} bytes, +{1 + churn_report.HEAP_BOUND_BLOCKS} blocks")
        self.assertEqual(churn_report.verdict(heaped(901_730 + churn_report.HEAP_BOUND_BYTES, 2000 + churn_report.HEAP_BOUND_BLOCKS),
                                              baseline_seconds=173, rss_bound=512)["grew"], [])
        # RssAnon's own bound: 500 kB more than at 173 s (6564) is nothing under 512, growth under 64.
        self.assertEqual(churn_report.verdict(heaped(900_000, 2000), baseline_seconds=173, rss_bound=512)["grew"], [])
        self.assertEqual(churn_report.verdict(heaped(900_000, 2000), baseline_seconds=173)["grew"], ["RssAnon +500 kB"])

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
                             "server xruns 2, 1 naming tactus, 0 while its callback ran; its twin without tactus: 0; nothing grew")
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
                                     "xruns 2 (1 naming tactus, 0 while its callback ran; twin server without tactus 0); GREW: RssAnon +136 kB, fds 17 → 18")
            heaped = [s + (900_000, 2000) for s in samples(7064, 7064)]
            with open(os.path.join(raw, "churn", "churn.json"), "w") as f:
                json.dump(churn_report.verdict(heaped, seconds=3600, restarts=1, log_text=LOG, rtprobe={"cycles": 675000, "violations": 0}), f)
            self.assertEqual(bench_report.churn_rows(raw)[0][3],
                             "live heap 900000 → 900000 bytes (+0, bound 4096), 2000 → 2000 blocks (+0, bound 16); "
                             "7064 → 7064 kB (+0 kB, bound 64); fds 17 → 17; threads 7 → 7; CPU 1.01 %; "
                             "xruns 2 (1 naming tactus, 0 while its callback ran; twin server without tactus 0); "
                             "process callback: 0 allocations or locks in 675000 cycles")
        finally:
            shutil.rmtree(raw)


def grid(runs, first=1000, rate=48000):
    """Tick frames as the engine places them: each run of (hundredths, ticks) anchored at the last tick so far."""
    frames = [first]
    for h, n in runs:
        anchor = frames[-1]
        frames += [anchor + (2 * k * rate * 250 + h) // (2 * h) for k in range(1, n + 1)]
    return frames


class ClockGrid(unittest.TestCase):
    def test_tempo_runs_split_at_the_tick_a_tempo_takes_effect(self):
        frames = grid([(12000, 10), (13300, 5), (12001, 40)])
        runs = churn_report.tempo_runs(frames, 48000)
        self.assertEqual([(a, b) for a, b, _ in runs], [(0, 10), (10, 15), (15, 55)])
        self.assertTrue(runs[0][2][0] <= 12000 <= runs[0][2][1] and runs[1][2][0] <= 13300 <= runs[1][2][1])
        self.assertEqual(frames[1] - frames[0], 1000)

    def test_close_tempos_and_many_changes_leave_no_tick_off(self):
        runs = [(6000 + (7919 * i) % 24000, 2 + (i * 13) % 30) for i in range(300)] + [(12000, 30), (12001, 60), (11999, 60)]
        self.assertEqual(churn_report.off_grid_ticks(grid(runs), 48000), [])

    def test_anchors_between_frames_leave_no_tick_off(self):
        # The tempo taking effect at a tick's ideal position (between frames), each tick rounded from it:
        # as recorded from tactus (118 BPM after 124: intervals 1017 with a 1016 now and then).
        frames, ideal = [], 0.3
        for h, n in [(12400, 40), (11800, 300), (12401, 50), (13300, 80)] * 3:
            frames += [int(ideal + k * 12_000_000 / h + 0.5) for k in range(0 if not frames else 1, n + 1)]
            ideal += n * 12_000_000 / h
        self.assertEqual(churn_report.off_grid_ticks(frames, 48000), [])

    def test_a_late_a_missing_and_a_doubled_tick_are_off_the_grid(self):
        frames = grid([(13300, 200)])
        late = frames[:]
        late[100] += 150
        self.assertEqual(churn_report.off_grid_ticks(late, 48000), [100, 101])
        self.assertEqual(churn_report.off_grid_ticks(frames[:100] + frames[101:], 48000), [100])
        self.assertEqual(churn_report.off_grid_ticks(frames[:101] + frames[100:], 48000), [101])
        two = frames[:]
        two[100] += 2
        self.assertEqual(churn_report.off_grid_ticks(two, 48000), [100, 101])

    def write_take(self, folder, n, frames, start, holes=(), rate=48000):
        with open(os.path.join(folder, f"rec-{n}.txt"), "w") as f:
            f.write(f"# rate {rate} period 256 first-frame 0 end-frame {frames[-1] + 256} cycles 1 overflow 0 xruns 0\n")
            f.write("".join(f"M 1 {x} f8\n" for x in frames) + "".join(f"H {a} {b}\n" for a, b in holes))
        with open(os.path.join(folder, f"rec-{n}.start"), "w") as f:
            f.write(f"{start}\n")

    def test_minutes_judged_only_whole_and_without_an_xrun(self):
        # 5 minutes: a take from 2.5 s to 241 s (minutes 1-3 whole), one from 245 s (minute 4 not whole);
        # xruns at 130.4 s (the twin had none: tactus's, minute 2 not judged), 201 s (the twin had
        # some a second before: the machine's; minute 3 not judged) and 230 s (the server's driver woke
        # late: the machine's); minute 1 has a late tick.
        folder = tempfile.mkdtemp()
        try:
            frames = grid([(12000, 11460)], first=0)  # 1000 frames a tick: 238.75 s
            frames[int(60 * 48)] += 300  # at 62.5 s
            self.write_take(folder, 0, frames, 2.5)
            self.write_take(folder, 1, grid([(12000, 2500)], first=0), 245.0)
            with open(os.path.join(folder, "xruns.txt"), "w") as f:
                f.write("130.4 main 1\n130.4 tactus 1\n200.0 twin 3\n201.0 main 3\n201.0 tactus 2\n"
                        "230.0 main 4\n230.0 tactus 3\n230.0 driver 1\n")
            with open(os.path.join(folder, "samples.txt"), "w") as f:
                f.write("".join(" ".join(str(x) for x in s) + "\n" for s in samples(7064, 7070)))
            with open(os.path.join(folder, "jackd.log"), "w") as f:
                f.write("JackEngine::XRun: client = tactus was not finished, state = Triggered\n" * 3
                        + "JackEngine::XRun: client = rec was not finished, state = Triggered\n")
            with open(os.path.join(folder, "jackd-twin.log"), "w") as f:
                f.write("JackEngine::XRun: client = rec was not finished, state = Triggered\n" * 3)
            self.assertEqual(churn_report.read_xruns(os.path.join(folder, "xruns.txt")),
                             {"main": [130.4, 201.0, 201.0, 230.0], "tactus": [130.4, 201.0, 230.0], "twin": [200.0] * 3, "driver": [230.0]})
            self.assertEqual(churn_report.main([folder, "--seconds", "300", "--restarts", "1"]), 1)
            with open(os.path.join(folder, "churn.json")) as f:
                v = json.load(f)
            self.assertEqual((v["clock_minutes_judged"], v["clock_minutes_off"], v["clock_off_ticks"]), (1, [1], 2))
            self.assertEqual((v["clock_minutes_xrun"], v["clock_minutes_not_whole"], v["clock_ticks_judged"]), (2, 2, 2880))
            self.assertEqual((v["xruns_twin"], v["xruns_tactus_alone"]), (3, 1))
            self.assertIn("server xruns 4, 3 naming tactus, 0 while its callback ran, 1 of those with neither the twin nor the driver late; its twin without tactus: 3; "
                          "clock OFF THE GRID in minutes 1 (2 ticks) in 1 undisturbed minute (2880 ticks; "
                          "2 with an xrun, 2 not recorded whole: not judged); ", churn_report.line(v))
            frames[int(60 * 48)] -= 300
            self.write_take(folder, 0, frames, 2.5)
            self.assertEqual(churn_report.main([folder, "--seconds", "300", "--restarts", "1"]), 0)
            self.write_take(folder, 0, frames, 2.5, holes=[(3000000, 3000256)])  # a hole at 65 s: minute 1 not whole
            self.assertEqual(churn_report.main([folder, "--seconds", "300", "--restarts", "1"]), 0)
            with open(os.path.join(folder, "churn.json")) as f:
                v = json.load(f)
            self.assertEqual((v["clock_minutes_judged"], v["clock_minutes_off"], v["clock_minutes_not_whole"]), (0, [], 3))
            # A restart's take from 1.5 s into minute 4 to past its end: whole (START_SLACK), judged.
            self.write_take(folder, 1, grid([(12000, 2900)], first=0), 241.5)
            self.assertEqual(churn_report.main([folder, "--seconds", "300", "--restarts", "1"]), 0)
            with open(os.path.join(folder, "churn.json")) as f:
                v = json.load(f)
            self.assertEqual((v["clock_minutes_judged"], v["clock_minutes_not_whole"], v["clock_ticks_judged"]), (1, 2, 2808))  # 58.5 s of 48 ticks
        finally:
            shutil.rmtree(folder)


if __name__ == "__main__":
    unittest.main()
