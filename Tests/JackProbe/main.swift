#if canImport(Glibc)
import Glibc
#endif

/// tactus-jack-probe: the JACK test companion of Tactus (recorder, MIDI sender,
/// metronome harness, interposer check, transport switch). Used by the JACK
/// test suite and the benchmark script; not installed for musicians.
let usage = """
usage: tactus-jack-probe MODE [options]
  record   --out FILE [--name N] [-s SERVER] [--audio-ports N] [--midi-ports N]
           [--connect in_port=other_port]... [--seconds S] [--skip S] [--ready FILE]
           [--registered FILE] [--activate-after S]   (ports registered S seconds before activation)
           [--transport]   (every cycle's jack_transport_query: `B frame state transport_frame valid bar beat
           tick tick_double bpm beats_per_bar beat_type bbt_offset`)
           Writes every audio onset (first nonzero sample after silence) and every
           MIDI event with its absolute frame: `A port frame value`, `M port frame hex..`;
           --skip S keeps nothing (events, holes, xruns) from the first S seconds;
           `H from to` for cycles the recorder itself was not run for
           [--levels P,P..]   every change of those audio ports' samples too: `L port frame value`
           [--latency PORT=FRAMES]...   (PORT, e.g. audio_1, reports that playback latency)
           [--latency-at SECONDS:PORT=FRAMES]...   (changed and announced after SECONDS: `LC frame port frames`)
  send     [--to PORT] [--name N] [-s SERVER] [--rate EVENTS_PER_SECOND] [--seconds S]
           [--script FILE] [--report FILE]   (no --to: plays once another client connects its out)
  metronome  [tactus JACK options] [--tempo-sweep MS:BPM,BPM..] [--tempo-at SEC:BPM]...
           [--sync-out KIND [--sync-reset bar]] [--connect-sync PORT] [--connect-sync-run PORT]
           [--transport-at SEC:start|stop|continue|locate=BAR]... [--clock-stream] [--events FILE] [--align]
           [--pressure] [--first-time]   (ramp, preset switch, locate, meter change from 1 s)
  allocate [--name N] [-s SERVER] [--seconds S]   (a process callback that mallocs and locks)
  transport start|stop|locate FRAME [-s SERVER]
  transport master [-s SERVER] [--segments START_BEAT:BPM:BEATS_PER_BAR,..] [--seconds S] [--no-roll] [--bar-start-tick]
           (timebase master: BBT from the transport frame, rolling from frame 0)
  cycles   --out FILE [-s SERVER] [--seconds S]   (jack_get_cycle_times of every cycle)
  link-walker [--seconds S] [--every MS] [--tempi BPM,BPM..]   (a Link peer, no JACK: commits
           the next tempo every MS ms, from its application thread; run it in a private netns)
  link-listener --out FILE [--seconds S] [--every MS] [--quantum Q] [--start-stop]   (a Link peer,
           no JACK, that changes nothing: the session read every MS ms, `P host_us tempo beat phase
           playing playing_since_us peers`; run it in a private netns)
  stall    --to PORT [-s SERVER] [--every SECONDS] [--milliseconds MS] [--count N]
           (xruns on purpose; prints `stall MONOTONIC_US DURATION_US` after each)
"""

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail(usage) }
var rest = Arguments(arguments.dropFirst(2))
switch arguments[1] {
case "record": exit(Recorder.main(&rest))
case "send": exit(Sender.main(&rest))
case "metronome": exit(MetronomeHarness.main(&rest))
case "allocate": exit(Allocator.main(&rest))
case "transport": exit(Transport.main(&rest))
case "stall": exit(Staller.main(&rest))
case "link-walker": exit(LinkWalker.main(&rest))
case "link-listener": exit(LinkListener.main(&rest))
case "cycles": exit(CycleTimes.main(&rest))
default: fail(usage)
}
