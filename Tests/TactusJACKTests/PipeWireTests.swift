import Foundation
import Testing

extension JACKServerTests {
    /// Most Linux desktops run PipeWire, whose JACK library replaces libjack: the
    /// 30 s click and clock recording on a private headless PipeWire (quantum 256
    /// at 48 kHz). PipeWire has no synchronous mode (jackd's -S, which the other
    /// tests use): on a loaded machine it skips a client's cycle now and then, and
    /// its frame time steps a period forward and back around such a skip. So each
    /// event must be on the grid anchored at the first, or late at a cycle start
    /// (Tactus' rule for a skipped cycle), or next to a cycle the recorder itself
    /// missed; never anywhere else, and no more than a few in 30 s.
    @Suite struct PipeWire {
        static func session() throws -> SessionResult {
            try SessionCache.shared.session("pipewire") {
                let server = try PipeWireTestServer()
                defer { server.stop() }
                return try Session.record(on: server, seconds: 32, fromFirstSound: true, metronomes: ClickAndClockGrid.tempos.map {
                    MetronomeSpec(name: "t\(Int($0))", arguments: ["--bpm", "\($0)"], isTactus: true)
                })
            }
        }

        @Test(.enabled(if: PipeWireTestServer.isInstalled, "needs pipewire, pipewire-jack, pipewire-bin (scripts/test installs them)"))
        func onPipeWireClicksAndTicksStayWithinHalfAFrameOfTheGridForThirtySeconds() throws {
            let s = try Self.session()
            #expect(s.recording.period == 256 && s.recording.sampleRate == 48000)
            for (i, bpm) in ClickAndClockGrid.tempos.enumerated() {
                let interval = ClickAndClockGrid.clickInterval(bpm)
                let clicks = s.recording.clicks(port: i + 1), ticks = s.recording.ticks(port: i + 1)
                let holes = s.recording.holes
                #expect(Double((ticks.last ?? 0) - (ticks.first ?? 0)) / 48000 >= 30, "\(bpm) BPM")
                let clickAudit = SkipTolerantAudit(clicks, interval: interval, period: 256, holes: holes)
                let tickAudit = SkipTolerantAudit(ticks, interval: interval / 24, period: 256, holes: holes)
                #expect(clickAudit.offGrid.isEmpty && clickAudit.onGrid >= clicks.count - 3, "\(bpm) BPM clicks: \(clickAudit)")
                #expect(tickAudit.offGrid.isEmpty && tickAudit.onGrid >= ticks.count - 12, "\(bpm) BPM ticks: \(tickAudit); recorder holes \(holes)")
                // No tick missing; the rate measured on the ticks on the grid (a tick
                // late at a cycle start, 233 frames after its grid frame, weighs
                // 0.56 ppm on the slope of 30 s at 97.3 BPM).
                // A tick missing in the cycle next to one the recorder missed is the
                // same stall: PipeWire dropped Tactus's late cycle beside the
                // recorder's (README, JACK: what a late cycle held is lost; CI: #528 in the
                // cycle after the hole 480768...481280). The audits above take
                // ± one period round a hole for the same reason.
                let stalls = holes.map { ($0.lowerBound - 256)...($0.upperBound + 256) }
                let fit = GridFit(ticks, interval: interval / 24, holes: stalls, period: 256)
                let rate = GridFit(tickAudit.onGridFrames, interval: interval / 24, holes: stalls)
                #expect(fit.gaps == 0 && abs(rate.driftPPM) < 0.5, "\(bpm) BPM ticks: \(fit); on the grid: \(rate); recorder holes \(holes)")
                // Every click is on the frame of a tick; between two clicks 24 ticks,
                // unless a skipped cycle (a late tick, a hole) falls between them.
                let tickSet = Set(ticks)
                // The recorder finds an onset where a click's tail resumes after a
                // cycle it missed: the audit's "near a recorder hole" (± one period).
                let lone = clicks.filter { c in
                    !tickSet.contains(c) && !holes.contains { ($0.lowerBound - 256)...($0.upperBound + 256) ~= c }
                }
                #expect(lone.isEmpty, "\(bpm) BPM: clicks without their tick \(lone.map { c in "\(c) (ticks near: \(ticks.filter { abs($0 - c) < 2048 }))" }); recorder holes \(holes)")
                var wrong: [Int] = []
                for (a, b) in zip(clicks, clicks.dropFirst()) {
                    let between = ticks.filter { $0 >= a && $0 < b }
                    let disturbed = between.contains { $0 % 256 == 0 && $0 != a } || holes.contains { $0.overlaps(a...b) }
                    if between.count != 24 && !disturbed { wrong.append(between.count) }
                }
                #expect(wrong.isEmpty, "\(bpm) BPM: tick counts between clicks \(wrong)")
            }
        }

        @Test(.enabled(if: PipeWireTestServer.isInstalled, "needs pipewire, pipewire-jack, pipewire-bin (scripts/test installs them)"))
        func onPipeWireSigtermSendsMIDIStopLastAndExitsZero() throws {
            let s = try Self.session()
            for (i, bpm) in ClickAndClockGrid.tempos.enumerated() {
                let name = "t\(Int(bpm))"
                #expect(s.exitStatus[name] == 0, "\(s.messages[name] ?? "")")
                let events = s.recording.midi(port: i + 1)
                #expect(events.first?.bytes == [0xFA])
                #expect(events.last?.bytes == [0xFC])
            }
        }
    }
}
