/// A MIDI data byte: 0–127. A value outside cannot be built, so a velocity of 200
/// is a type error, not a bug found later.
public struct UInt7: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public static let max = UInt7(unchecked: 127)
    public static let zero = UInt7(unchecked: 0)
    public let value: UInt8

    public init?(_ value: Int) {
        guard (0...127).contains(value) else { return nil }
        self.value = UInt8(value)
    }

    /// Keeps the low 7 bits, as a MIDI receiver reads a data byte.
    public init(truncating byte: UInt8) { value = byte & 0x7F }

    @inline(__always) init(unchecked value: UInt8) { self.value = value }

    public var description: String { String(value) }
    public static func < (a: UInt7, b: UInt7) -> Bool { a.value < b.value }
}

/// A MIDI channel, stored 0–15 as on the wire and shown 1–16 as on a controller.
public struct MIDIChannel: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public let index: UInt8

    /// From the 1–16 numbering musicians use.
    public init?(number: Int) {
        guard (1...16).contains(number) else { return nil }
        index = UInt8(number - 1)
    }

    /// From the low nibble of a channel status byte.
    public init(statusByte: UInt8) { index = statusByte & 0x0F }

    public var number: Int { Int(index) + 1 }
    public var description: String { String(number) }
}
