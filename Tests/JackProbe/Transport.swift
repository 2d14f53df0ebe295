import CJack

#if canImport(Glibc)
import Glibc
#endif

/// Starts or stops JACK transport (jack_midi_clock only sends clock while it rolls).
///
/// The client is activated and kept for a few cycles: jackd applies a transport
/// request at once, but PipeWire's JACK library hands it to the graph from the
/// requesting client's own cycle, so an inactive client's request is lost there.
enum Transport {
    static func main(_ args: inout Arguments) -> Int32 {
        if args.positionals.first == "master" { return TimebaseMaster.main(&args) }
        let server = args.value("-s", "--server")
        // `--after SECONDS`: the request that long after launch (a test's companion client).
        if let after = args.value("--after").flatMap(Double.init) { usleep(UInt32(after * 1_000_000)) }
        let client = ProbeClient.open("transport", server: server)
        guard jack_activate(client) == 0 else { fail("cannot activate") }
        switch args.positionals.first {
        case "start": jack_transport_start(client)
        case "stop": jack_transport_stop(client)
        case "locate":
            guard args.positionals.count > 1, let frame = UInt32(args.positionals[1]) else { fail("transport locate FRAME") }
            jack_transport_locate(client, frame)
        default: fail("transport start|stop|locate FRAME|master [--after SECONDS]")
        }
        usleep(100_000)
        jack_deactivate(client)
        jack_client_close(client)
        return 0
    }
}
