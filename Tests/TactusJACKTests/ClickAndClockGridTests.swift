import Foundation
import Testing

extension JACKServerTests {
    /// Issue 3 acceptance: click and clock recorded for 30 s at 133 and 97.3 BPM,
    /// periods 64 and 256, against the ideal grid anchored at the first event.
    @Suite struct ClickAndClockGrid {
        static let tempos: [Double] = [133, 97.3]
        static let sampleRate = 48000.0
        /// Clock offsets recorded in the period-256 session: +10 ms (clock later) and −7.5 ms (click later).
        static let offsets: [(ms: Double, frames: Int64)] = [(10, 480), (-7.5, -360)]

        static func session(period: Int) throws -> SessionResult {
            try SessionCache.shared.session("grid-\(period)") {
                var specs = tempos.map { MetronomeSpec(name: "t\(Int($0))", arguments: ["--bpm", "\($0)"], isTactus: true) }
                if period == 256 {
                    specs += offsets.enumerated().map { i, o in
                        MetronomeSpec(name: "offset\(i)", arguments: ["--bpm", "\(tempos[i])", "--clock-offset", "\(o.ms)"], isTactus: true)
                    }
                }
                return try Session.record(period: period, seconds: 32, metronomes: specs)
            }
        }

        static func clickInterval(_ bpm: Double) -> Double { sampleRate * 60 / bpm }

        @Test(arguments: [64, 256])
        func clickOnsetsStayWithinHalfAFrameOfTheGridForThirtySeconds(period: Int) throws {
            let s = try Self.session(period: period)
            for (i, bpm) in Self.tempos.enumerated() {
                let clicks = s.recording.clicks(port: i + 1)
                let fit = GridFit(clicks, interval: Self.clickInterval(bpm))
                let seconds = Double((clicks.last ?? 0) - (clicks.first ?? 0)) / Self.sampleRate
                #expect(seconds >= 30, "\(bpm) BPM: clicks span \(seconds) s")
                #expect(fit.maxError <= 0.5, "\(bpm) BPM period \(period): \(fit)")
                #expect(fit.gaps == 0, "\(bpm) BPM period \(period): \(fit)")
                #expect(abs(fit.driftPPM) < 0.5, "\(bpm) BPM period \(period): \(fit)")
            }
        }

        @Test(arguments: [64, 256])
        func clockTicksStayWithinHalfAFrameOfTheGridForThirtySeconds(period: Int) throws {
            let s = try Self.session(period: period)
            for (i, bpm) in Self.tempos.enumerated() {
                let ticks = s.recording.ticks(port: i + 1)
                let fit = GridFit(ticks, interval: Self.clickInterval(bpm) / 24)
                let seconds = Double((ticks.last ?? 0) - (ticks.first ?? 0)) / Self.sampleRate
                #expect(seconds >= 30, "\(bpm) BPM: ticks span \(seconds) s")
                #expect(fit.maxError <= 0.5, "\(bpm) BPM period \(period): \(fit)")
                #expect(fit.gaps == 0, "\(bpm) BPM period \(period): \(fit)")
                #expect(abs(fit.driftPPM) < 0.5, "\(bpm) BPM period \(period): \(fit)")
            }
        }

        @Test(arguments: [64, 256])
        func everyClickHasExactly24TicksAndItsOnsetIsOnTheFrameOfItsTick(period: Int) throws {
            let s = try Self.session(period: period)
            for i in Self.tempos.indices {
                try Self.expectClicksOnTicks(s.recording, port: i + 1, clockDelay: 0)
            }
        }

        @Test func clockOffsetShiftsTheClockAgainstTheClickByExactlyTheOffset() throws {
            let s = try Self.session(period: 256)
            for (i, offset) in Self.offsets.enumerated() {
                try Self.expectClicksOnTicks(s.recording, port: Self.tempos.count + i + 1, clockDelay: offset.frames)
            }
        }

        @Test(arguments: [64, 256])
        func sigtermSendsMIDIStopAsTheLastClockEventAndExitsZero(period: Int) throws {
            let s = try Self.session(period: period)
            for (i, spec) in Self.tempos.indices.map({ ($0, "t\(Int(Self.tempos[$0]))") }) {
                #expect(s.exitStatus[spec] == 0, "\(s.messages[spec] ?? "")")
                let events = s.recording.midi(port: i + 1)
                #expect(events.first?.bytes == [0xFA], "Start first")
                #expect(events.last?.bytes == [0xFC], "\(spec): last event \(events.last?.bytes ?? [])")
                #expect(events.filter { $0.bytes == [0xFC] }.count == 1)
            }
        }

        /// Between one click and the next: 24 ticks, the first on the click's frame (+ delay).
        static func expectClicksOnTicks(_ r: Recording, port: Int, clockDelay: Int64, minimumClicks: Int = 50) throws {
            let clicks = r.clicks(port: port)
            let ticks = r.ticks(port: port).map { $0 - clockDelay }
            let tickSet = Set(ticks)
            #expect(clicks.count >= minimumClicks)
            var offBeat = 0
            var wrongCounts: [Int] = []
            var start = 0
            for (k, click) in clicks.enumerated() {
                if !tickSet.contains(click) && !r.holes.contains(where: { $0 ~= click + clockDelay }) { offBeat += 1 }
                guard k + 1 < clicks.count else { break }
                // A beat the recorder did not fully see cannot be counted.
                if r.holes.contains(where: { $0.overlaps(click...(clicks[k + 1] + clockDelay)) }) { continue }
                while start < ticks.count && ticks[start] < click { start += 1 }
                var end = start
                while end < ticks.count && ticks[end] < clicks[k + 1] { end += 1 }
                if end - start != 24 { wrongCounts.append(end - start) }
            }
            #expect(offBeat == 0, "port \(port): \(offBeat) of \(clicks.count) clicks not on a tick (clock delay \(clockDelay))")
            #expect(wrongCounts.isEmpty, "port \(port): tick counts between clicks \(wrongCounts.prefix(10))")
        }
    }
}
