@testable import TactusCore

/// Drives `Engine.cycle` the way the JACK callback and the renderer do, and
/// records what comes out: every MIDI event with its absolute frame, and every
/// click onset with its sound.
///
/// With `impulses: true` each sound is one sample whose value names it, so an
/// onset is exactly one nonzero sample even at 999 BPM where real clicks overlap.
final class EngineHarness {
    static let impulseValue: [ClickSound: Float] = [
        .accent: 1, .beat: 0.5, .subdivision: 0.25, .impact: 0.125, .selection: 0.0625, .maximum: 0.03125, .commit: 0.015625,
    ]

    let control: UnsafeMutablePointer<EngineControl>
    var engine: Engine
    var events = MIDIEventBuffer(capacity: 8192)
    let sampleRate: Int
    private(set) var frame: Int64 = 0
    private(set) var midi: [TimedMIDIEvent] = []
    private(set) var onsets: [(frame: Int64, sound: ClickSound)] = []
    private(set) var feedbackOnsets: [(frame: Int64, sound: ClickSound)] = []
    /// Every click onset with its sample value (which names the sound and the set).
    private(set) var onsetSamples: [(frame: Int64, value: Float)] = []
    /// Every click sample rendered, when `keepAudio`.
    private(set) var audio: [Float] = []
    let keepAudio: Bool
    /// Look for feedback cues in every block (off by default: it costs a pass over each block).
    var scanFeedback = false
    let impulses: Bool
    /// A time source consulted once per block (`ScriptedTimeSource`); nil: the engine's own time.
    var source: ((Int64) -> TimelinePosition)?
    /// What the source owns (`CycleInput.owner`); nil: the tempo while a source
    /// positions the grid (the seam's default rule), nothing without one.
    var owner: SourceOwnership?
    /// The requests for the source each block's cycle handed the source, when any.
    private(set) var requests: [TimeSourceRequests] = []
    private let sounds: SoundSet
    private let buffer: UnsafeMutablePointer<Float>
    private let feedback: UnsafeMutablePointer<Float>
    private let capacity = 8192

    init(_ configuration: EngineConfiguration, impulses: Bool = true, keepAudio: Bool = false) {
        sampleRate = configuration.sampleRate
        self.impulses = impulses
        self.keepAudio = keepAudio
        sounds = impulses
            ? SoundSet(sampleRate: configuration.sampleRate) { [EngineHarness.impulseValue[$0]!] }
            : .synthesized(sampleRate: configuration.sampleRate)
        control = .allocate(capacity: 1)
        control.initialize(to: EngineControl())
        engine = Engine(configuration: configuration, sounds: sounds)
        buffer = .allocate(capacity: capacity)
        feedback = .allocate(capacity: capacity)
    }

    deinit {
        control.deinitialize(count: 1)
        control.deallocate()
        buffer.deallocate()
        feedback.deallocate()
        sounds.deallocate()
    }

    func send(_ command: EngineCommand) { control.pointee.commands.push(command) }
    func setTempo(_ bpm: BPM) { control.pointee.commands.push(.setTempo(bpm)) }

    /// Renders `frames` frames in blocks of `block`, continuing from the last frame.
    func run(frames: Int64, block: Int) {
        var left = frames
        while left > 0 {
            let n = Int(min(Int64(block), left))
            renderBlock(n)
            left -= Int64(n)
        }
    }

    /// One block at the current frame.
    func renderBlock(_ n: Int) {
        precondition(n <= capacity)
        let position = source?(frame)
        var given = GivenPosition(position)
        let input = CycleInput(start: frame, frames: n, owner: owner ?? (position == nil ? .none : .tempoOnly))
        engine.cycle(input, source: &given, control: control.pointee, click: buffer, feedback: feedback, events: &events)
        if given.requests != TimeSourceRequests() { requests.append(given.requests) }
        for i in 0..<events.count { midi.append(events[i]) }
        if impulses {
            // Scan only while clicks the engine started are not yet found: a test
            // renders hours, and a debug build reads every sample slowly.
            if onsets.count < control.pointee.status.clicksPlayed.load(ordering: .relaxed) {
                for i in 0..<n where buffer[i] != 0 {
                    onsets.append((frame + Int64(i), EngineHarness.sound(forImpulse: buffer[i])))
                    onsetSamples.append((frame + Int64(i), buffer[i]))
                }
            }
            if scanFeedback {
                for i in 0..<n where feedback[i] != 0 {
                    feedbackOnsets.append((frame + Int64(i), EngineHarness.sound(forImpulse: feedback[i])))
                }
            }
        }
        if keepAudio { audio.append(contentsOf: UnsafeBufferPointer(start: buffer, count: n)) }
        frame += Int64(n)
    }

    /// Skips frames as a JACK xrun would: the next block starts later.
    func skip(frames: Int64) { frame += frames }

    static func sound(forImpulse v: Float) -> ClickSound {
        impulseValue.first { $0.value == v }?.key ?? .commit
    }

    /// Renders 256-frame blocks (a common JACK period) until `frame` ≥ `end`.
    func render(until end: Int64) {
        while frame < end { renderBlock(256) }
    }

    /// Accent symbol of each click onset: X accent, x beat, - subdivision.
    var onsetSymbols: [String] {
        onsets.map { $0.sound == .accent ? "X" : $0.sound == .beat ? "x" : "-" }
    }

    var clocks: [Int64] { clockFrames }
    var otherMIDI: [(frame: Int64, status: UInt8)] {
        midi.filter { $0.bytes.status != MIDIStatus.timingClock }.map { ($0.frame, $0.bytes.status) }
    }

    var clockFrames: [Int64] { midi.filter { $0.bytes.status == MIDIStatus.timingClock }.map(\.frame) }
    var statusBytes: [UInt8] { midi.map(\.bytes.status) }
}

/// Ideal frame of the n-th event after an anchor, in exact rational arithmetic:
/// round(n × sampleRate × 60 / (bpm × perBeat)), with bpm in hundredths.
func idealFrame(_ n: Int64, sampleRate: Int, bpm: BPM, eventsPerBeat: Int64) -> Double {
    Double(n) * Double(sampleRate) * 6000 / (Double(bpm.hundredths) * Double(eventsPerBeat))
}
