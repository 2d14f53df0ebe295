#!/usr/bin/env bash
# Pressure-to-tempo latency on a private jackd (dummy backend, 48 kHz, period 256):
# `tactus-jack-probe send` plays PRESSES presses (Benchmarks/pressure_latency.py
# scenario) into tactus:control; the recorder takes tactus:clock and the
# sender's own output, so each press carries the frame it entered the control
# port; Benchmarks/pressure_latency.py measures press → first clock tick at the
# new tempo. `tactus run` starts at 100 BPM with private XDG folders (no learned
# controller, no saved tempo).
#
# Prints one JSON line; exit status 3 when no press changed the tempo.
# Usage: Benchmarks/pressure-latency.sh [PRESSES]     (default 100)
# Environment: TACTUS_BENCH_OUT=DIR keeps the recording and logs (and pressure.json) there;
#              TACTUS_BENCH_NO_BUILD=1 uses the release binaries as they are.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib/common.sh"
cd "$TACTUS_ROOT"
presses=${1:-100}
out=${TACTUS_BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tactus-pressure.XXXXXX")}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/ready" "$out/recording.txt" "$out/pressure.json"

find_swift
if [ -z "${TACTUS_BENCH_NO_BUILD:-}" ]; then
    ensure_packages "${BUILD_PACKAGES[@]}" python3
    swift build -c release --product tactus >&2
    swift build -c release --product tactus-jack-probe >&2
fi
bin=$(swift build -c release --show-bin-path)

server="tactus-pressure-$$"
pids=()
jackd_pid=""
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    if [ -n "$jackd_pid" ]; then kill "$jackd_pid" 2>/dev/null || true; wait "$jackd_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

python3 -B "$here/pressure_latency.py" scenario "$out/presses.txt" "$presses"
mkdir -p "$out/xdg/config" "$out/xdg/state"
export XDG_CONFIG_HOME="$out/xdg/config" XDG_STATE_HOME="$out/xdg/state"

jackd -n "$server" -d dummy -r 48000 -p 256 >"$out/jackd.log" 2>&1 &
jackd_pid=$!
for _ in $(seq 50); do jack_lsp -s "$server" >/dev/null 2>&1 && break; sleep 0.1; done
export JACK_DEFAULT_SERVER="$server"

"$bin/tactus-jack-probe" record -s "$server" --name rec --out "$out/recording.txt" --ready "$out/ready" \
    --audio-ports 1 --midi-ports 2 >"$out/recorder.log" 2>&1 &
recorder_pid=$!
pids+=("$recorder_pid")
for _ in $(seq 100); do [ -e "$out/ready" ] && break; sleep 0.1; done
[ -e "$out/ready" ] || die "the recorder did not start: $(cat "$out/recorder.log")"

"$bin/tactus" run --no-alsa --no-interactive -s "$server" --bpm 100 rec:audio_1 --connect-clock rec:midi_1 >"$out/tactus.log" 2>&1 &
tactus_pid=$!
pids+=("$tactus_pid")
for _ in $(seq 100); do jack_lsp -s "$server" 2>/dev/null | grep -q '^tactus:control$' && break; sleep 0.1; done

# The first press is 1 s after the sender's first cycle: time to connect its output to the recorder.
"$bin/tactus-jack-probe" send -s "$server" --name presser --to tactus:control --script "$out/presses.txt" \
    --report "$out/sender.txt" >"$out/sender.log" 2>&1 &
sender_pid=$!
pids+=("$sender_pid")
for _ in $(seq 50); do jack_connect -s "$server" presser:out rec:midi_2 >/dev/null 2>&1 && break; sleep 0.02; done
say "sending $presses presses to tactus:control"
wait "$sender_pid" || true
sleep 0.6
kill -TERM "$recorder_pid"; wait "$recorder_pid" || true
kill -TERM "$tactus_pid"; wait "$tactus_pid" 2>/dev/null || true
pids=()

python3 -B "$here/pressure_latency.py" analyse "$out/recording.txt" --json "$out/pressure.json"
python3 -B -c 'import json, sys; sys.exit(0 if json.load(open(sys.argv[1]))["measured"] else 3)' "$out/pressure.json"
