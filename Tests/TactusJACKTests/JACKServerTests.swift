import Foundation
import Testing

/// Every test that runs a real JACK server lives under this one suite, serialized:
/// each starts its own private `jackd -d dummy`, and two busy servers on a
/// two-core machine would cause xruns that are no fault of Tactus.
@Suite(.serialized) enum JACKServerTests {}

/// Recorded sessions shared by the tests that read them (a 30 s recording is
/// made once, then each rule is its own test).
final class SessionCache: @unchecked Sendable {
    static let shared = SessionCache()
    private var results: [String: Result<SessionResult, TestFailure>] = [:]
    private let lock = NSLock()

    func session(_ key: String, _ make: () throws -> SessionResult) throws -> SessionResult {
        lock.lock()
        defer { lock.unlock() }
        if let r = results[key] { return try r.get() }
        let r: Result<SessionResult, TestFailure>
        do { r = .success(try make()) } catch { r = .failure(TestFailure("\(error)")) }
        results[key] = r
        return try r.get()
    }
}
