import TactusCore
import TactusLink
#if canImport(Glibc)
import Glibc
#endif

extension ProcessContext {
    /// The context of a run with `options` at the server's `sampleRate`, as
    /// `JackMetronome` makes it for its first server, and the deterministic
    /// tests' simulated process loop makes it too, so that what they drive is
    /// the cycle the server runs, set up the same way: the engine for that
    /// rate (the clock offset in its frames, the sounds for it) and
    /// Tactus's own start tempo and meter for the transport without a master
    /// (docs/DESIGN.md §13.4). Ports and client are the supervisor's to set.
    init(options: JackRunOptions, sampleRate: Int, control: UnsafeMutablePointer<EngineControl>,
         shared: UnsafeMutablePointer<JackShared>, wakeup: UnsafeMutablePointer<sem_t>?) throws(JackError) {
        self.init(engine: try Self.engine(options: options, sampleRate: sampleRate), control: control, shared: shared,
                  wakeup: wakeup, ownTempo: options.engine.tempo, ownMeter: options.engine.bar.meter, clockIn: options.clockIn)
    }

    /// The engine `options` describe, at `sampleRate` (a server's, first or new).
    static func engine(options: JackRunOptions, sampleRate: Int) throws(JackError) -> Engine {
        var configuration = options.engine
        configuration.sampleRate = sampleRate
        configuration.clockOffsetFrames = try options.clockOffsetFrames(sampleRate: sampleRate)
        return Engine(configuration: configuration, sounds: options.sounds(sampleRate))
    }
}
