import CALSA
import Testing
@testable import TactusALSA

/// `--alsa-clock-to` / `--alsa-control-from` CLIENT:PORT, by name or number.
struct PortSpecifierTests {
    let ports = [
        SequencerPort(address: .init(client: 14, port: 0), clientName: "Midi Through", portName: "Midi Through Port-0", isSource: true, isDestination: true, isKernelClient: true),
        SequencerPort(address: .init(client: 24, port: 0), clientName: "USB Keystation 49", portName: "USB Keystation 49 MIDI 1", isSource: true, isDestination: true),
        SequencerPort(address: .init(client: 128, port: 0), clientName: "Qtractor", portName: "Master", isSource: false, isDestination: true),
        SequencerPort(address: .init(client: 128, port: 1), clientName: "Qtractor", portName: "Control", isSource: true, isDestination: false),
        SequencerPort(address: .init(client: 130, port: 0), clientName: "a2j", portName: "Hydrogen: out", isSource: true, isDestination: false),
    ]

    private func resolve(_ text: String, _ direction: PortSpecifier.Direction) throws -> SequencerAddress? {
        try PortSpecifier(parsing: text).resolve(in: ports, direction: direction)?.address
    }

    @Test func numbersNameClientAndPort() throws {
        #expect(try resolve("24:0", .source) == .init(client: 24, port: 0))
        #expect(try resolve("128:1", .source) == .init(client: 128, port: 1))
    }

    @Test func namesNameClientAndPort() throws {
        #expect(try resolve("Midi Through:Midi Through Port-0", .destination) == .init(client: 14, port: 0))
        #expect(try resolve("Midi Through:0", .destination) == .init(client: 14, port: 0))
        #expect(try resolve("Qtractor:Control", .source) == .init(client: 128, port: 1))
    }

    @Test func aClientAloneMeansItsFirstPortThatCanBeRoutedThatWay() throws {
        #expect(try resolve("Qtractor", .destination) == .init(client: 128, port: 0))
        #expect(try resolve("Qtractor", .source) == .init(client: 128, port: 1))
        #expect(try resolve("128", .source) == .init(client: 128, port: 1))
    }

    @Test func aCaseInsensitivePrefixFindsTheClient() throws {
        #expect(try resolve("usb key", .source) == .init(client: 24, port: 0))
        #expect(try resolve("Keystation", .source) == nil)
    }

    @Test func namesWithColonsAreFound() throws {
        #expect(try resolve("a2j:Hydrogen: out", .source) == .init(client: 130, port: 0))
    }

    @Test func aPortThatCannotBeRoutedThatWayIsNotChosen() throws {
        #expect(try resolve("128:0", .source) == nil)
        #expect(try resolve("Qtractor:Control", .destination) == nil)
    }

    @Test func aMissingPortResolvesToNothing() throws {
        #expect(try resolve("LateKeyboard", .source) == nil)
        #expect(try resolve("99:0", .source) == nil)
    }

    @Test func emptyAndOutOfRangeTextIsRejected() {
        #expect(throws: PortSpecifier.ParseError.empty) { try PortSpecifier(parsing: "") }
        #expect(throws: PortSpecifier.ParseError.empty) { try PortSpecifier(parsing: "  ") }
        #expect(throws: PortSpecifier.ParseError.clientNumberOutOfRange("300:0")) { try PortSpecifier(parsing: "300:0") }
    }
}

/// The ALSA half of `tactus ports`.
struct PortListingTests {
    @Test func listsRoutablePortsWithAddressAndDirection() {
        let ports = [
            SequencerPort(address: .init(client: 0, port: 1), clientName: "System", portName: "Announce", isSource: true, isDestination: false, isKernelClient: true),
            SequencerPort(address: .init(client: 128, port: 1), clientName: "Tactus", portName: "control", isSource: false, isDestination: true),
            SequencerPort(address: .init(client: 128, port: 2), clientName: "Tactus", portName: "announcements", isSource: false, isDestination: false),
            SequencerPort(address: .init(client: 14, port: 0), clientName: "Midi Through", portName: "Midi Through Port-0", isSource: true, isDestination: true, isKernelClient: true),
            SequencerPort(address: .init(client: 128, port: 0), clientName: "Tactus", portName: "clock", isSource: true, isDestination: false),
        ]
        #expect(PortListing.lines(for: ports) == [
            "   14:0   out in   Midi Through:Midi Through Port-0",
            "  128:0   out      Tactus:clock",
            "  128:1       in   Tactus:control",
        ])
    }

    @Test func capabilitiesGiveTheDirectionsOthersMayRoute() {
        let read = UInt32(SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ)
        let write = UInt32(SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE)
        #expect(SequencerPort.directions(capability: read) == (true, false))
        #expect(SequencerPort.directions(capability: write) == (false, true))
        #expect(SequencerPort.directions(capability: read | write) == (true, true))
        // Readable but not subscribable: only direct reads, no connection.
        #expect(SequencerPort.directions(capability: UInt32(SND_SEQ_PORT_CAP_READ)) == (false, false))
        #expect(SequencerPort.directions(capability: read | write | UInt32(SND_SEQ_PORT_CAP_NO_EXPORT)) == (false, false))
    }
}
