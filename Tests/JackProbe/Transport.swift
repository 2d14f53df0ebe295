import CJack

/// Starts or stops JACK transport (jack_midi_clock only sends clock while it rolls).
enum Transport {
    static func main(_ args: inout Arguments) -> Int32 {
        let server = args.value("-s", "--server")
        let client = ProbeClient.open("transport", server: server)
        switch args.positionals.first {
        case "start": jack_transport_start(client)
        case "stop": jack_transport_stop(client)
        default: fail("transport start|stop")
        }
        jack_client_close(client)
        return 0
    }
}
