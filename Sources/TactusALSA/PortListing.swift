/// The ALSA half of `tactus ports`: every client's ports that can be connected,
/// with the address and the direction MIDI flows, in `aconnect -l`'s order.
public enum PortListing {
    /// Lists the ports through a short-lived client of its own.
    public static func ports(clientName: String = "tactus ports") throws(SequencerError) -> [SequencerPort] {
        try Sequencer(name: clientName).ports()
    }

    /// One line per port others can connect to, e.g.
    /// `   14:0    out in   Midi Through:Midi Through Port-0`.
    /// `out`: MIDI comes out of it (use with `--alsa-control-from`, `--alsa-clock-from`); `in`: MIDI goes
    /// into it (use with `--alsa-clock-to`). The System client (timer, announce) and
    /// ports nobody else may route (our own lister included) are left out.
    public static func lines(for ports: [SequencerPort], excludingClient excluded: UInt8? = nil) -> [String] {
        ports.filter { ($0.isSource || $0.isDestination) && $0.address.client != 0 && $0.address.client != excluded }
            .sorted { $0.address < $1.address }
            .map { port in
                let address = "\(port.address)"
                let padded = String(repeating: " ", count: max(0, 7 - address.count)) + address
                let directions = (port.isSource ? "out" : "   ") + " " + (port.isDestination ? "in " : "   ")
                return "\(padded)   \(directions)  \(port.clientName):\(port.portName)"
            }
    }
}
