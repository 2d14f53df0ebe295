/// Something wrong in an incoming clock's byte stream, with where it was: the
/// byte's index in the stream since the decoder started (from 0) and the frame
/// the caller gave with it. The decoder goes on after it, and the ticks around
/// it still count.
public struct ClockInputError: Error, Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public let problem: MIDIStreamProblem
    public let byteIndex: Int
    public let frame: Int64

    public init(problem: MIDIStreamProblem, byteIndex: Int, frame: Int64) {
        self.problem = problem
        self.byteIndex = byteIndex
        self.frame = frame
    }

    /// One line for the display and the change log.
    public var description: String {
        let place = "at byte \(byteIndex) (frame \(frame))"
        switch problem {
        case .strayData(let byte):
            return "clock in: data byte \(Self.hex(byte)) with no status \(place), ignored"
        case .undefinedStatus(let byte):
            return "clock in: undefined status byte \(Self.hex(byte)) \(place), ignored"
        case .truncated(let status, let received, let expected, let cutBy):
            let by = cutBy.map { "by status \(Self.hex($0))" } ?? "by the end of the event"
            return "clock in: \(Self.name(status)) cut short after \(received) of \(expected) data bytes \(by) \(place), dropped"
        }
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }

    /// The message a status byte starts, as the MIDI 1.0 specification names it.
    static func name(_ status: UInt8) -> String {
        switch status {
        case MIDIStatus.songPosition: return "Song Position Pointer (0xF2)"
        case MIDIStatus.timeCodeQuarterFrame: return "MTC Quarter Frame (0xF1)"
        case MIDIStatus.songSelect: return "Song Select (0xF3)"
        default:
            let kinds = ["Note Off", "Note On", "Poly Pressure", "Control Change", "Program Change", "Channel Pressure", "Pitch Bend"]
            let kind = Int(status >> 4) - 8
            guard kind >= 0 && kind < kinds.count else { return "status \(hex(status))" }
            return "\(kinds[kind]) (\(hex(status)))"
        }
    }
}
