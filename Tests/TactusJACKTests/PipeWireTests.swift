import Foundation
import Testing

extension JACKServerTests {
    /// Most Linux desktops run PipeWire, whose JACK library replaces libjack: the
    /// 30 s click and clock recording on a private headless PipeWire (quantum 256
    /// at 48 kHz). PipeWire has no synchronous mode (jackd's -S, which the other
    /// tests use): on a loaded machine it skips a client's cycle now and then, and
    /// its frame time steps a period forward and back around such a skip. Each
    /// event is judged by `PipeWireCycleAudit`: on the grid anchored at the first,
    /// or moved whole periods or late at a cycle start where the recording shows
    /// the graph run out of step; never anywhere else, however many the load
    /// makes (printed). The skipped cycle's exact frames are proven in
    /// SimulatedSkippedCyclesTests.
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
            let spans = PipeWireDisturbance.spans(s.recording)
            print("PipeWire grid: recorder holes \(s.recording.holes.count), cycles out of step \(spans.count), xrun notices \(s.recording.xruns)")
            for (i, bpm) in ClickAndClockGrid.tempos.enumerated() {
                let interval = ClickAndClockGrid.clickInterval(bpm)
                let r = s.recording
                let onsets = r.onsets.filter { $0.port == i + 1 }
                let clicks = onsets.filter { Self.clickFirstSamples.contains($0.value) }.map(\.frame), ticks = r.ticks(port: i + 1)
                let (gaps, framesNotRun) = PipeWireDisturbance.tactusGaps(s.messages["t\(Int(bpm))"] ?? "")
                #expect(Double((ticks.last ?? 0) - (ticks.first ?? 0)) / 48000 >= 30, "\(bpm) BPM")
                let clickAudit = PipeWireCycleAudit(onsets.map { ($0.frame, $0.value) }, interval: interval, period: 256, spans: spans,
                                                    tactusGaps: gaps, framesNotRun: framesNotRun,
                                                    firstSamples: Self.clickFirstSamples, length: Self.clickLength)
                let tickAudit = PipeWireCycleAudit(ticks.map { ($0, nil) }, interval: interval / 24, period: 256, spans: spans, tactusGaps: gaps)
                print("PipeWire grid \(bpm) BPM clicks: \(clickAudit)")
                print("PipeWire grid \(bpm) BPM ticks: \(tickAudit)")
                // At least one on the grid: the anchor the rest is judged against (load may move any other).
                #expect(clickAudit.holds && clickAudit.onGrid >= 1, "\(bpm) BPM clicks: \(clickAudit)")
                #expect(tickAudit.holds && tickAudit.onGrid >= 1, "\(bpm) BPM ticks: \(tickAudit)")
                // The rate measured on the ticks on the grid (a tick late at a cycle
                // start, 233 frames after its grid frame, weighs 0.56 ppm on the
                // slope of 30 s at 97.3 BPM: those are left out).
                let rate = GridFit(tickAudit.onGridFrames, interval: interval / 24)
                #expect(abs(rate.driftPPM) < 0.5, "\(bpm) BPM ticks on the grid: \(rate)")
                // Every click onset is on the frame of a tick: both are placed in the
                // same block, so a block PipeWire labelled with another cycle's frame
                // time moves both alike.
                let tickSet = Set(ticks)
                let lone = clicks.filter { !tickSet.contains($0) }
                #expect(lone.isEmpty, "\(bpm) BPM: clicks without their tick \(lone.map { c in "\(c) (ticks near: \(ticks.filter { abs($0 - c) < 2048 }))" })")
                // Between two clicks 24 ticks, unless PipeWire ran the graph out of step
                // between them (a tick late or moved, a dropped cycle's output).
                var wrong: [Int] = []
                for (a, b) in zip(clicks, clicks.dropFirst()) {
                    let between = ticks.filter { $0 >= a && $0 < b }
                    let disturbed = spans.contains { $0.overlaps((a - 256)...(b + 256)) }
                    if between.count != 24 && !disturbed { wrong.append(between.count) }
                }
                #expect(wrong.isEmpty, "\(bpm) BPM: tick counts between clicks \(wrong)")
            }
        }

        /// A click's first sample, accent and beat (`ClickSynthesizer`): an onset
        /// with another value is a click's tail found again after a skip.
        static let clickFirstSamples: Set<Float> = [0.9, 0.7]
        /// The longest click (the accent, 35 ms at 48 kHz).
        static let clickLength: Int64 = 1680

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
