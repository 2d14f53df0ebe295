import TactusCore

extension JackMetronome {
    /// The sync output as the display shows it, so a musician wiring a
    /// device sees which port carries what and where it goes:
    /// "din24 on tactus:sync -> system:playback_3, run line on tactus:sync_run
    /// (not connected)" (docs/DESIGN.md §14). Control thread.
    func syncDescription(_ client: JackClient, ports: JackPorts) -> String? {
        guard let settings = context?.pointee.engine.syncSettings, let sync = ports.sync else { return nil }
        func port(_ name: TactusPort, _ handle: OpaquePointer) -> String {
            let others = client.connections(of: handle)
            return "\(clientName):\(name.rawValue)" + (others.isEmpty ? " (not connected)" : " -> " + others.joined(separator: ", "))
        }
        var text = "\(settings.kind.spelling) on \(port(.sync, sync))"
        if let second = ports.syncRun {
            text += ", \(settings.kind.hasRunLine ? "run line" : "reset") on \(port(.syncRun, second))"
        }
        return text
    }
}
