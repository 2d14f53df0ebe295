import TactusCore

/// The JACK and ALSA side of the display, read from the clients by the run mode
/// (slowly: connections and DSP load are queried a few times a second, not
/// every round) and passed in as plain data, so the snapshot can be built and
/// tested without a server.
public struct PortsStatus: Hashable, Sendable {
    public var jack: JackView
    public var connections: [MIDIConnection]
    public var alsaActive: Bool

    public init(jack: JackView = .waiting(server: nil), connections: [MIDIConnection] = [], alsaActive: Bool = false) {
        self.jack = jack
        self.connections = connections
        self.alsaActive = alsaActive
    }
}

extension DisplayModel {
    /// What the display shows now, on the control thread: the tempo heard,
    /// the beat the engine last played, the bar it plays, the pressure
    /// controller's state, the preset, and the ports.
    /// The practice row from the session's `practice` tools.
    public init<Clock: ControlClock>(engine: borrowing EngineControl, session: ControlSession<Clock>, ports: PortsStatus) {
        let status = session.loop.controller.status
        let bar = session.heardBar
        let beatsPerBar = bar.meter.beatsPerBar
        let beat = engine.status.beat.load(ordering: .acquiring)
        self.init(tempo: session.heardTempo, meter: bar.meter, accents: bar.accents,
                  running: engine.status.running.load(ordering: .acquiring), muted: session.muted,
                  bar: engine.status.bar.load(ordering: .acquiring), beat: beat <= beatsPerBar ? beat : 0,
                  beatAccent: Accent(rawValue: engine.status.lastAccent.load(ordering: .acquiring)) ?? .normal,
                  pressure: status, preset: session.presetPosition, jack: ports.jack, connections: ports.connections,
                  alsaActive: ports.alsaActive, clockOffsetMilliseconds: session.clockOffsetMilliseconds, message: session.message,
                  practice: session.practice.map { PracticeView(status: engine.status, map: $0.map, trainer: $0.trainer) },
                  pending: session.pending, subdivision: bar.subdivision, controllerHeard: session.controllerHeard,
                  beatCursor: session.beatCursor)
    }
}
