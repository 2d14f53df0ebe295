import TactusJACK

extension Options {
    /// One time source drives the grid (docs/DESIGN.md §9). `--link` together
    /// with a `--transport` mode other than `off` is a row of that table not
    /// built yet: refused at start, naming both options, rather than two
    /// sources fighting over the tempo.
    func checkTimeSources() throws(OptionError) {
        let linkGiven = link || linkQuantum != nil || linkStartStop
        if linkGiven && transport != .off {
            throw OptionError("tactus: --link and --transport \(transport.rawValue) cannot be used together yet: choose one time source (--transport off with --link)")
        }
    }
}
