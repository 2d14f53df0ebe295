/// The OSC namespace of Tactus (README "OSC", docs/DESIGN.md §12): each path,
/// the arguments it takes and their ranges, turned into a `RemoteCommand`, or
/// the reason it is refused, which goes back as `/tactus/error s:path s:reason`.
///
/// Numbers are taken in any numeric type (`i`, `f`, `h`, `d`): TouchOSC and Open
/// Stage Control send floats for every control, a script ints. A whole-number
/// argument (a bar, a program) must be whole. Pure: the server's thread calls it.
public enum RemoteCommandParser {
    /// Every path under `/tactus/`, with its argument types, as the README lists them.
    public static let namespace: [(path: String, types: String)] = [
        ("start", ""), ("stop", ""), ("continue", ""), ("locate", "i"),
        ("tempo", "f"), ("nudge", "f"), ("tap", ""),
        ("meter", "ii"), ("accents", "s"), ("subdivision", "s"), ("gain", "f"), ("mute", "i"),
        ("preset", "s|i"), ("next", ""), ("previous", ""), ("countin", "i"), ("trainer", "s"), ("gap", "s"),
        ("query", "[s]"), ("register", "s"), ("unregister", "s"), ("ping", ""),
    ].map { ("/tactus/" + $0.0, $0.1) }

    /// The highest bar `locate` takes: far beyond any song, and its pulse fits 32 bits at any meter.
    public static let maximumBar: Int32 = 100_000

    public static func parse(path: String, arguments: [OSCArgument]) -> Result<RemoteCommand, RemoteCommandError> {
        do throws(RemoteCommandError) {
            return .success(try command(path: path, arguments))
        } catch {
            return .failure(error)
        }
    }

    private static func command(path: String, _ a: [OSCArgument]) throws(RemoteCommandError) -> RemoteCommand {
        guard path.hasPrefix("/tactus/") else { throw RemoteCommandError("unknown path: Tactus answers under /tactus/") }
        let name = path.dropFirst("/tactus/".count)
        switch name {
        case "start": try none(a); return .start
        case "stop": try none(a); return .stop
        case "continue": try none(a); return .continue
        case "locate":
            return .locate(bar: Int32(try whole(a, "a bar number", 1...Double(maximumBar))))
        case "tempo":
            let bpm = try number(a, "the tempo in BPM", 1...999)
            return .tempo(BPM(bpm))
        case "nudge":
            let delta = try number(a, "a tempo change in BPM", -998...998)
            return .nudge(hundredths: Int32((delta * 100).rounded()))
        case "tap": try none(a); return .tap
        case "meter":
            guard a.count == 2, let beats = a[0].number, let unit = a[1].number else {
                throw RemoteCommandError("takes two numbers (ii): beats a bar and the beat unit, e.g. 7 8 \(got(a))")
            }
            guard beats == beats.rounded(), unit == unit.rounded(), abs(beats) < 1000, abs(unit) < 1000,
                  let meter = Meter(beatsPerBar: Int(beats), beatUnit: Int(unit)) else {
                throw RemoteCommandError("\(format(beats))/\(format(unit)) is not a meter: 1 to \(Meter.maximumBeats) beats of 1, 2, 4, 8, 16 or 32")
            }
            return .meter(meter)
        case "accents":
            let text = try string(a, "an accent pattern, one symbol a beat: X accent, x normal, o soft, . silent")
            guard let pattern = AccentPattern(text) else {
                throw RemoteCommandError("'\(excerpt(text))' is not an accent pattern: one symbol a beat, X accent, x normal, o soft, . silent, up to \(Meter.maximumBeats)")
            }
            return .accents(pattern)
        case "subdivision":
            let kinds = Subdivision.allCases.map(\.rawValue).joined(separator: ", ")
            let text = try string(a, "a subdivision: \(kinds)")
            guard let subdivision = Subdivision(rawValue: text) else {
                throw RemoteCommandError("'\(excerpt(text))' is not a subdivision: one of \(kinds)")
            }
            return .subdivision(subdivision)
        case "gain":
            return .gain(decibels: try number(a, "a gain in dB", -60...12))
        case "mute":
            return .mute(try whole(a, "1 to mute, 0 to unmute", 0...1) == 1)
        case "preset":
            if a.count == 1, case .string(let text) = a[0] {
                guard !text.isEmpty, text.count <= Preset.maximumNameLength, !text.contains("/"), let name = RemoteText(text) else {
                    throw RemoteCommandError("'\(excerpt(text))' is not a preset name: a name of the library, at most \(Preset.maximumNameLength) characters, never a path")
                }
                return .presetNamed(name)
            }
            guard a.count == 1, a[0].number != nil else {
                throw RemoteCommandError("takes a preset's name (s) or its program number (i) \(got(a))")
            }
            return .presetProgram(UInt7(Int(try whole(a, "a program number", 0...127)))!)
        case "next": try none(a); return .nextPreset
        case "previous": try none(a); return .previousPreset
        case "countin":
            let bars = try whole(a, "count-in bars, -1 for none (0: two beats)", -1...16)
            return .practice(.countIn(bars < 0 ? nil : CountIn(bars: Int(bars))))
        case "trainer":
            let text = try string(a, "a speed trainer FROM-TO/BARS[:STEP], or off")
            if text == "off" { return .practice(.trainer(nil)) }
            do throws(PracticeSyntaxError) {
                return .practice(.trainer(try SpeedTrainer(parsing: text)))
            } catch {
                throw RemoteCommandError("'\(excerpt(text))' is not a speed trainer: \(error.problem ?? SpeedTrainer.allowed), or off")
            }
        case "gap":
            let text = try string(a, "a gap trainer PLAY/MUTE, or off")
            if text == "off" { return .practice(.gap(nil)) }
            var gap = GapTrainer()
            do throws(PracticeSyntaxError) { try gap.parse(text) } catch {
                throw RemoteCommandError("'\(excerpt(text))' is not a gap trainer: \(GapTrainer.allowed), or off")
            }
            return .practice(.gap(gap))
        case "query":
            if a.isEmpty { return .query(replyTo: nil) }
            return .query(replyTo: try peer(a))
        case "register": return .register(try peer(a))
        case "unregister": return .unregister(try peer(a))
        case "ping": try none(a); return .ping
        default:
            throw RemoteCommandError("unknown path: the paths are \(namespace.map { String($0.path.dropFirst(8)) }.joined(separator: ", ")) under /tactus/")
        }
    }

    private static func none(_ a: [OSCArgument]) throws(RemoteCommandError) {
        guard a.isEmpty else { throw RemoteCommandError("takes no arguments \(got(a))") }
    }

    private static func number(_ a: [OSCArgument], _ what: String, _ range: ClosedRange<Double>) throws(RemoteCommandError) -> Double {
        guard a.count == 1, let value = a[0].number else {
            throw RemoteCommandError("takes one number (f): \(what), \(format(range.lowerBound)) to \(format(range.upperBound)) \(got(a))")
        }
        guard value.isFinite, range.contains(value) else {
            throw RemoteCommandError("\(format(value)) is out of range: \(what), \(format(range.lowerBound)) to \(format(range.upperBound))")
        }
        return value
    }

    private static func whole(_ a: [OSCArgument], _ what: String, _ range: ClosedRange<Double>) throws(RemoteCommandError) -> Double {
        let value = try number(a, what, range)
        guard value == value.rounded() else { throw RemoteCommandError("\(format(value)) is not a whole number: \(what)") }
        return value
    }

    private static func string(_ a: [OSCArgument], _ what: String) throws(RemoteCommandError) -> String {
        guard a.count == 1, case .string(let text) = a[0] else { throw RemoteCommandError("takes one string (s): \(what) \(got(a))") }
        return text
    }

    private static func peer(_ a: [OSCArgument]) throws(RemoteCommandError) -> RemotePeer {
        let text = try string(a, "a liblo URL such as osc.udp://127.0.0.1:9001/")
        guard let peer = RemotePeer(url: text) else {
            throw RemoteCommandError("'\(excerpt(text))' is not a UDP URL with a numeric address, such as osc.udp://127.0.0.1:9001/")
        }
        return peer
    }

    /// "(got ifs)": the type tags that came, for a reply a client's author can act on.
    private static func got(_ a: [OSCArgument]) -> String {
        "(got \(a.isEmpty ? "none" : String(a.map(\.tag))))"
    }

    private static func format(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// A string quoted back in a reply, cut to 40 characters: a huge one must not make a huge reply.
    static func excerpt(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}

/// Why a remote command was refused: the reason of `/tactus/error s:path s:reason`.
public struct RemoteCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
