#!/usr/bin/env bash
# Churn: Tactus played with for SECONDS on a private jackd (dummy backend, 48 kHz,
# period 256), its memory, descriptors and threads read every 5 s.
#
# `tactus run -i` runs in a private tmux (the live display, keys typed into it)
# with two user presets whose accent samples differ (each switch reads a WAV
# on the sample thread). Every minute a new `tactus-jack-probe send` client
# connects to tactus:control and plays, from its first cycle: a pressure hold
# every 10 s (up and down keys in turn, light then strong, let go after 1.5 s),
# a Program Change every 30 s (the presets in turn); then it closes (a client
# and a connection gone). Every 10 s a tempo key is typed (→ ← ↑ ↓ in turn),
# every 30 s three taps; every 15 s tactus:click is connected to or
# disconnected from system:playback_1. The server is stopped and started again
# at the middle minute, the fourth at the earliest (after the baseline; Tactus
# waits and comes back on its own), or at the minutes TACTUS_CHURN_RESTARTS names.
#
# A recorder (`tactus-jack-probe record`) takes tactus:clock on each server
# (rec-N.txt, N the restarts before it; rec-N.start and .stop the seconds its take
# began and was stopped at),
# and a twin jackd with only a recorder on it runs beside the whole time: the
# xruns the machine makes without Tactus. Every second the servers' logs are
# read for new xruns (xruns.txt: `SECONDS main|tactus|driver|twin TOTAL`, tactus:
# those the server blames on tactus while its callback ran, driver: its dummy
# driver's own late wake-ups).
#
# tactus runs with Tests/RTProbe's interposer (libRTProbe.so beside the
# binaries), which keeps its live heap (bytes and blocks allocated, not freed)
# in heap.bin; it reports at exit what its callback allocated or locked
# (rtprobe.txt).
#
# Writes samples.txt (`SECONDS RSS_ANON_KB THREADS FDS CONTROL_THREAD_TICKS
# HEAP_BYTES HEAP_BLOCKS`), fds.txt (`SECONDS TARGET…`: what each descriptor
# is, so that a changed count names it), jackd logs and tactus's screen, then
# Benchmarks/churn_report.py's verdict: the live heap at the end (3 s after the
# last input, no controller client open) within 4 kB and 16 blocks of the
# sample at 178 s (or TACTUS_CHURN_BASELINE; the same state; churn_report.py
# says why not the first minute and why that bound), RssAnon within 64 kB of it
# (or TACTUS_CHURN_RSS_BOUND_KB), the same descriptors and threads, the clock on its grid in
# every minute without an xrun, the xruns naming tactus when neither the twin nor
# the server's own driver was late at the same time (those Tactus caused); churn.json beside them.
# Exit status 1 when something grew or the clock left its grid, 2 when the run itself failed.
#
# Usage: Benchmarks/churn.sh [SECONDS]          (default 3600; whole minutes, at least 300)
# Env:   TACTUS_BENCH_OUT=DIR      keep everything there (default: a temporary folder)
#        TACTUS_CHURN_RESTARTS="M …"  restart the server at these minutes instead
#                                  (SECONDS then whole minutes, at least a minute
#                                  past the baseline)
#        TACTUS_CHURN_BASELINE=S   the baseline second (default 178; 2 s before a
#                                  minute's end)
#        TACTUS_CHURN_RSS_BOUND_KB=K  RssAnon's bound (default 64)
#        TACTUS_CHURN_BIN=DIR      the tactus and tactus-jack-probe to run (default:
#                                  the release build, built unless TACTUS_BENCH_NO_BUILD=1)
#        TACTUS_CHURN_ROUND=S      the length of one round, the "minute" above (default 60;
#                                  at least 10, a multiple of 5): the controller holds every 10 s
#                                  of it, switches presets at its 5th second and 5 s after its
#                                  half, at most 6 s before its end; SECONDS, the restarts and
#                                  the baseline count in rounds.
#                                  The suite's churn smoke runs 15 s rounds (the clock's
#                                  per-minute verdict is then not about rounds: it asserts none)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib/common.sh"
cd "$TACTUS_ROOT"
fail() { say "$*"; exit 2; }
seconds=${1:-3600}
baseline=${TACTUS_CHURN_BASELINE:-178}
rss_bound=${TACTUS_CHURN_RSS_BOUND_KB:-64}
restart_minutes=${TACTUS_CHURN_RESTARTS:-}
round=${TACTUS_CHURN_ROUND:-60}
[[ "$round" =~ ^[0-9]+$ ]] && [ "$round" -ge 10 ] && [ $((round % 5)) -eq 0 ] \
    || fail "Benchmarks/churn.sh: TACTUS_CHURN_ROUND must be whole seconds, at least 10, a multiple of 5, not $round"
[[ "$baseline" =~ ^[0-9]+$ ]] && [ $((baseline % round)) -eq $((round - 2)) ] \
    || fail "Benchmarks/churn.sh: TACTUS_CHURN_BASELINE must be 2 s before a round's end ($((round - 2)), $((2 * round - 2)) …), not $baseline"
[[ "$rss_bound" =~ ^[0-9]+$ ]] || fail "Benchmarks/churn.sh: TACTUS_CHURN_RSS_BOUND_KB must be whole kB, not $rss_bound"
# Whole minutes: the last minute's controller has switched back to the first preset,
# so the end is read with the preset the baseline was.
if [ -z "$restart_minutes" ]; then
    [ "$round" -eq 60 ] || fail "Benchmarks/churn.sh: TACTUS_CHURN_ROUND needs TACTUS_CHURN_RESTARTS"
    [[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -ge 300 ] && [ $((seconds % 60)) -eq 0 ] \
        || fail "Benchmarks/churn.sh: SECONDS must be whole minutes, at least 300 (the third minute's end is the baseline), not $seconds"
else
    [[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -ge $((baseline + round + 2)) ] && [ $((seconds % round)) -eq 0 ] \
        || fail "Benchmarks/churn.sh: SECONDS must be whole rounds ($round s) ending at least a round after the baseline ($baseline s), not $seconds"
    for m in $restart_minutes; do
        [[ "$m" =~ ^[0-9]+$ ]] && [ "$m" -ge 1 ] && [ $((m * round)) -lt "$seconds" ] \
            || fail "Benchmarks/churn.sh: TACTUS_CHURN_RESTARTS: $m is not a round of the run (1 to $((seconds / round - 1)))"
    done
fi
out=${TACTUS_BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tactus-churn.XXXXXX")}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/samples.txt "$out"/heap.bin "$out"/rtprobe.txt "$out"/churn.json "$out"/jackd-*.log "$out"/sender-*.log "$out"/rec-* "$out"/xruns.txt

if [ -n "${TACTUS_CHURN_BIN:-}" ]; then
    bin=$TACTUS_CHURN_BIN
else
    find_swift
    if [ -z "${TACTUS_BENCH_NO_BUILD:-}" ]; then
        ensure_packages "${BUILD_PACKAGES[@]}" python3 tmux
        swift build -c release --product tactus >&2
        swift build -c release --product tactus-jack-probe >&2
        swift build -c release --product RTProbe >&2
    fi
    bin=$(swift build -c release --show-bin-path)
fi
command -v tmux >/dev/null || fail "Benchmarks/churn.sh needs tmux (Debian package tmux)"
[ -e "$bin/libRTProbe.so" ] || fail "Benchmarks/churn.sh needs $bin/libRTProbe.so (swift build --product RTProbe)"

server="tactus-churn-$$"
twin="tactus-churn-twin-$$"
socket="tactus-churn-$$"
jackd_pid=""
sender_pid=""
recorder_pid=""
twin_pid=""
twin_recorder_pid=""
cleanup() {
    tmux -L "$socket" kill-server 2>/dev/null || true
    local p
    for p in "$sender_pid" "$recorder_pid" "$twin_recorder_pid" "$jackd_pid" "$twin_pid"; do
        if [ -n "$p" ]; then kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; fi
    done
}
trap cleanup EXIT

restarts=0
start_jackd() {
    jackd -n "$server" -d dummy -r 48000 -p 256 >"$out/jackd-$restarts.log" 2>&1 &
    jackd_pid=$!
    for _ in $(seq 100); do jack_lsp -s "$server" >/dev/null 2>&1 && return 0; sleep 0.1; done
    fail "jackd $server did not start: $(cat "$out/jackd-$restarts.log")"
}
start_twin() {
    jackd -n "$twin" -d dummy -r 48000 -p 256 >"$out/jackd-twin.log" 2>&1 &
    twin_pid=$!
    for _ in $(seq 100); do jack_lsp -s "$twin" >/dev/null 2>&1 && break; sleep 0.1; done
    "$bin/tactus-jack-probe" record -s "$twin" --name rec --out "$out/twin.txt" --audio-ports 0 --midi-ports 1 \
        >"$out/twin-recorder.log" 2>&1 &
    twin_recorder_pid=$!
}
# The recorder of this server's take of tactus:clock (tactus's port there already).
start_recorder() {
    for _ in $(seq 150); do jack_lsp -s "$server" 2>/dev/null | grep -q '^tactus:clock$' && break; sleep 0.1; done
    "$bin/tactus-jack-probe" record -s "$server" --name rec --out "$out/rec-$restarts.txt" --ready "$out/rec-$restarts.ready" \
        --audio-ports 0 --midi-ports 1 --connect midi_1=tactus:clock >"$out/rec-$restarts.log" 2>&1 &
    recorder_pid=$!
    for _ in $(seq 100); do [ -e "$out/rec-$restarts.ready" ] && break; sleep 0.05; done
    [ -e "$out/rec-$restarts.ready" ] || fail "the recorder on $server did not start: $(cat "$out/rec-$restarts.log")"
    python3 -c "import time; print(time.time() - $started_precise)" >"$out/rec-$restarts.start"
}
stop_recorder() {
    [ -n "$recorder_pid" ] || return 0
    python3 -c "import time; print(time.time() - $started_precise)" >"$out/rec-$restarts.stop"
    kill -TERM "$recorder_pid" 2>/dev/null || true; wait "$recorder_pid" 2>/dev/null || true; recorder_pid=""
}
# New xruns in each server's log since the last look: a line `SECONDS SERVER TOTAL` for each.
main_xruns=0 tactus_xruns=0 driver_xruns=0 twin_xruns=0
: >"$out/xruns.txt"
count_xruns() {
    local n now
    now=$((($(date +%s%N) - started_ns) / 100000000))
    now=$((now / 10)).$((now % 10))
    n=$(cat "$out"/jackd-[0-9]*.log 2>/dev/null | grep -c 'XRun: client' || true)
    if ((n != main_xruns)); then main_xruns=$n; echo "$now main $n" >>"$out/xruns.txt"; fi
    n=$(cat "$out"/jackd-[0-9]*.log 2>/dev/null | grep -cE 'XRun: client = tactus was not finished, state = Running|XRun: client tactus finished after' || true)
    if ((n != tactus_xruns)); then tactus_xruns=$n; echo "$now tactus $n" >>"$out/xruns.txt"; fi
    n=$(cat "$out"/jackd-[0-9]*.log 2>/dev/null | grep -c 'JackTimedDriver::Process XRun' || true)
    if ((n != driver_xruns)); then driver_xruns=$n; echo "$now driver $n" >>"$out/xruns.txt"; fi
    n=$(grep -c 'XRun: client' "$out/jackd-twin.log" 2>/dev/null || true)
    if ((n != twin_xruns)); then twin_xruns=$n; echo "$now twin $n" >>"$out/xruns.txt"; fi
}

# Private XDG folders: two presets, each with its own accent sample (0.5 s of a
# decaying tone, 48 kHz), no saved tempo, no learned controller.
export XDG_CONFIG_HOME="$out/xdg/config" XDG_STATE_HOME="$out/xdg/state"
presets="$XDG_CONFIG_HOME/tactus/presets"
mkdir -p "$presets" "$XDG_STATE_HOME"
python3 -B - "$presets" <<'EOF'
import math, struct, sys, wave
folder = sys.argv[1]
for name, program, tempo, pitch in (("Churn A", 0, 120, 1200), ("Churn B", 1, 133, 1800)):
    stem = name.split()[1].lower()
    with wave.open(f"{folder}/{stem}.wav", "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(48000)
        w.writeframes(b"".join(struct.pack("<h", int(20000 * math.exp(-i / 2400) * math.sin(2 * math.pi * pitch * i / 48000)))
                               for i in range(24000)))
    with open(f"{folder}/{stem}.json", "w") as f:
        f.write(f'{{ "format": 1, "name": "{name}", "tempo": {tempo}, "program": {program}, '
                f'"sounds": {{ "accent": {{ "sample": "{stem}.wav" }} }} }}\n')
EOF

# One round of the controller, from the sender's first cycle: holds at 1, 11, … 51 s,
# Program Change at 5 and 35 s (a 60 s round; a 15 s round: a hold at 1 s, Program
# Change at 5 and 9 s: the client has closed 2 s before the round ends, with a restart).
python3 -B - "$out/minute.txt" "$round" <<'EOF'
import sys
round_seconds = int(sys.argv[2])
lines = []
for k in range(round_seconds // 10):
    t, key = 1 + 10 * k, 72 if k % 2 == 0 else 71
    lines += [f"{t:.3f} 90 {key:x} 64", f"{t + 0.05:.3f} d0 3c", f"{t + 0.8:.3f} d0 78",
              f"{t + 1.5:.3f} d0 0", f"{t + 1.5:.3f} 80 {key:x} 0"]
lines += ["5.000 c0 01", f"{min(round_seconds // 2 + 5, round_seconds - 6)}.000 c0 00"]
with open(sys.argv[1], "w") as f:
    f.write("\n".join(sorted(lines, key=lambda l: float(l.split()[0]))) + "\n")
EOF

start_twin
start_jackd
tmux -L "$socket" -f /dev/null new-session -d -s tactus -x 100 -y 30 \
    "exec env JACK_DEFAULT_SERVER=$server LD_PRELOAD='$bin/libRTProbe.so' TACTUS_RTPROBE_HEAP='$out/heap.bin' TACTUS_RTPROBE_REPORT='$out/rtprobe.txt' '$bin/tactus' run -i -s '$server' --preset 'Churn A' 2>'$out/tactus.stderr'"
pid=$(tmux -L "$socket" display -p -t tactus '#{pane_pid}')
for _ in $(seq 100); do jack_lsp -s "$server" 2>/dev/null | grep -q '^tactus:control$' && break; sleep 0.1; done
jack_lsp -s "$server" 2>/dev/null | grep -q '^tactus:control$' || { tmux -L "$socket" capture-pane -p -t tactus; fail "tactus did not start: $(cat "$out/tactus.stderr")"; }

# The live heap, bytes and blocks: the least of ten reads 20 ms apart (what the
# display or the control thread holds for a moment comes and goes; what stays, stays).
heap() {
    python3 -B - "$out/heap.bin" <<'EOF'
import struct, sys, time
reads = []
for _ in range(10):
    with open(sys.argv[1], "rb") as f:
        reads.append(struct.unpack("<qq", f.read(16)))
    time.sleep(0.02)
print(min(r[0] for r in reads), min(r[1] for r in reads))
EOF
}
sample() { # SECONDS: one line of samples.txt
    [ -d "/proc/$pid" ] || return 0
    local rss threads fds ticks live
    rss=$(awk '/^RssAnon:/ { print $2 }' "/proc/$pid/status")
    threads=$(awk '/^Threads:/ { print $2 }' "/proc/$pid/status")
    fds=$(find "/proc/$pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
    # utime + stime of the main thread, the control thread (clock ticks, `getconf CLK_TCK`).
    ticks=$(sed 's/.*) //' "/proc/$pid/task/$pid/stat" | awk '{ print $12 + $13 }')
    live=$(heap 2>/dev/null || true)
    echo "$1 $rss $threads $fds $ticks${live:+ $live}" >>"$out/samples.txt"
    # What each descriptor is (inode numbers cut: `socket:[]`), so that a count
    # that changed names what came or went (churn_report.py).
    echo "$1 $(for f in "/proc/$pid/fd/"*; do readlink "$f"; done 2>/dev/null \
        | sed 's/:\[[0-9]*\]$/:[]/' | tr ' ' '_' | sort | tr '\n' ' ')" >>"$out/fds.txt"
}

keys=(Right Left Up Down)
minutes=$(((seconds + round - 1) / round))
[ -n "$restart_minutes" ] || restart_minutes=$((minutes / 2 > 4 ? minutes / 2 : 4))
started_precise=$(date +%s.%N)
started=${started_precise%.*}
started_ns=${started_precise/./}
start_recorder
minute=0
connected=0
# The next time (seconds from the start) each thing is due: a slow step (the
# taps take 1.5 s, a restart a few) delays what falls in it, skips nothing. The
# taps fall between the minute's holds (at 1, 11, … 51 s) and the keys (3, 13, …):
# two tempo changes on consecutive clock ticks would leave a tempo that held one
# interval, which the clock's grid check cannot tell from a late tick.
next_key=3 next_taps=25 next_connection=7 next_sample=3
say "churn: $seconds s on jackd $server, tactus PID $pid (restart at minute $restart_minutes, baseline at $baseline s)"
while :; do
    now=$(($(date +%s) - started))
    ((now >= seconds)) && break
    # Every 5 s from 3 s: 178 s, the baseline, is one (the third minute's controller
    # has closed, the next is not open yet: the state the end is read in), so is any
    # 60 k - 2. Before the minute's start below: a sample the loop came late to is
    # still read before the next controller opens (and before a restart).
    if ((now >= next_sample)); then
        sample "$now"
        next_sample=$((next_sample + 5))
    fi
    if ((now >= minute * round)); then
        if [ -n "$sender_pid" ]; then wait "$sender_pid" 2>/dev/null || true; sender_pid=""; fi
        if [[ " $restart_minutes " == *" $minute "* ]] && ((minute > 0)); then
            say "minute $minute: restarting jackd"
            stop_recorder
            count_xruns
            kill -TERM "$jackd_pid"; wait "$jackd_pid" 2>/dev/null || true
            restarts=$((restarts + 1))
            start_jackd
            for _ in $(seq 150); do jack_lsp -s "$server" 2>/dev/null | grep -q '^tactus:control$' && break; sleep 0.1; done
            start_recorder
            connected=0
        fi
        "$bin/tactus-jack-probe" send -s "$server" --name "presser$minute" --to tactus:control --script "$out/minute.txt" \
            >"$out/sender-$minute.log" 2>&1 &
        sender_pid=$!
        minute=$((minute + 1))
    fi
    if ((now >= next_key)); then
        tmux -L "$socket" send-keys -t tactus "${keys[$(((next_key / 10) % 4))]}"
        next_key=$((next_key + 10))
    fi
    if ((now >= next_taps)); then
        for _ in 1 2 3; do tmux -L "$socket" send-keys -t tactus t; sleep 0.5; done
        next_taps=$((next_taps + 30))
    fi
    if ((now >= next_connection)); then
        if ((connected)); then jack_disconnect -s "$server" tactus:click system:playback_1 >/dev/null 2>&1 || true; connected=0
        else jack_connect -s "$server" tactus:click system:playback_1 >/dev/null 2>&1 || true; connected=1; fi
        next_connection=$((next_connection + 15))
    fi
    count_xruns
    # To the next whole second since the start.
    sleep "$(python3 -c "import time; print(max(0.05, 1 - (time.time() - $started) % 1))")"
done
# The end: the last sender gone, 3 s without input (no hold, no switch, no sample read running).
if [ -n "$sender_pid" ]; then kill "$sender_pid" 2>/dev/null || true; wait "$sender_pid" 2>/dev/null || true; sender_pid=""; fi
sleep 3
sample "$(($(date +%s) - started))"
count_xruns
stop_recorder
tmux -L "$socket" capture-pane -p -t tactus >"$out/screen.txt" 2>/dev/null || true
tmux -L "$socket" send-keys -t tactus q
for _ in $(seq 50); do [ -d "/proc/$pid" ] || break; sleep 0.1; done
kill -TERM "$jackd_pid"; wait "$jackd_pid" 2>/dev/null || true
jackd_pid=""
kill -TERM "$twin_recorder_pid" 2>/dev/null || true; wait "$twin_recorder_pid" 2>/dev/null || true; twin_recorder_pid=""
kill -TERM "$twin_pid"; wait "$twin_pid" 2>/dev/null || true
twin_pid=""

cat "$out"/jackd-[0-9]*.log >"$out/jackd.log"
python3 -B "$here/churn_report.py" "$out" --seconds "$seconds" --restarts "$restarts" --clock-ticks "$(getconf CLK_TCK)" \
    --baseline "$baseline" --rss-bound "$rss_bound"
