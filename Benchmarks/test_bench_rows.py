#!/usr/bin/env python3
"""Benchmarks/bench_report.py --rows: parsing the list, and replacing only those rows of the README's table.

Run: python3 -m unittest discover -s Benchmarks -p 'test_*.py'   (scripts/test does)
"""
import os
import shutil
import tempfile
import unittest

import bench_report

WHOLE_RUN = """
### Latest run (scripts/bench: all rows)

2026-11-30 21:06 UTC, commit 28d303b,
Intel(R) Xeon(R) Processor, 2 cores, Linux 6.18,
load average at start 0.39 0.37 0.49; 30 s per timing recording.

| Row | Measure | Setting | Tactus | Peer |
|---|---|---|---|---|
| 1 | click timing | p64 | 0.489 fr | klick: 0.489 fr |
| 7 | pressure latency | live | 4.5 ms | — |
| 8 (1) | click timing | PipeWire | 0.489 fr | klick: 0.489 fr |
| 8 (3) | CPU | PipeWire | 1.04 % | 1.42 % |
| 10 | churn | 300 s | old churn | — |

* max error: a note.

Plot: `bench-results/results.png` (not committed).
"""


class RowList(unittest.TestCase):
    def test_numbers_and_ranges(self):
        self.assertEqual(bench_report.parse_rows("9,10,11"), [9, 10, 11])
        self.assertEqual(bench_report.parse_rows("11,1-3, 9"), [1, 2, 3, 9, 11])
        self.assertEqual(bench_report.ranges([1, 2, 3, 4, 5, 6, 7, 8]), "1-8")
        self.assertEqual(bench_report.ranges([1, 2, 3, 9, 10]), "1-3, 9, 10")
        self.assertEqual(bench_report.row_number("8 (2)"), 8)

    def test_a_bad_list_is_named(self):
        for text, said in (("9,x", "'x' is not a row number"), ("0", "'0' is outside rows 1-11"),
                           ("12", "'12' is outside rows 1-11"), ("3-1", "'3-1' is outside"), ("9,,10", "'' is not")):
            with self.assertRaises(ValueError) as caught:
                bench_report.parse_rows(text)
            self.assertIn(said, str(caught.exception))
            self.assertIn(f"(in '{text}')", str(caught.exception))


class MergeRows(unittest.TestCase):
    NEW = [[9, "Link", "60 s", "0.1 ms", "—"], [10, "churn", "3600 s", "new churn", "—"], [11, "xrun", "68 ms", "0 missing", "—"]]

    def test_only_the_rows_run_are_replaced_the_others_kept_with_their_run(self):
        body = bench_report.merge_block(WHOLE_RUN, self.NEW, [9, 10, 11], "2026-12-01 16:50 UTC, commit abc1234, load 9 (scripts/bench --rows 9,10,11)",
                                        ["a note"])
        lines = body.splitlines()
        self.assertEqual(lines[0], "### Latest runs")
        self.assertIn("* Rows 1, 7, 8: 2026-11-30 21:06 UTC, commit 28d303b, Intel(R) Xeon(R) Processor, 2 cores, Linux 6.18, "
                      "load average at start 0.39 0.37 0.49; 30 s per timing recording.", lines)
        self.assertIn("* Rows 9-11: 2026-12-01 16:50 UTC, commit abc1234, load 9 (scripts/bench --rows 9,10,11)", lines)
        table = [l for l in lines if l.startswith("| ") and not l.startswith("| Row")]
        self.assertEqual([l.split(" | ")[0] for l in table], ["| 1", "| 7", "| 8 (1)", "| 8 (3)", "| 9", "| 10", "| 11"])
        self.assertIn("| 10 | churn | 3600 s | new churn | — |", table)
        self.assertNotIn("old churn", body)
        self.assertTrue(lines[-1].startswith("Plot:"))

        # Merged again: row 1 from a third run; the list keeps the second, the first keeps rows 7 and 8.
        again = bench_report.merge_block(body, [[1, "click timing", "p64", "0.000 fr", "klick"]], [1], "third (scripts/bench --rows 1)", ["a note"])
        self.assertIn("* Row 1: third (scripts/bench --rows 1)", again.splitlines())
        self.assertIn("* Rows 7, 8: 2026-11-30 21:06 UTC, commit 28d303b, Intel(R) Xeon(R) Processor, 2 cores, Linux 6.18, "
                      "load average at start 0.39 0.37 0.49; 30 s per timing recording.", again.splitlines())
        self.assertIn("* Rows 9-11: 2026-12-01 16:50 UTC, commit abc1234, load 9 (scripts/bench --rows 9,10,11)", again.splitlines())
        self.assertEqual(again.count("| 1 | "), 1)
        self.assertIn("| 1 | click timing | p64 | 0.000 fr | klick |", again)

    def test_the_readme_outside_the_markers_is_untouched(self):
        folder = tempfile.mkdtemp()
        try:
            path = os.path.join(folder, "README.md")
            with open(path, "w") as f:
                f.write("# Title\n\nbefore\n" + bench_report.README_BEGIN + WHOLE_RUN + bench_report.README_END + "\nafter\n")
            bench_report.merge_readme(path, self.NEW, [9, 10, 11], "ctx", ["a note"])
            with open(path) as f:
                text = f.read()
            self.assertTrue(text.startswith("# Title\n\nbefore\n" + bench_report.README_BEGIN + "\n### Latest runs\n"))
            self.assertTrue(text.endswith("(not committed).\n" + bench_report.README_END + "\nafter\n"))
        finally:
            shutil.rmtree(folder)


if __name__ == "__main__":
    unittest.main()
