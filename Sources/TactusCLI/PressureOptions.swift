import TactusCore

extension Options {
    /// The pressure controller's settings for the run: the preset's (or the
    /// defaults), then what `tactus learn` saved in controller.json, then the
    /// command line (`--pressure-mode`, `--channel`, `--up-key`, `--down-key`,
    /// `--preset-key`), each layer winning over the one before.
    public func pressureConfiguration(base: PressureConfiguration = PressureConfiguration(),
                                      controller: ControllerSettings? = nil) -> PressureConfiguration {
        var c = controller?.applied(to: base) ?? base
        if let pressureMode { c.mode = pressureMode }
        if let controlChannel { c.channel = controlChannel }
        if let upKey { c.upKey = upKey }
        if let downKey { c.downKey = downKey }
        if let presetKey { c.presetKey = presetKey }
        return c
    }
}
