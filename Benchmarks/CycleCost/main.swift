#if canImport(Glibc)
import Glibc
#endif
import TactusCore

/// tactus-bench: the cost of one JACK process cycle, for callgrind.
///
/// Sets up the engine as the run mode does (synthesised sounds, click and MIDI
/// clock, started), then runs `--cycles` cycles of `--frames` frames through
/// `measuredCycles`: per cycle what `ProcessCycle.run` does around the libjack
/// calls (publish the frame clock, `Engine.cycle` into the click and feedback
/// buffers, write each clock event at its frame offset into a MIDI buffer).
/// scripts/bench runs it under `valgrind --tool=callgrind --collect-atstart=no
/// --toggle-collect=tactus_bench_cycles`, so setup and teardown are not counted,
/// and divides the instructions by the cycles.
let usage = "usage: tactus-bench [--cycles N] [--frames N] [--bpm BPM] [--rate HZ]"

/// Everything one cycle touches, at one address (as the JACK callback's `void *`).
struct BenchContext: ~Copyable {
    var engine: Engine
    let control: UnsafeMutablePointer<EngineControl>
    let frameClock: UnsafeMutablePointer<FrameClockReference>
    var events = MIDIEventBuffer(capacity: 1024)
    let click: UnsafeMutablePointer<Float>
    let feedback: UnsafeMutablePointer<Float>
    /// The MIDI port buffer's stand-in: 4 bytes per event (offset, 3 data bytes).
    let midi: UnsafeMutablePointer<UInt8>
    var midiBytes = 0
}

/// The measured loop, under a plain symbol name so callgrind's --toggle-collect finds it.
@_silgen_name("tactus_bench_cycles")
@inline(never)
func measuredCycles(_ raw: UnsafeMutableRawPointer, _ cycles: Int, _ frames: Int) {
    let context = raw.assumingMemoryBound(to: BenchContext.self)
    let microsecondsPerFrame = 1_000_000 / Double(context.pointee.engine.sampleRate)
    var start: Int64 = 0
    for _ in 0..<cycles {
        context.pointee.frameClock.pointee.publish(frame: start, microseconds: Int64(Double(start) * microsecondsPerFrame),
                                                   microsecondsPerFrame: microsecondsPerFrame)
        var ownTime = GivenPosition()
        context.pointee.engine.cycle(CycleInput(start: start, frames: frames), source: &ownTime, control: context.pointee.control.pointee,
                                     click: context.pointee.click, feedback: context.pointee.feedback,
                                     events: &context.pointee.events)
        var written = 0
        for i in 0..<context.pointee.events.count {
            let event = context.pointee.events[i]
            let offset = min(max(0, event.frame - start), Int64(frames) - 1)
            let slot = context.pointee.midi + 4 * min(written, 255)
            slot[0] = UInt8(truncatingIfNeeded: offset)
            slot[1] = event.bytes.byte0
            slot[2] = event.bytes.byte1
            slot[3] = event.bytes.byte2
            written += 1
        }
        context.pointee.midiBytes += 4 * written
        start += Int64(frames)
    }
}

var cycles = 10_000
var frames = 256
var bpm = 120.0
var rate = 48_000
var arguments = CommandLine.arguments.dropFirst()
while let option = arguments.popFirst() {
    guard let text = arguments.popFirst() else { print(usage); exit(2) }
    switch option {
    case "--cycles": cycles = Int(text) ?? cycles
    case "--frames": frames = Int(text) ?? frames
    case "--bpm": bpm = Double(text) ?? bpm
    case "--rate": rate = Int(text) ?? rate
    default: print(usage); exit(2)
    }
}

let control = UnsafeMutablePointer<EngineControl>.allocate(capacity: 1)
control.initialize(to: EngineControl())
let frameClock = UnsafeMutablePointer<FrameClockReference>.allocate(capacity: 1)
frameClock.initialize(to: FrameClockReference())
let sounds = SoundSet.synthesized(sampleRate: rate)
let click = UnsafeMutablePointer<Float>.allocate(capacity: frames)
let feedback = UnsafeMutablePointer<Float>.allocate(capacity: frames)
let midi = UnsafeMutablePointer<UInt8>.allocate(capacity: 4 * 256)
let context = UnsafeMutablePointer<BenchContext>.allocate(capacity: 1)
context.initialize(to: BenchContext(engine: Engine(configuration: EngineConfiguration(sampleRate: rate, tempo: BPM(bpm)), sounds: sounds),
                                    control: control, frameClock: frameClock, click: click, feedback: feedback, midi: midi))
control.pointee.commands.push(.start)

measuredCycles(UnsafeMutableRawPointer(context), cycles, frames)

print("tactus-bench: \(cycles) cycles of \(frames) frames at \(BPM(bpm)) BPM, \(rate) Hz: \(context.pointee.midiBytes / 4) MIDI events")
