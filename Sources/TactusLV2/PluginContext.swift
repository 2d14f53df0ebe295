import CLV2
import Synchronization
import TactusCore

/// One instance of the plugin: everything run() touches, allocated in
/// instantiate and freed in cleanup, at one stable address (the LV2_Handle).
/// The engine inline, concrete containers only: nothing run() does allocates,
/// locks or retains (the pattern of the JACK client's `ProcessContext`).
struct PluginContext: ~Copyable {
    var engine: Engine
    let control: UnsafeMutablePointer<EngineControl>
    var urids: TactusURIDs
    var ports = PluginBuffers()
    /// The MIDI events of one render call, reused.
    var events = MIDIEventBuffer(capacity: 1024)
    var parser = MIDIParser()
    var pressure: PressureController
    /// The pressure settings under the ports' keys, channel and mode: the
    /// defaults, or the preset's playing.
    var pressureBase: PressureConfiguration
    /// The bar the plugin plays (the ports', or the preset's after a switch; in
    /// host sync under the host's meter) and its gains under the `gain` port's master.
    var playing = BarSettings()
    var playingGains = SoundGains()
    /// The preset library (`PluginPresets`); the names are for the state, off the audio thread.
    let presets: PluginPresets
    let presetNames: [String]
    /// The list position of the preset playing (-1: none yet), saved with the session.
    let presetIndex = Atomic<Int32>(-1)
    /// A preset from restored state for the next run() (-1: none).
    let restoredPreset = Atomic<Int32>(-1)
    var host: HostTimeline
    let meters = MeterTable()
    /// The plugin's frame count since activate: the engine's frames, and the
    /// pressure controller's clock (frames → µs at the sample rate).
    var frame: Int64 = 0
    let sampleRate: Double
    /// The settings last applied; nil before the first run().
    var applied: PluginSettings?
    /// The meter last given to the engine in host sync (the host's).
    var hostMeter: Meter?
    /// The host's bar line last given to the engine (`EngineCommand.anchorBar`).
    var hostBarLine: HostBarLine?
    /// The tempo the player reached in free mode (the tempo port, or pressure
    /// control after it), saved with the host's session.
    let tempoReached: Atomic<Int32>
    /// A tempo from restored state for the next run() (hundredths; 0: none).
    let restoredTempo = Atomic<Int32>(0)
    /// Output sequence: what is written of it so far in this run().
    var outputCapacity: UInt32 = 0
    var lastOutputFrame: Int64 = 0

    init(sampleRate: Double, urids: TactusURIDs, presets: PluginPresets, presetNames: [String]) {
        let rate = Int(sampleRate.rounded())
        self.sampleRate = sampleRate
        self.urids = urids
        let tempo = BPM(120)
        control = .allocate(capacity: 1)
        control.initialize(to: EngineControl())
        let configuration = EngineConfiguration(sampleRate: rate, tempo: tempo, feedbackNotes: .standard)
        engine = Engine(configuration: configuration, sounds: .synthesized(sampleRate: rate))
        pressureBase = PressureConfiguration()
        pressure = PressureController(configuration: pressureBase, tempo: tempo)
        self.presets = presets
        self.presetNames = presetNames
        // A hold emits a handful of effects between two calls; room for many more.
        pressure.reserveEffects(256)
        host = HostTimeline(sampleRate: sampleRate)
        tempoReached = Atomic(tempo.hundredths)
    }

    /// Frees what instantiate allocated (cleanup, never during run()); the
    /// preset table too unless another instance shares it (the warm-up's).
    consuming func free(presets freePresets: Bool = true) {
        if freePresets { presets.deallocate() }
        let sounds = engine.soundSet
        for set in engine.unheardSoundSets { set.deallocate() }
        while let retired = control.pointee.retiredSounds.pop() { retired.deallocate() }
        sounds.deallocate()
        meters.deallocate()
        control.deinitialize(count: 1)
        control.deallocate()
    }

    /// The pressure controller's clock at a frame: whole microseconds.
    func controlTime(atFrame frame: Int64) -> ControlTime {
        ControlTime(microseconds: Int64((Double(frame) * 1_000_000 / sampleRate).rounded()))
    }

    /// The first frame at or after a moment on the controller's clock.
    func firstFrame(at time: ControlTime) -> Int64 {
        let exact = Double(time.microseconds) * sampleRate / 1_000_000
        // Within half a microsecond after a frame is that frame: `controlTime`
        // rounds a frame to the nearest microsecond, so a deadline counted from a
        // press's frame (0.32 s after it) comes back to the press's frame + 15 360
        // at 48 kHz whichever way that rounding went.
        return Int64((exact - 0.5 * sampleRate / 1_000_000).rounded(.up))
    }
}
