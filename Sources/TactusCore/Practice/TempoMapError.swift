/// A mistake in a tempo map file: where (file, line, column, from 1) and what
/// is wrong and allowed, as a compiler says it: `song.map:3:9: …`.
public struct TempoMapError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column): \(message)" }
}
