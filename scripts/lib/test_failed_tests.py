import unittest

from failed_tests import failed, pattern, rerunnable

REPORT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="TestResults" tests="4" failures="2">
  <testcase classname="TactusJACKTests.JACKServerTests.LinkOnJACK" name="session()" time="1">
    <failure message="A's Stop -551" />
  </testcase>
  <testcase classname="TactusJACKTests.JACKServerTests.LinkOnJACK" name="session()" time="1">
    <failure message="again" />
  </testcase>
  <testcase classname="TactusJACKTests.TransportObserverTests" name="ok()" time="0" />
  <testcase classname="TactusCLITests.OSCOnJACK" name="flood(rate:)" time="2"><error message="x"/></testcase>
</testsuite></testsuites>"""


class FailedTests(unittest.TestCase):
    def test_failures_and_errors_once_each_in_order(self):
        self.assertEqual(failed(REPORT), [
            ("TactusJACKTests.JACKServerTests.LinkOnJACK", "session()"),
            ("TactusCLITests.OSCOnJACK", "flood(rate:)"),
        ])

    def test_the_pattern_is_the_innermost_suite_and_the_escaped_name(self):
        self.assertEqual(pattern("TactusJACKTests.JACKServerTests.LinkOnJACK", "session()"),
                         r"LinkOnJACK/session\(\)")
        self.assertEqual(pattern("TactusJACKTests.JACKServerTests/ForcedXrun", "a(b:)"), r"ForcedXrun/a\(b:\)")

    def test_server_tests_are_run_again(self):
        patterns, why = rerunnable(failed(REPORT))
        self.assertIsNone(why)
        self.assertEqual(patterns, [r"LinkOnJACK/session\(\)", r"OSCOnJACK/flood\(rate:\)"])

    def test_a_pure_core_failure_stands(self):
        patterns, why = rerunnable([("TactusCoreTests.EngineTests", "render()")])
        self.assertIsNone(patterns)
        self.assertIn("TactusCoreTests.EngineTests/render()", why)

    def test_more_than_five_failures_stand(self):
        cases = [("TactusJACKTests.X", f"t{i}()") for i in range(6)]
        self.assertIsNone(rerunnable(cases)[0])

    def test_a_failed_run_with_no_failed_test_stands(self):
        self.assertIsNone(rerunnable([])[0])


if __name__ == "__main__":
    unittest.main()
