import CJack

/// The playback latencies Tactus reports: what the musician needs to align the
/// clock with the click (`--clock-offset`), and the click's own, at which Link
/// reads its beat (docs/DESIGN.md §11.2).
extension JackMetronome {
    /// The playback latency of what `click` and `clock` feed, so the musician can
    /// align the clock with `--clock-offset` (JACK: `jack_port_get_latency_range`).
    func reportLatency(_ client: JackClient) {
        guard let ports = context?.pointee.ports else { return }
        updateClickLatency(client)
        for (port, handle) in [(TactusPort.click, ports.click), (.clock, ports.clock)] {
            let others = client.connections(of: handle)
            guard !others.isEmpty else {
                if port == .click { log("\(clientName):click is not connected (give ports as arguments, or connect it with jack_connect)") }
                continue
            }
            let rate = Double(client.sampleRate)
            let parts = others.map { other -> String in
                guard let range = client.playbackLatency(ofPortNamed: other) else { return "\(other) ?" }
                let ms = (Double(range.upperBound) / rate * 10_000).rounded() / 10
                let frames = range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)–\(range.upperBound)"
                return "\(other) \(frames) frames (\(ms) ms)"
            }
            log("playback latency after \(port.rawValue): \(parts.joined(separator: ", "))")
        }
    }

    /// The `click` port's playback latency after a graph change (Link reads
    /// its beat there), and with `--align` every output's (JackMetronomeAlignment.swift).
    func updateClickLatency(_ client: JackClient) {
        align(client)
        guard let ours = client.playbackLatency(ofPortNamed: "\(clientName):\(TactusPort.click.rawValue)") else { return }
        shared.pointee.clickLatency.store(ours.upperBound, ordering: .relaxed)
    }
}
