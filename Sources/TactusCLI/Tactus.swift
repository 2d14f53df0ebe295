import TactusCore

/// The `tactus` command: parses the words and runs the subcommand.
public enum Tactus {
    /// Returns the exit status.
    public static func main(_ words: [String]) -> Int32 {
        if let status = SaveLoop.runIfRequested() { return status }
        if words.first == PortsGiven.option {
            print(PortsGiven.answer(Array(words.dropFirst())))
            return 0
        }
        // Hidden: what scripts/package installs, generated from the option table.
        if words == [ManPage.option] { print(ManPage.text, terminator: ""); return 0 }
        if words.first == BashCompletion.option {
            guard words.count == 2, BashCompletion.shells.contains(words[1]) else {
                printError("tactus: \(BashCompletion.option) takes one shell: \(BashCompletion.shells.joined(separator: ", "))")
                return OptionError.exitStatus
            }
            print(BashCompletion.script, terminator: "")
            return 0
        }
        var options: Options
        do {
            options = try OptionParser.parse(words)
        } catch {
            printError(error.message)
            return OptionError.exitStatus
        }
        if options.showHelp { print(options.commandGiven ? Help.text(for: options.command) : Help.text); return 0 }
        if options.showVersion { print(TactusVersion.lines.joined(separator: "\n")); return 0 }
        do throws(OptionError) {
            try options.checkPractice()
            try options.checkRemote()
            options.tempoMap = try MapFile.load(options)
        } catch {
            printError(error.message)
            return OptionError.exitStatus
        }
        var start: PresetStart?
        // The run mode always reads the preset list: Program Change, the deep press and `[` `]` walk it.
        if options.command == .run || (options.command == .render && (options.preset != nil || options.setlist != nil)) {
            do throws(PresetError) {
                start = try PresetStart(options: options, directories: PresetStart.directories)
                try start?.applySettings(to: &options)
            } catch {
                for line in error.messages { printError("tactus: " + line) }
                return OptionError.exitStatus
            }
        }
        do throws(OptionError) {
            // After the starting preset's and the controller's `"clockIn"`, which
            // `--connect-clock-in` may go with as it goes with `--clock-in`.
            if options.command == .run {
                options.applyControllerClockIn(path: UserFiles.controllerFile(ProcessEnvironment.current), preset: start?.preset?.preset)
            }
            try options.checkTimeSources()
            try options.resolveQuarterNoteTempo(meter: options.meter ?? start?.preset?.preset.bar.meter ?? .fourFour)
            // The speed trainer starts at its FROM tempo.
            if let trainer = options.trainer { options.tempo = trainer.from }
        } catch {
            printError(error.message)
            return OptionError.exitStatus
        }
        switch options.command {
        case .render:
            guard let start else { return RenderCommand.run(options) }
            do throws(OptionError) {
                let settings = try start.settings(options)
                return RenderCommand.run(options, tempo: settings.tempo, bar: settings.bar)
            } catch {
                printError(error.message)
                return OptionError.exitStatus
            }
        case .presets:
            return PresetsCommand.run(options)
        case .ports:
            return PortsCommand.run(options)
        case .run:
            guard let start else { return RunCommand.run(options) }
            do throws(OptionError) {
                let settings = try start.settings(options)
                return RunCommand.run(options, tempo: start.preset == nil ? nil : settings.tempo, bar: settings.bar, presets: start)
            } catch {
                printError(error.message)
                return OptionError.exitStatus
            }
        case .learn:
            return LearnCommand.run(options)
        case .clockMeter:
            return ClockMeterCommand.run(options)
        }
    }
}
