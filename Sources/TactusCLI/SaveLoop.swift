#if canImport(Glibc)
import Glibc
#endif
import TactusCore

/// The hook of the crash test (Tests/TactusCLITests/CrashSafeFilesTests): with
/// `TACTUS_SAVE_LOOP=last-tempo` or `TACTUS_SAVE_LOOP=controller` in its
/// environment, `tactus` saves that file again and again through the same code
/// the run mode and `tactus learn` use, at the same place (the XDG folders of its
/// environment), alternating two contents, and writes `saving` on standard output
/// once the first save is done. The test kills it at a random moment, 1 000 times,
/// and finds the old content or the new one each time. Not a command: not in the help.
enum SaveLoop {
    static let variable = "TACTUS_SAVE_LOOP"

    /// The two tempos the last-tempo loop alternates.
    static let tempos = [BPM(97.3), BPM(133)]
    /// The two key maps the controller loop alternates.
    static let controllers = [
        ControllerSettings(channel: nil, upKey: UInt7(72)!, downKey: UInt7(71)!, presetKey: UInt7(70)!),
        ControllerSettings(channel: MIDIChannel(number: 2)!, upKey: UInt7(60)!, downKey: UInt7(59)!, presetKey: UInt7(57)!,
                           calibration: .init(deadZone: 3, maximum: 110, curve: .exponential), hasAftertouch: false),
    ]

    /// Runs the loop when the variable asks for it (never returns then, unless a save
    /// fails: status 1); nil when it is not set.
    static func runIfRequested() -> Int32? {
        guard let which = ProcessEnvironment.value(variable) else { return nil }
        let environment = ProcessEnvironment.current
        let save: (Int) throws(OptionError) -> Void
        switch which {
        case "last-tempo":
            let store = LastTempoStore(environment: environment)
            save = { (i: Int) throws(OptionError) in try store.save(tempos[i % 2]) }
        case "controller":
            let path = UserFiles.controllerFile(environment)
            save = { (i: Int) throws(OptionError) in try ControllerFile.save(controllers[i % 2], path: path) }
        default:
            printError("tactus: \(variable) must be last-tempo or controller, not '\(which)'")
            return 2
        }
        var i = 0
        while true {
            do throws(OptionError) { try save(i) } catch {
                printError(error.message)
                return 1
            }
            if i == 0 {
                let line = "saving\n"
                _ = line.withCString { write(1, $0, strlen($0)) }
            }
            i += 1
        }
    }
}
