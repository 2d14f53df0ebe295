/// `tactus --help` and `--version`.
public enum Help {
    public static let version = "0.1.0"

    public static let text = """
    Usage: tactus [run] [OPTIONS] [PORT...]       click on JACK, MIDI clock on JACK MIDI and ALSA
           tactus render OUT.wav --seconds N [OPTIONS]   render a click track offline
           tactus presets [check FILE...]          list presets, or validate preset files
           tactus ports                             list ALSA sequencer and JACK MIDI ports
           tactus learn                             map control keys, calibrate aftertouch

    Tempo and bar:
      -b, --bpm BPM              tempo, 1 to 999, two decimals at most (default 120,
                                 or the last tempo pressure control left)
      -m, --meter N/D            time signature; the tempo counts D-th notes (default 4/4)
      -a, --accents PATTERN      one symbol a beat: X accent, x normal, . silent (default X then x)
      -d, --subdivision KIND     none, eighths, triplets, sixteenths, swing (off from 300 BPM)
      -g, --gain DB              click gain in dB, -60 to 12 (default 0)
          --mute                 no clicks; the clock keeps running
          --sample-accent WAV, --sample-beat WAV, --sample-subdivision WAV
                                 your own click samples instead of the synthesised ones

    JACK:
      -n, --name NAME            JACK client name (default tactus)
      -s, --server NAME          JACK server name
      PORT...                    audio ports to connect the click to (e.g. system:playback_1)
          --connect-clock PORT   JACK MIDI port to send the clock to (repeatable)
          --connect-control PORT JACK MIDI port to read the controller from (repeatable)
          --connect-feedback PORT audio port for the pressure feedback sounds (repeatable)
          --start-stopped        wait for a start command instead of starting at once

    MIDI clock:
      -o, --clock-offset MS      send the clock MS later (negative: earlier) than the click
          --clock-while-stopped  send 0xF8 while stopped
          --no-song-position     no Song Position Pointer on stop and continue

    Pressure control (a key on your controller, pressed harder, changes the tempo):
          --pressure-mode MODE   levels (light ±1, strong ±10) or continuous (default levels)
          --control-channel CH   1 to 16, or omni (default omni)
          --up-key N, --down-key N, --preset-key N   note numbers (default 72, 71, 70)
          --feedback-midi        also send the feedback cues as MIDI notes on the clock
                                 ports: channel 16, 36 impact, 37 selection, 38 max, 39 commit

    Presets:
      -p, --preset NAME|FILE     start with this preset
          --setlist FILE         preset order for Program Change and next-preset
          --switch bar|now       a preset switch lands on the next bar line (default) or beat

    ALSA sequencer:
          --no-alsa              JACK only
          --alsa-clock-to C:P    subscribe this port to Tactus:clock (repeatable)
          --alsa-control-from C:P  subscribe Tactus:control to this port (repeatable)
          --alsa-lookahead MS    schedule clock events this far ahead (default 5)

    Display:
      -i, --interactive          live display and keys (default when output is a terminal)
          --no-interactive       log lines instead

    Render:
          --seconds N            length of the click track
      -r, --sample-rate HZ       default 48000
          --format 16|24|float   WAV sample format (default 16)
          --midi-log FILE        write every MIDI event with its absolute frame
          --block FRAMES         render block size (default 1024; the result does not depend on it)

      -h, --help                 this text
      -V, --version              the version
    Bad values exit with status 2 and one line naming the option and what is allowed.
    """
}
