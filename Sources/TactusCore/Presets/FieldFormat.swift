/// What is wrong with one value; the field adds its path and what is allowed.
struct FieldProblem: Error {
    let problem: String
    init(_ problem: String) { self.problem = problem }

    static func found(_ json: JSONValue) -> FieldProblem { FieldProblem("found \(json.excerpt)") }
}

/// How one JSON value becomes a `T` and back, and what is allowed, in words.
struct FieldFormat<T> {
    let allowed: String
    let read: (JSONValue) throws(FieldProblem) -> T
    /// Nil leaves the key out of the file.
    let write: (T) -> JSONValue?

    /// `json` read at `path` outside the preset schema (a key `controller.json`
    /// shares with presets): the value, or nil and the problem with what is allowed.
    func read(_ json: JSONValue, path: String) -> (value: T?, issue: PresetIssue?) {
        do throws(FieldProblem) {
            return (try read(json), nil)
        } catch {
            return (nil, PresetIssue(path: path, problem: error.problem, allowed: allowed))
        }
    }
}

extension FieldFormat where T == Double {
    /// A number within `range`, at most `decimals` decimals when given.
    static func number(_ range: ClosedRange<Double>, _ unit: String = "", decimals: Int? = nil) -> FieldFormat {
        let unitText = unit.isEmpty ? "" : " " + unit
        var allowed = "a number from \(JSONWriter.number(range.lowerBound)) to \(JSONWriter.number(range.upperBound))\(unitText)"
        if let decimals { allowed += ", at most \(decimals == 2 ? "two" : String(decimals)) decimals" }
        return FieldFormat(allowed: allowed, read: { json throws(FieldProblem) in
            guard case .number(let x) = json else { throw .found(json) }
            guard range.contains(x) else { throw FieldProblem("\(JSONWriter.number(x)) is out of range") }
            if let decimals {
                let scaled = x * pow10(decimals)
                // Tolerance for binary fractions: 97.33 × 100 is 9732.999999999998.
                guard abs(scaled - scaled.rounded()) < 1e-6 else { throw FieldProblem("\(JSONWriter.number(x)) has more than \(decimals) decimals") }
            }
            return x
        }, write: { .number($0) })
    }

    /// A force as a fraction of the calibrated maximum, 0 to 1.
    static var fraction: FieldFormat { number(0...1, "(fraction of full force)") }

    static func seconds(_ range: ClosedRange<Double>) -> FieldFormat { number(range, "seconds") }

    private static func pow10(_ n: Int) -> Double { (0..<n).reduce(1) { r, _ in r * 10 } }
}

extension FieldFormat where T == Int {
    static func integer(_ range: ClosedRange<Int>, _ unit: String = "") -> FieldFormat {
        let unitText = unit.isEmpty ? "" : " " + unit
        return FieldFormat(allowed: "a whole number from \(range.lowerBound) to \(range.upperBound)\(unitText)", read: { json throws(FieldProblem) in
            guard case .number(let x) = json else { throw .found(json) }
            guard x == x.rounded() else { throw FieldProblem("\(JSONWriter.number(x)) is not a whole number") }
            guard x >= Double(range.lowerBound), x <= Double(range.upperBound) else { throw FieldProblem("\(JSONWriter.number(x)) is out of range") }
            return Int(x)
        }, write: { .number(Double($0)) })
    }
}

extension FieldFormat where T == Bool {
    static var flag: FieldFormat {
        FieldFormat(allowed: "true or false", read: { json throws(FieldProblem) in
            guard case .bool(let b) = json else { throw .found(json) }
            return b
        }, write: { .bool($0) })
    }
}

extension FieldFormat where T == Float {
    /// A linear gain: 1 plays the sound as it is, 0 silences it.
    static var gain: FieldFormat {
        let number = FieldFormat<Double>.number(0...4, "(linear: 1 as recorded, 0 silent)")
        return FieldFormat(allowed: number.allowed, read: { json throws(FieldProblem) in Float(try number.read(json)) },
                           // Float's shortest description, so 0.8 is written "0.8", not 0.800000011920929.
                           write: { .number(Double(String($0)) ?? Double($0)) })
    }
}

extension FieldFormat where T == UInt7 {
    static func midiValue(_ what: String) -> FieldFormat {
        let integer = FieldFormat<Int>.integer(0...127)
        return FieldFormat(allowed: "\(what), a whole number from 0 to 127", read: { json throws(FieldProblem) in
            UInt7(try integer.read(json))!
        }, write: { .number(Double($0.value)) })
    }
}

extension FieldFormat where T: RawRepresentable & CaseIterable, T.RawValue == String {
    /// One of the enumeration's raw values.
    static var choice: FieldFormat {
        let names = T.allCases.map(\.rawValue)
        return FieldFormat(allowed: "one of " + names.joined(separator: ", "), read: { json throws(FieldProblem) in
            guard case .string(let s) = json else { throw .found(json) }
            guard let value = T(rawValue: s) else { throw FieldProblem("\(json.excerpt) is unknown") }
            return value
        }, write: { .string($0.rawValue) })
    }
}

extension FieldFormat {
    /// The same format, the key left out of the file when the value is `isDefault`'s.
    func omitted(when isDefault: @escaping (T) -> Bool) -> FieldFormat {
        let write = self.write
        return FieldFormat(allowed: allowed, read: read, write: { isDefault($0) ? nil : write($0) })
    }

    /// The same format, optional: absent or nil is left out of the file.
    static func optional<Wrapped>(_ format: FieldFormat<Wrapped>) -> FieldFormat<Wrapped?> where T == Wrapped? {
        FieldFormat(allowed: format.allowed, read: { json throws(FieldProblem) in try format.read(json) },
                    write: { $0.flatMap(format.write) })
    }
}
