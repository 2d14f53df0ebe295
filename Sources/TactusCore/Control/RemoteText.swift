/// A short string held inline (up to 128 bytes of UTF-8), so a command naming a
/// preset stays plain data on its way through an `SPSCRing`.
public struct RemoteText: Sendable, Hashable, BitwiseCopyable, CustomStringConvertible {
    public static let capacity = 128
    private var length: UInt8
    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                          UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// Nil when `text` is longer than `capacity` bytes.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.capacity else { return nil }
        length = UInt8(bytes.count)
        storage = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &storage) { $0.copyBytes(from: bytes) }
    }

    public var description: String {
        withUnsafeBytes(of: storage) { String(decoding: $0.prefix(Int(length)), as: UTF8.self) }
    }

    public static func == (a: RemoteText, b: RemoteText) -> Bool { a.description == b.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
