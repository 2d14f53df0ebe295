import unittest

from slowest_suites import console_suite_times, merge, slowest, suite_times

REPORT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="TestResults" tests="4" failures="1">
  <testcase classname="TactusJACKTests.JACKServerTests/Churn" name="smoke()" time="40.5" />
  <testcase classname="TactusJACKTests.JACKServerTests/Churn" name="heap()" time="1.5">
    <failure message="grew" />
  </testcase>
  <testcase classname="TactusCoreTests.EngineTimingTests" name="hour()" time="3.25" />
  <testcase classname="TactusCoreTests.EngineTimingTests" name="bad()" time="x" />
  <testcase classname="TactusCLITests.RenderCommandTests" name="wav()" time="12" />
</testsuite></testsuites>"""


class SlowestSuites(unittest.TestCase):
    def test_a_suite_is_the_sum_of_its_cases_with_its_failures(self):
        times = suite_times(REPORT)
        self.assertEqual(times["TactusJACKTests.JACKServerTests/Churn"], (42.0, 2, 1))
        self.assertEqual(times["TactusCoreTests.EngineTimingTests"], (3.25, 2, 0))

    def test_slowest_first_at_most_count_then_the_total(self):
        lines = slowest(suite_times(REPORT), count=2)
        self.assertEqual(lines, [
            "    42.0 s  TactusJACKTests.JACKServerTests/Churn (2 tests, 1 failed)",
            "    12.0 s  TactusCLITests.RenderCommandTests (1 test)",
            "    57.2 s  all 3 serialized suites, 5 tests",
        ])

    def test_two_reports_add_up(self):
        times = merge([suite_times(REPORT), {"TactusCLITests.RenderCommandTests": (1.0, 1, 1)}])
        self.assertEqual(times["TactusCLITests.RenderCommandTests"], (13.0, 2, 1))


    def test_a_parallel_tier_s_suites_come_from_its_console(self):
        text = ("\u25c7 Suite EngineTimingTests started.\n"
                "\u2714 Suite EngineTimingTests passed after 70.5 seconds.\n"
                "\u2718 Suite \"Crash-safe files\" failed after 12.25 seconds with 1 issue.\n")
        times = console_suite_times(text)
        self.assertEqual(times, {"EngineTimingTests (wall, in parallel)": (70.5, 0, 0),
                                 "Crash-safe files (wall, in parallel)": (12.25, 0, 1)})
        self.assertEqual(slowest(times)[0], "    70.5 s  EngineTimingTests (wall, in parallel)")


if __name__ == "__main__":
    unittest.main()
