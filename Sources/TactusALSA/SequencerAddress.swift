import CALSA

/// A port on the ALSA sequencer, `client:port` as `aconnect -l` prints it.
public struct SequencerAddress: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var client: UInt8
    public var port: UInt8

    public init(client: UInt8, port: UInt8) {
        self.client = client
        self.port = port
    }

    /// The System client's Announce port (0:1): the kernel reports every client and
    /// port that starts, changes or exits here (ALSA seq: SND_SEQ_PORT_SYSTEM_ANNOUNCE).
    public static let systemAnnounce = SequencerAddress(client: UInt8(SND_SEQ_CLIENT_SYSTEM), port: UInt8(SND_SEQ_PORT_SYSTEM_ANNOUNCE))

    public var description: String { "\(client):\(port)" }

    public static func < (a: SequencerAddress, b: SequencerAddress) -> Bool {
        (a.client, a.port) < (b.client, b.port)
    }

    var alsa: snd_seq_addr_t { snd_seq_addr_t(client: client, port: port) }
}
