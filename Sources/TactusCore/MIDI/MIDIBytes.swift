/// One MIDI message as wire bytes, up to three, stored inline so the real-time
/// thread can build and copy it without allocating.
public struct MIDIBytes: Hashable, Sendable, BitwiseCopyable {
    public var count: UInt8
    public var byte0: UInt8
    public var byte1: UInt8
    public var byte2: UInt8

    @inlinable public init(_ b0: UInt8) { count = 1; byte0 = b0; byte1 = 0; byte2 = 0 }
    @inlinable public init(_ b0: UInt8, _ b1: UInt8) { count = 2; byte0 = b0; byte1 = b1; byte2 = 0 }
    @inlinable public init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8) { count = 3; byte0 = b0; byte1 = b1; byte2 = b2 }

    @inlinable public subscript(i: Int) -> UInt8 { i == 0 ? byte0 : (i == 1 ? byte1 : byte2) }

    /// The status byte.
    @inlinable public var status: UInt8 { byte0 }
}

extension MIDIMessage {
    /// The wire form (MIDI 1.0 status byte first, data bytes 7-bit).
    @inlinable public var bytes: MIDIBytes {
        switch self {
        case .noteOn(let c, let n, let v): MIDIBytes(MIDIStatus.noteOn | c.index, n.value, v.value)
        case .noteOff(let c, let n, let v): MIDIBytes(MIDIStatus.noteOff | c.index, n.value, v.value)
        case .polyPressure(let c, let n, let p): MIDIBytes(MIDIStatus.polyPressure | c.index, n.value, p.value)
        case .controlChange(let c, let cc, let v): MIDIBytes(MIDIStatus.controlChange | c.index, cc.value, v.value)
        case .programChange(let c, let p): MIDIBytes(MIDIStatus.programChange | c.index, p.value)
        case .channelPressure(let c, let p): MIDIBytes(MIDIStatus.channelPressure | c.index, p.value)
        case .pitchBend(let c, let v): MIDIBytes(MIDIStatus.pitchBend | c.index, UInt8(v & 0x7F), UInt8((v >> 7) & 0x7F))
        case .songPosition(let p): MIDIBytes(MIDIStatus.songPosition, UInt8(p & 0x7F), UInt8((p >> 7) & 0x7F))
        case .timingClock: MIDIBytes(MIDIStatus.timingClock)
        case .start: MIDIBytes(MIDIStatus.start)
        case .continue: MIDIBytes(MIDIStatus.continue)
        case .stop: MIDIBytes(MIDIStatus.stop)
        }
    }
}
