import CALSA

/// One port of the sequencer as discovery sees it: where it is, what it is called,
/// and which way MIDI can be routed through it.
public struct SequencerPort: Hashable, Sendable, CustomStringConvertible {
    public var address: SequencerAddress
    public var clientName: String
    public var portName: String
    /// MIDI comes out of it: others may subscribe to read from it (`CAP_READ | CAP_SUBS_READ`).
    /// A keyboard's port; what `--alsa-control-from` connects from.
    public var isSource: Bool
    /// MIDI goes into it: others may subscribe to write to it (`CAP_WRITE | CAP_SUBS_WRITE`).
    /// A synth's or DAW's input; what `--alsa-clock-to` connects to.
    public var isDestination: Bool
    /// A kernel client (a sound card's MIDI port, `Midi Through`), not an application.
    public var isKernelClient: Bool

    public init(address: SequencerAddress, clientName: String, portName: String,
                isSource: Bool, isDestination: Bool, isKernelClient: Bool = false) {
        self.address = address
        self.clientName = clientName
        self.portName = portName
        self.isSource = isSource
        self.isDestination = isDestination
        self.isKernelClient = isKernelClient
    }

    public var description: String { "\(clientName):\(portName) (\(address))" }

    /// The capability bits of `snd_seq_port_info_get_capability` read as routing
    /// directions. A port marked `NO_EXPORT` may only be routed by its owner, so it
    /// is neither a source nor a destination for anybody else.
    static func directions(capability: UInt32) -> (source: Bool, destination: Bool) {
        if capability & UInt32(SND_SEQ_PORT_CAP_NO_EXPORT) != 0 { return (false, false) }
        let source = UInt32(SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ)
        let destination = UInt32(SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE)
        return (capability & source == source, capability & destination == destination)
    }
}
