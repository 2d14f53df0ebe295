import TactusALSA
import TactusCore

/// The ALSA sequencer side of the run mode: what the command line asks for,
/// and one call that starts it beside the JACK client.
public enum ALSAWiring {
    /// The sequencer options of the command line; nil with `--no-alsa`. The client
    /// is `Tactus` unless `-n` names the JACK client otherwise; then both share the name.
    public static func options(from o: Options) throws(OptionError) -> ALSAOptions? {
        guard o.useALSA else { return nil }
        var alsa = ALSAOptions()
        if o.clientName != Options().clientName { alsa.clientName = o.clientName }
        alsa.clockDestinations = try o.alsaClockTo.map { text throws(OptionError) in try port(text, option: "--alsa-clock-to") }
        alsa.controlSources = try o.alsaControlFrom.map { text throws(OptionError) in try port(text, option: "--alsa-control-from") }
        alsa.clockInSource = try o.alsaClockFrom.map { text throws(OptionError) in try port(text, option: "--alsa-clock-from") }
        alsa.lookAheadMicroseconds = Int64((o.alsaLookaheadMilliseconds * 1000).rounded())
        return alsa
    }

    private static func port(_ text: String, option: String) throws(OptionError) -> PortSpecifier {
        do {
            return try PortSpecifier(parsing: text)
        } catch {
            throw OptionError("tactus: \(option) '\(text)': \(error)")
        }
    }

    /// Starts the ALSA client for the run mode: its clock thread reads `clockStream`
    /// (the JACK callback's clock ring and frame clock), its input thread feeds
    /// `controlInput` (a ring of its own: SPSC, the JACK `control` port has another),
    /// which the control thread reads beside JACK's; with `--alsa-clock-from`, the
    /// clock arriving on its `clock_in` goes to `clockIn` (a push into the JACK
    /// cycle's ring, `JackShared.clockInArrivals`). Nil with `--no-alsa`, or when the
    /// sequencer cannot be opened (said once through `log`; the run carries on with JACK).
    /// Call `stop()` on the result after the last JACK cycle, before freeing what
    /// `clockStream` reads, so a final Stop still goes out.
    public static func start(_ o: Options, clockStream: ClockStreamSource,
                             controlInput: UnsafeMutablePointer<SPSCRing<ControlInputEvent>>?, wakeup: ControlWakeup? = nil,
                             clockIn: (@Sendable (TimedClockInputEvent) -> Void)? = nil,
                             log: @escaping @Sendable (String) -> Void = { printError("tactus: \($0)") }) throws(OptionError) -> ALSAClient? {
        guard let alsa = try options(from: o) else { return nil }
        return ALSAClient.start(options: alsa, clockStream: clockStream, controlEvents: controlInput, wakeup: wakeup, clockInEvents: clockIn, report: log)
    }
}
