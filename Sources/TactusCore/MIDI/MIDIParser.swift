/// Turns a MIDI 1.0 byte stream into typed messages, one byte at a time, without
/// allocating: usable on the real-time thread.
///
/// What the MIDI 1.0 specification asks of a receiver, and what it does:
/// * Running status: a channel message may omit its status byte when it repeats
///   the previous one; data bytes after a complete message start the next one.
/// * System Real-Time bytes (0xF8–0xFF) may appear anywhere, even between the
///   data bytes of another message; they are returned at once and do not disturb
///   the message in progress or the running status.
/// * System Common (0xF1–0xF7) and SysEx (0xF0 … 0xF7) cancel running status;
///   SysEx data is skipped.
/// * A status byte in the middle of an incomplete message abandons it; data bytes
///   with no status to belong to are ignored; undefined statuses (0xF4, 0xF5, 0xF9,
///   0xFD) are ignored. Nothing is ever an error: a bad byte costs at most the
///   message it was in, and `lastProblem` says which rule it broke.
public struct MIDIParser: Sendable {
    private var runningStatus: UInt8 = 0
    private var data0: UInt8 = 0
    private var dataCount = 0
    private var inSysEx = false
    /// A status byte came and none of its data yet (under running status, a
    /// completed message leaves this false: its next data bytes are optional).
    private var awaitingData = false
    /// What the last byte given to `parse` (or `endOfEvent`) broke, if anything.
    public private(set) var lastProblem: MIDIStreamProblem?
    /// Bytes ignored (stray data, undefined status, SysEx payload), for diagnostics.
    public private(set) var ignoredBytes = 0

    public init() {}

    /// Forgets any partial message and the running status.
    public mutating func reset() {
        runningStatus = 0
        dataCount = 0
        inSysEx = false
        awaitingData = false
    }

    /// The end of one event of a transport that delivers whole messages (a JACK
    /// MIDI event holds one complete message): a message still missing data
    /// bytes is truncated, and running status does not carry into the next event.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public mutating func endOfEvent() -> MIDIStreamProblem? {
        lastProblem = incomplete(cutBy: nil)
        if lastProblem != nil { ignoredBytes += dataCount }
        reset()
        return lastProblem
    }

    /// The message in progress as a truncation, if it lacks data bytes.
    private func incomplete(cutBy: UInt8?) -> MIDIStreamProblem? {
        guard !inSysEx, runningStatus != 0, awaitingData || dataCount > 0 else { return nil }
        return .truncated(status: runningStatus, received: dataCount, expected: MIDIParser.dataLength(runningStatus), cutBy: cutBy)
    }

    /// Feeds one byte; returns a message when this byte completes one.
    #if REALTIME_CHECKS
    @_noLocks @_noAllocation
    #endif
    public mutating func parse(_ byte: UInt8) -> MIDIMessage? {
        lastProblem = nil
        if byte >= 0xF8 { return realTime(byte) }
        if byte >= 0x80 { return status(byte) }
        // A data byte.
        if inSysEx || runningStatus == 0 {
            ignoredBytes += 1
            if !inSysEx { lastProblem = .strayData(byte) }
            return nil
        }
        awaitingData = false
        let needed = MIDIParser.dataLength(runningStatus)
        if dataCount == 0 && needed == 2 {
            data0 = byte
            dataCount = 1
            return nil
        }
        let first = needed == 1 ? byte : data0
        let second = needed == 1 ? 0 : byte
        dataCount = 0
        let message = MIDIParser.message(status: runningStatus, first, second)
        // System Common messages do not set running status.
        if runningStatus >= 0xF0 { runningStatus = 0 }
        return message
    }

    private mutating func realTime(_ byte: UInt8) -> MIDIMessage? {
        switch byte {
        case MIDIStatus.timingClock: return .timingClock
        case MIDIStatus.start: return .start
        case MIDIStatus.continue: return .continue
        case MIDIStatus.stop: return .stop
        case 0xF9, 0xFD:
            ignoredBytes += 1
            lastProblem = .undefinedStatus(byte)
            return nil
        default:
            ignoredBytes += 1 // Active Sensing, System Reset
            return nil
        }
    }

    private mutating func status(_ byte: UInt8) -> MIDIMessage? {
        lastProblem = incomplete(cutBy: byte)
        if dataCount > 0 || inSysEx { ignoredBytes += dataCount }
        dataCount = 0
        awaitingData = false
        switch byte {
        case MIDIStatus.sysExStart:
            inSysEx = true
            runningStatus = 0
        case MIDIStatus.sysExEnd:
            if !inSysEx && lastProblem == nil { lastProblem = .undefinedStatus(byte) }
            inSysEx = false
            runningStatus = 0
        case MIDIStatus.tuneRequest, 0xF4, 0xF5:
            if byte != MIDIStatus.tuneRequest && lastProblem == nil { lastProblem = .undefinedStatus(byte) }
            inSysEx = false
            runningStatus = 0
            ignoredBytes += 1
        default:
            // Channel voice, and the System Common messages with data (quarter frame,
            // Song Position, Song Select): their data bytes follow; `parse` clears
            // the running status again once a System Common message is complete.
            inSysEx = false
            runningStatus = byte
            awaitingData = true
        }
        return nil
    }

    /// Data bytes that follow `status` (channel voice and system common).
    static func dataLength(_ status: UInt8) -> Int {
        switch status & 0xF0 {
        case MIDIStatus.programChange, MIDIStatus.channelPressure: return 1
        case 0xF0:
            switch status {
            case MIDIStatus.songPosition: return 2
            default: return 1 // quarter frame, song select
            }
        default: return 2
        }
    }

    static func message(status: UInt8, _ d0: UInt8, _ d1: UInt8) -> MIDIMessage? {
        let channel = MIDIChannel(statusByte: status)
        let a = UInt7(truncating: d0)
        let b = UInt7(truncating: d1)
        switch status & 0xF0 {
        case MIDIStatus.noteOff: return .noteOff(channel: channel, note: a, velocity: b)
        case MIDIStatus.noteOn: return .noteOn(channel: channel, note: a, velocity: b)
        case MIDIStatus.polyPressure: return .polyPressure(channel: channel, note: a, pressure: b)
        case MIDIStatus.controlChange: return .controlChange(channel: channel, controller: a, value: b)
        case MIDIStatus.programChange: return .programChange(channel: channel, program: a)
        case MIDIStatus.channelPressure: return .channelPressure(channel: channel, pressure: a)
        case MIDIStatus.pitchBend: return .pitchBend(channel: channel, value: UInt16(a.value) | UInt16(b.value) << 7)
        default:
            return status == MIDIStatus.songPosition ? .songPosition(UInt16(a.value) | UInt16(b.value) << 7) : nil
        }
    }
}
