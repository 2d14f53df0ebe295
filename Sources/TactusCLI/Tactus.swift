import TactusCore

/// The `tactus` command: parses the words and runs the subcommand.
public enum Tactus {
    /// Returns the exit status.
    public static func main(_ words: [String]) -> Int32 {
        let options: Options
        do {
            options = try OptionParser.parse(words)
        } catch {
            printError(error.message)
            return OptionError.exitStatus
        }
        if options.showHelp { print(Help.text); return 0 }
        if options.showVersion { print("tactus \(Help.version)"); return 0 }
        switch options.command {
        case .render:
            return RenderCommand.run(options)
        case .ports:
            return PortsCommand.run(options)
        case .run, .presets, .learn:
            printError("tactus: '\(options.command.rawValue)' is not available in this build yet")
            return 1
        }
    }
}
