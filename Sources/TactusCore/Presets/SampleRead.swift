import Synchronization

/// A preset's WAV samples being read for a switch, off the control thread
/// (docs/DESIGN.md §6): decoding a long file takes long (a 60 MB WAV, a slow
/// disk), and the control thread must go on stepping the pressure hold
/// meanwhile. The reading thread calls `finish` once; the control thread looks
/// with `take()` in each of its rounds and, once the sounds are there, switches
/// (`PresetSwitcher.poll`). Until then the preset playing keeps playing.
///
/// A read that is no longer wanted (another preset was chosen meanwhile) is
/// `abandon`ed: its sounds are freed when they come, on the reading thread.
public final class SampleRead: Sendable {
    /// What the read gave: the sounds, or the preset refused by the field of its
    /// file that does not decode.
    public typealias Outcome = Result<SoundSet, PresetError>

    private enum State {
        case reading
        case finished(Outcome)
        case abandoned
        case taken
    }

    private let state: Mutex<State>
    /// The sample rate the sounds are read at (the engine's when the read began).
    public let sampleRate: Int

    public init(sampleRate: Int) {
        self.sampleRate = sampleRate
        state = Mutex(.reading)
    }

    /// A read already done (the caller decoded on its own thread).
    public convenience init(sampleRate: Int, outcome: Outcome) {
        self.init(sampleRate: sampleRate)
        finish(outcome)
    }

    /// The reading thread: what the read gave. Once; sounds of an abandoned read are freed here.
    public func finish(_ outcome: Outcome) {
        let unwanted: SoundSet? = state.withLock { state in
            guard case .reading = state else {
                if case .success(let sounds) = outcome { return sounds }
                return nil
            }
            state = .finished(outcome)
            return nil
        }
        unwanted?.deallocate()
    }

    /// Whether `finish` was called.
    public var isFinished: Bool {
        state.withLock { state in
            if case .reading = state { return false }
            return true
        }
    }

    /// The control thread: the outcome once the read is done (then nil again:
    /// the sounds are the caller's); nil while it reads.
    public func take() -> Outcome? {
        state.withLock { state in
            guard case .finished(let outcome) = state else { return nil }
            state = .taken
            return outcome
        }
    }

    /// The control thread: the sounds are not wanted any more; freed now if they
    /// came, else by `finish` when they come.
    public func abandon() {
        let unwanted: SoundSet? = state.withLock { state in
            defer { state = .abandoned }
            if case .finished(.success(let sounds)) = state { return sounds }
            return nil
        }
        unwanted?.deallocate()
    }
}
