import Foundation
import Testing
@testable import TactusJACK

/// `tactus ports` finds no server without starting one.
@Suite struct JackPortListingWithoutAServerTests {
    @Test func noServerIsOneLineNamingTheServer() {
        let name = "tactus-no-such-server-\(getpid())"
        #expect(JackPortListing.lines(serverName: name)
            == ["JACK: no server running named '\(name)' (start one, e.g. with qjackctl or jackd)"])
    }
}

extension JACKServerTests {
    /// The non-real-time JACK calls on a private `jackd -d dummy`, whose backend
    /// has two capture and two playback audio ports.
    @Suite struct JackClientCalls {
        @Test func thePortListingShowsEachPortsKindAndDirection() throws {
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            #expect(JackPortListing.lines(serverName: server.name) == [
                "JACK ports (midi in: --connect-clock; midi out: --connect-control, --connect-clock-in; audio in: PORT..., --connect-sync, --connect-sync-run):",
                "  audio out  system:capture_1",
                "  audio out  system:capture_2",
                "  audio in   system:playback_1",
                "  audio in   system:playback_2",
                "JACK transport stopped, timebase master: none",
            ])
        }

        /// jack_connect returns EEXIST for a connection already made: not an error.
        @Test func connectingTwiceIsNotAnError() throws {
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let client = try JackClient(name: "patch", server: server.name)
            defer { client.close() }
            try client.connect("system:capture_1", "system:playback_1")
            try client.connect("system:capture_1", "system:playback_1")
        }

        /// An input as the source, and a port that does not exist: JACK's refusal
        /// comes back with both names and its code, and reads as one line.
        @Test func aRefusedConnectionThrowsWhatJACKSaid() throws {
            let server = try JackTestServer(period: 256)
            defer { server.stop() }
            let client = try JackClient(name: "patch", server: server.name)
            defer { client.close() }
            for (source, destination) in [("system:playback_1", "system:capture_1"), ("system:capture_1", "nobody:in")] {
                do throws(JackError) {
                    try client.connect(source, destination)
                    Issue.record("\(source) → \(destination) was connected")
                } catch {
                    #expect(error == .connectionFailed(source: source, destination: destination, code: -1))
                    #expect(error.description == "JACK refused to connect \(source) to \(destination) (jack_connect error -1)")
                }
            }
        }
    }
}
