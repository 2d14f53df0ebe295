import Testing
@testable import TactusALSA

/// Reading /proc/asound/seq/timer to tell the high-resolution timer from the system timer.
struct SequencerTimerReportTests {
    let text = """
    Timer for queue 0 : system timer
      Period time : 0.004000000
      Skew : 65536 / 65536
    Timer for queue 1 : HR timer
      Period time : 0.000160000
      Skew : 65536 / 65536

    """

    @Test func theHighResolutionTimerIsRecognisedWithItsPeriod() {
        let report = SequencerTimerReport(procText: text, queue: 1)
        #expect(report?.name == "HR timer")
        #expect(report?.isHighResolution == true)
        #expect(report?.period == 0.000160)
    }

    @Test func theSystemTimerFallbackIsRecognised() {
        let report = SequencerTimerReport(procText: text, queue: 0)
        #expect(report?.name == "system timer")
        #expect(report?.isHighResolution == false)
        #expect(report?.period == 0.004)
    }

    @Test func theSystemTimerGetsOneWarningNamingTheModuleToLoad() {
        #expect(ALSAClient.timerWarning(SequencerTimerReport(procText: text, queue: 0)) ==
            "ALSA sequencer: the clock queue runs on the system timer (4000 µs), not the high-resolution timer; "
            + "the ALSA clock will jitter by up to a period. Load snd-hrtimer (sudo modprobe snd-hrtimer) and restart")
        #expect(ALSAClient.timerWarning(SequencerTimerReport(procText: text, queue: 1)) == nil)
        #expect(ALSAClient.timerWarning(nil) == nil)
    }

    @Test func aQueueTheFileDoesNotListHasNoReport() {
        #expect(SequencerTimerReport(procText: text, queue: 2) == nil)
        #expect(SequencerTimerReport(procText: "", queue: 0) == nil)
    }
}

/// Mapping CLOCK_MONOTONIC onto the queue's real time.
struct QueueClockCalibrationTests {
    typealias Reading = QueueClockCalibration.Reading

    @Test func theReadingWithTheShortestRoundTripSetsTheOrigin() {
        var calibration = QueueClockCalibration()
        calibration.update(with: [
            Reading(before: 1_000_000, queue: 500_000, after: 1_000_400),   // origin 500 200, round trip 400
            Reading(before: 1_001_000, queue: 501_010, after: 1_001_020),   // origin 500 000, round trip 20
        ])
        #expect(calibration.origin == 500_000)
        #expect(calibration.queueMicroseconds(atMonotonic: 1_250_000) == 750_000)
        #expect(calibration.monotonicMicroseconds(atQueue: 750_000) == 1_250_000)
    }

    @Test func aSmallDifferenceIsFollowedByAQuarterPerMeasurement() {
        var calibration = QueueClockCalibration()
        calibration.update(with: [Reading(before: 1_000_000, queue: 500_000, after: 1_000_000)])
        calibration.update(with: [Reading(before: 2_000_100, queue: 1_500_000, after: 2_000_100)])   // 100 µs later
        #expect(calibration.origin == 500_025)
        #expect(calibration.lastCorrection == 25)
    }

    @Test func aDifferenceOfTwoMillisecondsOrMoreIsTakenWholeWhenTheNextMeasurementConfirmsIt() {
        var calibration = QueueClockCalibration()
        calibration.update(with: [Reading(before: 1_000_000, queue: 500_000, after: 1_000_000)])
        calibration.update(with: [Reading(before: 2_000_000, queue: 1_497_000, after: 2_000_000)])   // queue 3 ms behind
        #expect(calibration.origin == 500_000)
        #expect(calibration.unconfirmedOrigin == 503_000)
        calibration.update(with: [Reading(before: 2_500_000, queue: 1_997_100, after: 2_500_000)])   // still 2.9 ms behind
        #expect(calibration.origin == 502_900)
        #expect(calibration.lastCorrection == 2_900)
        #expect(calibration.unconfirmedOrigin == nil)
    }

    /// The queue's time read while its timer was late (the alsa-vm under host
    /// load: 5.4 ms off with a 12 µs round trip, the next measurement back):
    /// neither the origin nor anything mapped through it moves.
    @Test func aLargeDifferenceMeasuredOnceIsDropped() {
        var calibration = QueueClockCalibration()
        calibration.update(with: [Reading(before: 1_000_000, queue: 500_000, after: 1_000_000)])
        calibration.update(with: [Reading(before: 1_500_000, queue: 994_600, after: 1_500_012)])     // queue 5.4 ms behind
        #expect(calibration.origin == 500_000)
        #expect(calibration.lastCorrection == 0)
        calibration.update(with: [Reading(before: 2_000_000, queue: 1_500_000, after: 2_000_000)])   // back
        #expect(calibration.origin == 500_000)
        #expect(calibration.unconfirmedOrigin == nil)
    }

    @Test func withoutAReadingThereIsNoMapping() {
        var calibration = QueueClockCalibration()
        calibration.update(with: [])
        #expect(calibration.queueMicroseconds(atMonotonic: 1) == nil)
    }
}

/// Flood messages are reported the 1st, 10th, 100th … time.
struct InputOverrunReportTests {
    @Test func overrunsAreReportedAtPowersOfTen() {
        #expect((1...1000).filter(ControlInputReader.isPowerOfTen) == [1, 10, 100, 1000])
    }
}
