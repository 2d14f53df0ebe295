import TactusCore

extension JackPorts {
    /// Tactus's ports on a fresh client: click, feedback, clock and control,
    /// and with a sync output (`--sync-out`, docs/DESIGN.md §14) the audio
    /// port `sync`, and `sync_run` for a kind with a second line (DIN sync's
    /// run line, a modular reset line). The sync ports are audio ports like
    /// the click's, so the pulses reach a sound card's output, and the
    /// engine's `SyncBuffers` point into their buffers each cycle (§14.5).
    static func register(on client: JackClient, sync: SyncSettings?, clockIn: Bool = false) throws(JackError) -> JackPorts {
        var ports = JackPorts(click: try client.register(TactusPort.click.rawValue, .audioOutput),
                              feedback: try client.register(TactusPort.feedback.rawValue, .audioOutput),
                              clock: try client.register(TactusPort.clock.rawValue, .midiOutput),
                              control: try client.register(TactusPort.control.rawValue, .midiInput))
        if let sync {
            ports.sync = try client.register(TactusPort.sync.rawValue, .audioOutput)
            if sync.hasSecondLine { ports.syncRun = try client.register(TactusPort.syncRun.rawValue, .audioOutput) }
        }
        if clockIn { ports.clockIn = try client.register(TactusPort.clockIn.rawValue, .midiInput) }
        return ports
    }
}
