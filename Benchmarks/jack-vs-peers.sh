#!/usr/bin/env bash
# Tactus against its peers on one private JACK server (dummy backend, 48 kHz,
# period 256), side by side in one run:
#   click timing:  tactus:click  vs  klick
#   clock timing:  tactus:clock  vs  jack_midi_clock -b BPM -B (JACK transport rolling)
# One recorder (tactus-jack-probe record) takes all four streams with absolute
# frames; Benchmarks/grid_analysis.py measures them against the ideal grid.
# Prints max error (frames, anchored at the first event and at the best phase),
# drift (ppm), CPU % of one core and RssAnon for each program.
#
# Usage: Benchmarks/jack-vs-peers.sh [BPM] [SECONDS]     (defaults 133, 30)
# Environment: TACTUS_BENCH_OUT=DIR keeps the recording and logs there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib/common.sh"
cd "$TACTUS_ROOT"
bpm=${1:-133}
seconds=${2:-30}
out=${TACTUS_BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tactus-bench.XXXXXX")}
mkdir -p "$out"

find_swift
ensure_packages "${BUILD_PACKAGES[@]}" klick jack-midi-clock python3
say "building (release)"
swift build -c release --product tactus >&2
swift build -c release --product tactus-jack-probe >&2
bin=$(swift build -c release --show-bin-path)

server="tactus-bench-$$"
pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT

jackd -n "$server" -d dummy -r 48000 -p 256 >"$out/jackd.log" 2>&1 &
jackd_pid=$!
for _ in $(seq 50); do jack_lsp -s "$server" >/dev/null 2>&1 && break; sleep 0.1; done
export JACK_DEFAULT_SERVER="$server"

"$bin/tactus-jack-probe" record -s "$server" --name rec --out "$out/recording.txt" --ready "$out/ready" \
    --audio-ports 2 --midi-ports 2 >"$out/recorder.log" 2>&1 &
recorder_pid=$!
pids+=("$recorder_pid")
for _ in $(seq 100); do [ -e "$out/ready" ] && break; sleep 0.1; done

# Transport rolls before the peers start, so jack_midi_clock clocks at once.
"$bin/tactus-jack-probe" transport start -s "$server"

"$bin/tactus" run --no-alsa --no-interactive -s "$server" --bpm "$bpm" rec:audio_1 --connect-clock rec:midi_1 >"$out/tactus.log" 2>&1 &
tactus_pid=$!
pids+=("$tactus_pid")
klick -n klick -p rec:audio_2 "$bpm" >"$out/klick.log" 2>&1 &
klick_pid=$!
pids+=("$klick_pid")
jack_midi_clock -b "$bpm" -B rec:midi_2 >"$out/jack_midi_clock.log" 2>&1 &
jmc_pid=$!
pids+=("$jmc_pid")

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_anon() { awk '/^RssAnon:/ {print $2}' "/proc/$1/status"; }

sleep 2
t0=$(date +%s.%N)
declare -A start_ticks
for p in "$tactus_pid" "$klick_pid" "$jmc_pid"; do start_ticks[$p]=$(cpu_ticks "$p"); done
say "recording $seconds s at $bpm BPM"
sleep "$seconds"
t1=$(date +%s.%N)
declare -A cpu rss
hz=$(getconf CLK_TCK)
for p in "$tactus_pid" "$klick_pid" "$jmc_pid"; do
    cpu[$p]=$(awk -v a="${start_ticks[$p]}" -v b="$(cpu_ticks "$p")" -v t0="$t0" -v t1="$t1" -v hz="$hz" \
        'BEGIN { printf "%.2f", (b - a) / hz / (t1 - t0) * 100 }')
    rss[$p]=$(rss_anon "$p")
done
kill -TERM "$tactus_pid" "$klick_pid" "$jmc_pid"
wait "$tactus_pid" "$klick_pid" "$jmc_pid" 2>/dev/null || true
sleep 0.3
kill -TERM "$recorder_pid"
wait "$recorder_pid" || true
kill "$jackd_pid"; wait "$jackd_pid" 2>/dev/null || true
pids=()

python3 "$here/jack_vs_peers_report.py" "$out/recording.txt" "$bpm" \
    "tactus=${cpu[$tactus_pid]},${rss[$tactus_pid]}" \
    "klick=${cpu[$klick_pid]},${rss[$klick_pid]}" \
    "jack_midi_clock=${cpu[$jmc_pid]},${rss[$jmc_pid]}"
say "recording and logs in $out"
