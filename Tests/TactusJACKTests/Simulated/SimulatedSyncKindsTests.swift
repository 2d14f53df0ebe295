import Testing
import TactusCore
@testable import TactusCLI
@testable import TactusJACK

/// Every sync kind at 97.3 and 133 BPM through the real JACK cycle on the
/// simulated process loop, driven by `tactus run`'s control session
/// (`ControlSession`, the one tempo writer): a tempo step, a pressure hold on
/// the up key (a tap, light and strong steps, docs/DESIGN.md §5.4), a locate
/// to bar 3 and a Stop. Exact to the frame: every rising edge on its grid
/// point (§14.5: the frame the click and the 0xF8 of the same point get), each
/// pulse as wide as §14.1–§14.3 give it at the tempo in force, the kind's
/// count a beat, DIN sync's run line high exactly from Start to Stop, a modular
/// reset on every bar line and at the locate. What the live take
/// (`SyncOutputOnJACK`) proves on a server for a few of them.
@Suite struct SimulatedSyncKindsTests {
    static let rate: Int64 = 48_000
    static let start: UInt32 = 1_000_000

    struct Kind: Sendable, CustomTestStringConvertible {
        var settings: SyncSettings
        /// Grid pulses (96 a quarter note) between two sync pulses.
        var step: Int64 { 96 / settings.kind.pulsesPerQuarterNote }
        /// The width the kind asks for in frames at 48 kHz; nil: half the interval (DIN sync's square wave).
        var width: Int64? { SyncSettings.defaultWidthMilliseconds(settings.kind).map { Int64(($0 * 48).rounded()) } }
        var testDescription: String { settings.kind.spelling }
    }

    static let kinds: [Kind] = SyncKind.spellings.map { spelling in
        let kind = SyncKind(parsing: spelling)!
        var settings = SyncSettings(kind: kind)
        if case .ppqn = kind { settings.reset = .bar }
        return Kind(settings: settings)
    }

    /// One run: `bpm`, a step to `bpm` + 11.11 at 0.6 s, the up key held from
    /// 1.2 s (light pressure 0.05 s after, strong at 0.55 s, released at
    /// 1.0 s: +1 on the press, +1 twice, +10 three times), a locate to bar 3
    /// at 3.0 s, Stop at 4.0 s, 0.5 s more.
    static func run(_ kind: Kind, bpm: Double) throws -> SimulatedProcessLoop {
        var options = JackRunOptions()
        options.engine = EngineConfiguration(sampleRate: Int(rate), tempo: BPM(bpm))
        options.engine.sync = kind.settings
        let loop = try SimulatedProcessLoop(options: options)
        let at = { (seconds: Double) in start + UInt32(seconds * Double(rate)) }
        loop.controlInput.append((at(1.2), [0x90, 0x48, 0x64]))
        loop.controlInput.append((at(1.25), [0xD0, 0x3C]))
        loop.controlInput.append((at(1.75), [0xD0, 0x78]))
        loop.controlInput.append((at(2.2), [0x80, 0x48, 0x00]))
        let clock = VirtualClock()
        clock.time = ControlTime(microseconds: loop.microseconds(atJackFrame: loop.jackFrame))
        let session = ControlSession(configuration: PressureConfiguration(), tempo: BPM(bpm), engine: loop.engineControl,
                                     inputs: [{ loop.shared.pointee.controlInput.pop() }], clock: clock, bar: BarSettings())
        var script: [(UInt32, PlayerIntent)] = [(at(0.6), .tempo(BPM(bpm + 11.11))), (at(3.0), .locate(bar: 3)), (at(4.0), .stop)]
        while loop.jackFrame < at(4.5) {
            loop.cycle()
            clock.time = ControlTime(microseconds: loop.microseconds(atJackFrame: loop.jackFrame))
            while let next = script.first, loop.jackFrame >= next.0 {
                script.removeFirst()
                #expect(session.carryOut(next.1, from: .keys, at: clock.time.microseconds) == nil)
            }
            _ = session.poll()
        }
        return loop
    }

    /// A stretch of the grid between two re-anchorings (§3.3, §3.4): its
    /// anchor (a tick's frame), the tick's index, and every tempo (hundredths
    /// of a BPM) whose grid from that anchor puts the stretch's ticks on their
    /// frames exactly.
    struct Stretch {
        var anchor: Int64
        var firstTick: Int
        var lastTick: Int
        var tempi: [Int64]

        /// Frames from the anchor of the grid pulse `q` pulses after it at `hundredths`:
        /// q × rate × 6000 / (hundredths × 96), rounded half up (§3.3).
        static func offset(_ q: Int64, _ hundredths: Int64) -> Int64 {
            let num = q * SimulatedSyncKindsTests.rate * 6000, den = hundredths * 96
            return (2 * num + den) / (2 * den)
        }

        func frame(ofPulse p: Int64, _ hundredths: Int64) -> Int64 { anchor + Self.offset(p - 4 * Int64(firstTick), hundredths) }
    }

    /// The ticks cut into the fewest stretches from the first (each as long as
    /// one tempo in hundredths fits it), each anchored on the tick the one
    /// before ended on.
    static func stretches(_ ticks: [Int64]) -> [Stretch] {
        var out: [Stretch] = []
        var i = 0
        while i + 1 < ticks.count {
            let d = Double(ticks[i + 1] - ticks[i])
            // 4 pulses a tick: d ≈ 4 × 48000 × 6000 / (96 H) = 12 000 000 / H.
            var tempi = Array((Int64(12e6 / (d + 0.5)) - 2)...(Int64(12e6 / (d - 0.5)) + 2))
            var j = i
            while j + 1 < ticks.count {
                let next = tempi.filter { Stretch.offset(4 * Int64(j + 1 - i), $0) == ticks[j + 1] - ticks[i] }
                if next.isEmpty { break }
                tempi = next
                j += 1
            }
            out.append(Stretch(anchor: ticks[i], firstTick: i, lastTick: j, tempi: tempi))
            i = j
        }
        return out
    }

    @Test(arguments: kinds, [97.3, 133])
    func everyEdgeOnItsGridPointWithItsWidthAndCount(kind: Kind, bpm: Double) throws {
        let loop = try Self.run(kind, bpm: bpm)
        let name = "\(kind.settings.kind.spelling) at \(bpm)"
        let changes = loop.syncChanges
        #expect(Set(changes.map(\.value)).isSubset(of: [0, 1]), "\(name): levels \(Set(changes.map(\.value)))")
        let messages = loop.transportMessages
        let start = try #require(messages.first { $0.bytes == [0xFA] }).jackFrame
        let locate = try #require(messages.first { $0.bytes == [0xFB] }).jackFrame
        let stop = try #require(messages.last { $0.bytes == [0xFC] }).jackFrame
        // Start; the locate's Stop, Song Position (bar 3: 32 sixteenths) and Continue; Stop and where it stopped.
        #expect(messages.map(\.bytes).prefix(5) == [[0xFA], [0xFC], [0xF2, 32, 0], [0xFB], [0xFC]] && messages.count == 6 && messages[5].bytes.first == 0xF2,
                "\(name): \(messages.map(\.bytes))")

        // Pulses: (rise, fall) on the `sync` line.
        var pulses: [(rise: Int64, fall: Int64?)] = []
        for c in changes where c.line == 0 {
            if c.value != 0 { pulses.append((Int64(c.jackFrame), nil)) } else if pulses.last?.fall == nil { pulses[pulses.count - 1].fall = Int64(c.jackFrame) }
        }
        #expect(pulses.allSatisfy { $0.rise >= Int64(start) && $0.rise < Int64(stop) }, "\(name): a pulse outside the song")
        // The grid runs on through the locate (§4.5: the song's place changes, not the
        // grid's anchor): its stretches are cut from every tick of the song.
        let ticks = loop.ticks.map(Int64.init).filter { $0 >= Int64(start) && $0 < Int64(stop) }
        let stretches = Self.stretches(ticks)
        // Each pulse's grid pulse, counted from the song's first tick: the n-th of a span
        // (from Start, from the locate) is n × step after the span's first tick.
        var placed: [(pulse: Int64, rise: Int64, fall: Int64?)] = []
        for (from, to) in [(Int64(start), Int64(locate)), (Int64(locate), Int64(stop))] {
            let first = try #require(ticks.firstIndex(of: from), "\(name): no tick on the span's first frame \(from)")
            let inSpan = ticks.filter { $0 >= from && $0 < to }.count
            let span = pulses.filter { $0.rise >= from && $0.rise < to }
            // Grid points from the span's first tick up to (not on) its end: the last tick's, and those after it.
            let expectedCount = Int((4 * Int64(inSpan) - 1) / kind.step) + 1
            #expect(span.count == expectedCount, "\(name) from \(from): \(span.count) pulses, \(expectedCount) grid points (\(inSpan) ticks)")
            placed += span.enumerated().map { n, p in (4 * Int64(first) + Int64(n) * kind.step, p.rise, p.fall) }
            // The kind's count a beat, the first on the click.
            let clicks = loop.onsets.map { Int64($0.jackFrame) }.filter { $0 >= from && $0 < to }
            let rises = Set(span.map(\.rise))
            for (a, b) in zip(clicks, clicks.dropFirst()) {
                #expect(rises.contains(a) && span.filter { $0.rise >= a && $0.rise < b }.count == Int(kind.settings.kind.pulsesPerQuarterNote),
                        "\(name): the beat at \(a)")
            }
        }
        // On its tick where the pulse is one; else between two (din48, ppqn:48) on the
        // stretch's grid; as wide as the kind asks, at most half its interval at the
        // tempo in force; one tempo (hundredths) a stretch fits its ticks and pulses.
        var tempi: [[Int64]] = []
        for stretch in stretches {
            var fits = stretch.tempi
            for pulse in placed {
                let tick = Int(pulse.pulse / 4)
                guard tick >= stretch.firstTick && (tick < stretch.lastTick || stretch.lastTick == ticks.count - 1) else { continue }
                if pulse.pulse % 4 == 0 {
                    #expect(pulse.rise == ticks[tick], "\(name): grid pulse \(pulse.pulse) rose at \(pulse.rise), its tick at \(ticks[tick])")
                }
                fits = fits.filter { h in
                    let rise = stretch.frame(ofPulse: pulse.pulse, h), interval = stretch.frame(ofPulse: pulse.pulse + kind.step, h) - rise
                    let width = min(kind.width ?? interval / 2, interval / 2)
                    return rise == pulse.rise && (pulse.fall == nil || pulse.fall! - pulse.rise == width)
                }
            }
            #expect(!fits.isEmpty, "\(name): no tempo puts the pulses from \(stretch.anchor) on one grid with their widths (ticks fit \(stretch.tempi))")
            tempi.append(fits)
        }
        print("simulated sync \(name): \(pulses.count) pulses, \(stretches.count) stretches of one tempo, \(tempi.map { $0.first ?? 0 }) hundredths")
        // The tempo step and the hold happened: the step's tempo, and 33 BPM above it at the end.
        let stepped = Int64((bpm + 11.11) * 100 + 0.5)
        #expect(tempi.contains { $0.contains(stepped) } && tempi.last?.contains(stepped + 3300) == true, "\(name): tempi \(tempi)")

        // The second line.
        let line = changes.filter { $0.line == 1 }.map { (Int64($0.jackFrame), $0.value) }
        if kind.settings.kind.hasRunLine {
            // High from the frame of Start to the frame of Stop; the locate leaves it high (§14.2).
            #expect(line.count == 2 && line[0] == (Int64(start), 1) && line[1] == (Int64(stop), 0), "\(name): run line \(line)")
        } else if kind.settings.hasSecondLine {
            // A reset on every bar line (the accented clicks) and at the locate, as wide as the clock pulse there.
            let resets = line.filter { $0.1 != 0 }.map(\.0)
            let bars = loop.onsets.filter(\.accent).map { Int64($0.jackFrame) }
            #expect(resets.first == Int64(start) && resets.contains(Int64(locate)) && resets == bars, "\(name): resets \(resets), bar lines \(bars)")
            for (n, (frame, value)) in line.enumerated() where value != 0 && n + 1 < line.count {
                let clockPulse = pulses.first { $0.rise == frame }
                #expect(clockPulse?.fall.map { $0 - frame } == line[n + 1].0 - frame, "\(name): the reset at \(frame)")
            }
        } else {
            #expect(line.isEmpty, "\(name): a second line \(line)")
        }
    }
}
