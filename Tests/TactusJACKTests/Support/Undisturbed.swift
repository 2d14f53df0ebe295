/// A run recorded again while the machine disturbed it, up to `attempts` in
/// all, the last judged: the tests that measure in the server's frames what
/// is timed on the host's clock (Link's beats, a controller's steps, a
/// sender's exact frames, a forced stall's neighbours). jack2's dummy driver
/// that wakes late goes on from where it woke, so each xrun puts the frames
/// behind the host's time by its lateness, and such a run says nothing of
/// Tactus. Each test says what disturbs it (`disturbance`: nil when nothing
/// did, else what, for the log); a run still disturbed after the last attempt
/// is judged as it is, with what the xruns allow.
enum Undisturbed {
    static let attempts = 3

    static func run<T>(_ label: String, _ record: () throws -> T, disturbance: (T) -> String?) rethrows -> T {
        var last = try record()
        for _ in 1..<attempts {
            guard let why = disturbance(last) else { break }
            print("\(label): \(why), recorded again")
            last = try record()
        }
        return last
    }
}
