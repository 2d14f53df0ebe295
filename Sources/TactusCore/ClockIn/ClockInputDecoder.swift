/// Reads an incoming MIDI beat clock from raw bytes: Timing Clock, Start,
/// Continue, Stop and Song Position Pointer, through the one byte parser
/// (`MIDIParser`), so its MIDI 1.0 rules hold here too: System Real-Time bytes
/// count wherever they fall, even between a Song Position's data bytes.
///
/// Unlike a controller input, a clock input says what was wrong: a stray data
/// byte, an undefined status, a message cut short (a Song Position missing a
/// data byte) are each a `ClockInputError` naming the byte and the frame, and
/// the ticks before and after still count. Other well-formed messages are not
/// clock: notes and controllers are counted in `otherMessages`, SysEx and Active
/// Sensing passed over.
///
/// A plain value that never allocates: the JACK cycle may run it.
public struct ClockInputDecoder: Sendable {
    /// What one byte gave.
    public enum Output: Hashable, Sendable, BitwiseCopyable {
        case event(ClockInputEvent)
        case error(ClockInputError)
    }

    private var parser = MIDIParser()
    /// Bytes read since the decoder was made.
    public private(set) var bytesRead = 0
    /// Well-formed messages that are not clock.
    public private(set) var otherMessages = 0
    /// Errors reported.
    public private(set) var errors = 0

    public init() {}

    /// Reads one byte that arrived at `frame`.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public mutating func decode(_ byte: UInt8, atFrame frame: Int64) -> Output? {
        let index = bytesRead
        bytesRead += 1
        let message = parser.parse(byte)
        if let problem = parser.lastProblem {
            errors += 1
            return .error(ClockInputError(problem: problem, byteIndex: index, frame: frame))
        }
        guard let message else { return nil }
        switch message {
        case .timingClock: return .event(.tick)
        case .start: return .event(.start)
        case .continue: return .event(.continue)
        case .stop: return .event(.stop)
        case .songPosition(let beats): return .event(.songPosition(midiBeats: beats))
        default:
            otherMessages += 1
            return nil
        }
    }

    /// The end of one event of a transport that delivers whole messages (a JACK
    /// MIDI event): a message still missing data bytes is reported as cut short.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public mutating func endOfEvent(atFrame frame: Int64) -> ClockInputError? {
        guard let problem = parser.endOfEvent() else { return nil }
        errors += 1
        return ClockInputError(problem: problem, byteIndex: bytesRead, frame: frame)
    }
}
