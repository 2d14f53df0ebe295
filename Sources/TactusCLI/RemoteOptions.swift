import TactusCore

/// The OSC server's options (README "OSC", docs/DESIGN.md §12) and learn's `--action`.
extension OptionTable {
    static let remote: [OptionSpec] = {
        let portAllowed = "a UDP port from 1 to 65535"
        let actions = ControlAction.allCases.map(\.rawValue).joined(separator: ", ")
        let hostAllowed = "an IPv4 address: 127.0.0.1 (this computer only, the default), a local interface's address, or 0.0.0.0 for every interface"
        return [
            value("--osc", nil, "PORT", [.run], .remote, "listen for OSC remote control on this UDP port (off by default)", portAllowed) { o, v, n throws(OptionError) in
                o.oscPort = UInt16(try integer(v, n, in: 1...65_535, portAllowed))
            },
            value("--osc-host", nil, "ADDRESS", [.run], .remote, "the address the OSC server listens on (default 127.0.0.1: this computer only)",
                  hostAllowed) { o, v, n throws(OptionError) in
                guard RemotePeer.address(v) != nil else { throw bad(n, v, hostAllowed) }
                o.oscHost = v
                o.oscHostGiven = true
            },
            value("--action", nil, "ACTION", [.learn], .remote, "learn a button or pedal for this action instead of the control keys",
                  "one of \(actions)", choices: ControlAction.allCases.map(\.rawValue)) { o, v, n throws(OptionError) in
                guard let action = ControlAction(rawValue: v) else { throw bad(n, v, "one of \(actions)") }
                o.learnAction = action
            },
        ]
    }()
}

extension Options {
    /// `--osc-host` alone would look like an open port that is not there.
    func checkRemote() throws(OptionError) {
        if oscHostGiven && oscPort == nil {
            throw OptionError("tactus: --osc-host needs --osc PORT: the OSC server is off without a port")
        }
    }
}
