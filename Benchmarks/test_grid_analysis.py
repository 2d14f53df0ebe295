#!/usr/bin/env python3
"""The benchmark's analysis on synthetic recordings with known errors.

Each recording is written in the recorder's format (`# header`, `A`, `M`, `H`
lines) and read back, so the whole path from file to figure is checked: a grid
shifted by 0.3 frames, a drift of 100 ppm, a missing tick, an extra event,
xruns and holes, and the report's parsers for the other rows' outputs.

Run: python3 -m unittest discover -s Benchmarks -p 'test_*.py'   (scripts/test does)
"""
import json
import os
import shutil
import tempfile
import unittest

import bench_report
import jack_vs_peers_report
from grid_analysis import disturbances, grid_fit, read_recording, ticks

RATE = 48_000
BEAT_133 = RATE * 60 / 133            # 21654.135… frames: not a whole number, so rounding shows
TICK_133 = BEAT_133 / 24              # 902.2556… frames


def write_recording(lines, header="# rate 48000 period 256 first-frame 0 end-frame 1440000 cycles 5625 overflow 0 xruns 0"):
    handle, path = tempfile.mkstemp(suffix=".txt")
    with os.fdopen(handle, "w") as f:
        f.write(header + "\n" + "".join(line + "\n" for line in lines))
    return path


def clock_lines(frames, port=1):
    return [f"M {port} {f} f8" for f in frames]


class GridAnalysisOnSyntheticRecordings(unittest.TestCase):
    def analyse_clock(self, frames, origin=None):
        path = write_recording(clock_lines(frames))
        try:
            header, onsets, midi = read_recording(path)
        finally:
            os.remove(path)
        return grid_fit(ticks(midi[1]), TICK_133, origin=origin)

    def test_a_grid_rounded_to_whole_frames_is_within_half_a_frame_without_drift(self):
        fit = self.analyse_clock([round(1000 + k * TICK_133) for k in range(1200)])
        self.assertLessEqual(fit["max_error_fitted"], 0.5)
        self.assertGreater(fit["max_error_fitted"], 0.45)   # rounding a non-integer grid costs almost half a frame
        self.assertLess(abs(fit["drift_ppm"]), 0.05)
        self.assertLess(abs(fit["drift_ppm"]), 3 * fit["drift_stderr_ppm"])   # no drift beyond what rounding leaves open
        self.assertEqual((fit["count"], fit["missing"], fit["extra"]), (1200, 0, 0))

    def test_a_grid_shifted_by_0_3_frames_shows_as_an_offset_of_0_3_frames(self):
        # Fractional frames (an interpolating recorder): every event 0.3 frames late.
        fit = self.analyse_clock([f"{1000 + k * TICK_133 + 0.3:.4f}" for k in range(500)], origin=1000)
        self.assertAlmostEqual(fit["offset"], 0.3, places=3)
        self.assertAlmostEqual(fit["max_error_anchored"], 0.3, places=3)
        self.assertAlmostEqual(fit["max_error_fitted"], 0.0, places=3)   # a rigid shift keeps the spacing
        self.assertLess(abs(fit["drift_ppm"]), 0.01)

    def test_a_grid_shifted_by_0_3_frames_and_rounded_breaks_the_half_frame_bound(self):
        fit = self.analyse_clock([round(1000 + k * TICK_133 + 0.3) for k in range(1200)], origin=1000)
        self.assertGreater(fit["max_error_anchored"], 0.5)
        self.assertLessEqual(fit["max_error_anchored"], 0.8 + 1e-9)
        self.assertAlmostEqual(fit["offset"], 0.3, delta=0.02)
        # The same events against their own grid: still within rounding.
        self.assertLessEqual(self.analyse_clock([round(1000 + k * TICK_133 + 0.3) for k in range(1200)])["max_error_fitted"], 0.5)

    def test_a_drift_of_100_ppm_is_reported_as_100_ppm(self):
        fit = self.analyse_clock([round(1000 + k * TICK_133 * (1 + 100e-6)) for k in range(1600)])
        self.assertAlmostEqual(fit["drift_ppm"], 100.0, delta=0.5)
        self.assertLess(fit["drift_stderr_ppm"], 0.1)          # 1600 ticks pin the slope down
        # After 1599 ticks the grid is 0.144 frames per 1000 ticks off: the max error grows past rounding.
        self.assertGreater(fit["max_error_fitted"], 0.5)
        self.assertEqual(fit["missing"], 0)

    def test_a_missing_tick_is_counted_and_does_not_shift_the_grid(self):
        frames = [round(1000 + k * TICK_133) for k in range(300)]
        del frames[150]
        fit = self.analyse_clock(frames)
        self.assertEqual((fit["count"], fit["missing"], fit["extra"]), (299, 1, 0))
        self.assertEqual(fit["indices"][150], 151)
        self.assertLessEqual(fit["max_error_fitted"], 0.5)
        self.assertLess(abs(fit["drift_ppm"]), 0.1)

    def test_a_tick_in_a_hole_of_the_recording_is_unseen_not_missing(self):
        frames = [round(1000 + k * TICK_133) for k in range(300)]
        hole = (frames[150] - 100, frames[150] + 156)
        del frames[150]
        fit = grid_fit(frames, TICK_133, holes=[hole])
        self.assertEqual((fit["missing"], fit["unseen"]), (0, 1))
        self.assertEqual(grid_fit(frames, TICK_133, holes=[(0, 500)])["missing"], 1)

    def test_an_event_twice_is_counted_as_extra(self):
        frames = [round(1000 + k * TICK_133) for k in range(100)]
        frames.insert(50, frames[50])
        fit = self.analyse_clock(frames)
        self.assertEqual((fit["missing"], fit["extra"]), (0, 1))

    def test_a_click_late_by_one_period_is_the_max_error(self):
        frames = [round(5000 + k * BEAT_133) for k in range(40)]
        frames[20] += 256
        fit = grid_fit(frames, BEAT_133)
        self.assertAlmostEqual(fit["max_error_fitted"], 256, delta=0.5)   # its whole lateness, not half of it
        self.assertAlmostEqual(fit["max_error_anchored"], 256, delta=0.5)
        self.assertEqual(sum(1 for e in fit["errors"] if abs(e) > 1), 1)  # the other 39 stay on the grid

    def test_xruns_holes_and_overflow_mark_a_recording_disturbed(self):
        path = write_recording(["H 96000 96512"] + clock_lines([1000, 1902]),
                               header="# rate 48000 period 256 first-frame 0 end-frame 480000 cycles 1875 overflow 2 xruns 3")
        try:
            header, _, _ = read_recording(path)
        finally:
            os.remove(path)
        self.assertEqual(header["holes"], [(96000, 96512)])
        self.assertEqual(disturbances(header), "3 xruns, 1 skipped-cycle holes, 2 events lost to a full recorder")
        self.assertEqual(disturbances({"holes": [], "xruns": 0, "overflow": 0}), "")


class RunReportOnASyntheticRecording(unittest.TestCase):
    def test_each_program_gets_its_own_figures(self):
        first = 96_000
        lines = [f"A 1 {round(first + k * BEAT_133)} 0.9" for k in range(30)]                       # tactus: exact
        lines += [f"A 2 {round(first + 7 + k * BEAT_133 * (1 + 100e-6))} 0.48" for k in range(30)]  # klick: 100 ppm
        lines += clock_lines([round(first + k * TICK_133) for k in range(720)], port=1)              # tactus clock
        peer = [round(first + 3 + k * TICK_133 + 0.3) for k in range(720)]
        del peer[400]                                                                                # one tick lost
        lines += clock_lines(peer, port=2)
        path = write_recording(sorted(lines, key=lambda line: int(line.split()[2])),
                               header=f"# rate 48000 period 256 first-frame {first} end-frame {first + 960000} cycles 3750 overflow 0 xruns 0")
        try:
            run = jack_vs_peers_report.analyse(path, 133, {"tactus": (0.5, 5000, 0.2), "klick": (0.6, 700), "jack_midi_clock": (0.4, 2300)})
        finally:
            os.remove(path)
        streams = {(s["program"], s["stream"]): s for s in run["streams"]}
        self.assertEqual(run["disturbed"], "")
        self.assertAlmostEqual(run["recorded_seconds"], 20.0)
        self.assertLessEqual(streams[("tactus", "click")]["max_error_fitted"], 0.5)
        self.assertLess(abs(streams[("tactus", "click")]["drift_ppm"]), 1)
        self.assertAlmostEqual(streams[("klick", "click")]["drift_ppm"], 100, delta=2)
        self.assertEqual(streams[("tactus", "clock")]["missing"], 0)
        self.assertEqual(streams[("jack_midi_clock", "clock")]["missing"], 1)
        self.assertEqual(streams[("jack_midi_clock", "clock")]["count"], 719)
        self.assertAlmostEqual(streams[("tactus", "clock")]["seconds"][0], 0.0)
        self.assertEqual(run["processes"]["klick"], {"cpu_percent": 0.6, "rss_anon_kb": 700, "rt_cpu_percent": None})
        self.assertEqual(run["processes"]["tactus"], {"cpu_percent": 0.5, "rss_anon_kb": 5000, "rt_cpu_percent": 0.2})


class ProcessRows(unittest.TestCase):
    def run_with(self, processes):
        return {"processes": {n: {"cpu_percent": c, "rss_anon_kb": r, "rt_cpu_percent": None} for n, (c, r) in processes.items()},
                "recorded_seconds": 30}

    def test_row_3_puts_the_deb_builds_rss_beside_the_source_builds(self):
        peers = {"klick": (0.6, 700), "jack_midi_clock": (0.4, 2300)}
        runs = [("jackd", 256, 120.0, 1, self.run_with({"tactus": (0.5, 5120), "tactus_static": (0.5, 3584), **peers})),
                ("jackd", 256, 133.0, 1, self.run_with({"tactus": (0.5, 4096), "tactus_static": (0.5, 4608), **peers}))]
        rss = [row for row in bench_report.process_rows(3, runs) if row[1] == "RssAnon (largest)"]
        self.assertEqual(rss[0][3], "5.0 MB (.deb build 4.5 MB)")
        self.assertEqual(rss[0][4], "klick 0.7 + jack_midi_clock 2.2 = 2.9 MB")

    def test_row_3_without_the_deb_build_is_as_before(self):
        runs = [("jackd", 64, 120.0, 1, self.run_with({"tactus": (0.5, 5120), "klick": (0.6, 700), "jack_midi_clock": (0.4, 2300)}))]
        rss = [row for row in bench_report.process_rows(3, runs) if row[1] == "RssAnon (largest)"]
        self.assertEqual(rss[0][3], "5.0 MB")
        self.assertFalse(any("--sync-out" in row[1] for row in bench_report.process_rows(3, runs)))

    def test_row_3_puts_the_sync_outputs_cpu_under_the_plain_runs(self):
        peers = {"klick": (0.6, 700), "jack_midi_clock": (0.4, 2300)}
        runs = [("jackd", 256, bpm, 1, self.run_with({"tactus": (0.5, 5120), "tactus_sync": (cpu, 5200), **peers}))
                for bpm, cpu in ((120.0, 0.6), (133.0, 0.8))]
        rows = bench_report.process_rows(3, runs)
        names = [row[1] for row in rows]
        sync = names.index("CPU % of one core with --sync-out din24 (click, clock and two sync lines, unconnected)")
        self.assertEqual(names[sync - 1], "CPU % of one core (click + clock), all threads (real-time thread)")
        self.assertEqual(rows[sync][3], "0.70 %")


class ParsersOfTheOtherRows(unittest.TestCase):
    def test_render_vs_klick_output(self):
        rows, note = bench_report.parse_render(
            "one hour, 48 kHz, 16-bit mono WAV       seconds     x realtime\n"
            "klick -W (no subdivision)                 1.803           1997\n"
            "tactus render                             0.460           7826\n"
            "tactus render --subdivision 16ths         1.445           2491\n"
            "(median of 1 runs each, whole process, files on /dev/shm)\n")
        self.assertEqual(rows["klick -W (no subdivision)"], (1.803, 1997))
        self.assertEqual(rows["tactus render"], (0.46, 7826))
        self.assertEqual(rows["tactus render --subdivision 16ths"], (1.445, 2491))
        self.assertEqual(note, "median of 1 runs each, whole process, files on /dev/shm")

    def test_alsa_clock_output(self):
        found = bench_report.parse_alsa(
            "look-ahead 5 ms:\n"
            "  ALSA clock 120 BPM: 264 ticks received of 264 emitted; lateness p50 0.612 p95 1.204 max 3.100 ms, "
            "interval sd 0.401 ms; written on time: 264/264, ...\n")
        self.assertEqual(found, [(5, 120, 264, 264, 0.612, 1.204, 3.1, 0.401)])

    def test_alsa_clock_on_time_figures(self):
        line = ("ALSA clock 120 BPM: 265 ticks received of 265 emitted; lateness p50 0.098 p95 0.166 max 26.299 ms, interval sd 1.341 ms; "
                "written on time: 263/265, their lateness p50 0.097 p95 0.165 max 5.475 ms, interval sd 0.337 ms; simulated ...")
        self.assertEqual(bench_report.parse_alsa_on_time(line), (263, 0.097, 0.165, 5.475, 0.337))

    def test_pressure_row_from_the_live_figures(self):
        raw = tempfile.mkdtemp()
        try:
            with open(os.path.join(raw, "pressure.json"), "w") as f:
                json.dump({"presses": 100, "measured": 100, "min": 4.5, "median": 95.6, "p90": 158.4, "max": 172.9,
                           "setting": "live on jackd dummy 48000 Hz p256: tactus run"}, f)
            self.assertEqual(bench_report.pressure_rows(raw), [[
                7, "pressure→tempo latency over 100 presses (min / median / p90 / max)",
                "live on jackd dummy 48000 Hz p256: tactus run; 100 of 100 presses measured",
                "4.5 / 95.6 / 158.4 / 172.9 ms", "— (no peer has pressure control)"]])
        finally:
            shutil.rmtree(raw)

    def test_pressure_row_says_why_nothing_was_measured(self):
        raw = tempfile.mkdtemp()
        try:
            with open(os.path.join(raw, "pressure.txt"), "w") as f:
                f.write("not measured: Benchmarks/pressure-latency.sh failed (exit 3, raw/pressure-live.txt)\n")
            self.assertEqual(bench_report.pressure_rows(raw), [[
                7, "pressure→tempo latency", "not measured: Benchmarks/pressure-latency.sh failed (exit 3, raw/pressure-live.txt)",
                "—", "—"]])
        finally:
            shutil.rmtree(raw)

    def test_the_readme_gets_the_table_between_its_markers_only(self):
        handle, path = tempfile.mkstemp(suffix=".md")
        with os.fdopen(handle, "w") as f:
            f.write("## Performance\n\nhow to run\n<!-- bench-results: begin -->\nold table\n<!-- bench-results: end -->\n\n## Next\n")
        try:
            bench_report.update_readme(path, "## Tactus benchmark (all rows)\n\n| a | b |\n\nPlot: results.png\n")
            with open(path) as f:
                text = f.read()
        finally:
            os.remove(path)
        self.assertEqual(text, "## Performance\n\nhow to run\n<!-- bench-results: begin -->\n### Latest run (all rows)\n\n| a | b |\n\n"
                               "Plot: `bench-results/results.png` (not committed).\n<!-- bench-results: end -->\n\n## Next\n")

    def test_callgrind_total(self):
        handle, path = tempfile.mkstemp()
        with os.fdopen(handle, "w") as f:
            f.write("# callgrind format\nevents: Ir\nsummary: 12279132\ntotals: 12279132\n")
        try:
            self.assertEqual(bench_report.callgrind_total(path), 12279132)
        finally:
            os.remove(path)


if __name__ == "__main__":
    unittest.main()
