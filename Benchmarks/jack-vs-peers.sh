#!/usr/bin/env bash
# Tactus against its peers on one private JACK server (jackd's dummy backend,
# 48 kHz, or a private headless PipeWire through pw-jack), side by side in one run:
#   click timing:  tactus:click  vs  klick
#   clock timing:  tactus:clock  vs  jack_midi_clock -b BPM -B (JACK transport rolling)
# One recorder (tactus-jack-probe record) takes all four streams with absolute
# frames for SECONDS after a 2 s warm-up and counts the server's xruns; Benchmarks/grid_analysis.py measures
# them against the ideal grid. Prints max error (frames, anchored at the first
# event and at the best phase), drift (ppm), CPU % of one core (the processes'
# threads' run time in /proc/PID/task/*/schedstat over the recording) and
# RssAnon (/proc/PID/status) for each program. TACTUS_BENCH_STATIC=BINARY runs that
# tactus too (the .deb's build, --static-swift-stdlib: scripts/package), click and
# clock unconnected, as `tactus_static` with its own figures. A second tactus with
# `--sync-out din24` (its two sync lines written every cycle, unconnected as the
# click and clock) runs beside them as `tactus_sync`: the sync outputs' CPU cost.
#
# Usage: Benchmarks/jack-vs-peers.sh [BPM] [SECONDS]     (defaults 133, 30)
# Environment:
#   TACTUS_BENCH_OUT=DIR        keep the recording, logs and run.json (all figures) there
#   TACTUS_BENCH_PERIOD=N       frames per period (default 256)
#   TACTUS_BENCH_SERVER=NAME    jackd (default) or pipewire (pipewire -c CONF, clients under pw-jack)
#   TACTUS_BENCH_NO_BUILD=1     use the release binaries as they are (scripts/bench builds once)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../scripts/lib/common.sh"
cd "$TACTUS_ROOT"
bpm=${1:-133}
seconds=${2:-30}
period=${TACTUS_BENCH_PERIOD:-256}
kind=${TACTUS_BENCH_SERVER:-jackd}
out=${TACTUS_BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tactus-bench.XXXXXX")}
mkdir -p "$out"
out=$(cd "$out" && pwd)   # absolute: pipewire -c resolves a relative path in its own config folders
rm -f "$out/ready" "$out/recording.txt" "$out/run.json"

find_swift
if [ -z "${TACTUS_BENCH_NO_BUILD:-}" ]; then
    ensure_packages "${BUILD_PACKAGES[@]}" klick jack-midi-clock python3
    say "building (release)"
    swift build -c release --product tactus >&2
    swift build -c release --product tactus-jack-probe >&2
fi
bin=$(swift build -c release --show-bin-path)

server="tactus-bench-$$"
pids=()
server_pid=""
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    [ -z "${runtime:-}" ] || rm -rf "$runtime"
}
trap cleanup EXIT

# client: how every JACK program is started on this server. It execs, so that
# `client PROGRAM &` leaves the program's own PID in $! (the /proc figures need it);
# run it in a subshell when it is not in the background.
case "$kind" in
jackd)
    jackd -n "$server" -d dummy -r 48000 -p "$period" >"$out/jackd.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 50); do jack_lsp -s "$server" >/dev/null 2>&1 && break; sleep 0.1; done
    export JACK_DEFAULT_SERVER="$server"
    server_args=(-s "$server")
    client() { exec "$@"; }
    ;;
pipewire)
    runtime=$(mktemp -d "${TMPDIR:-/tmp}/tactus-pw.XXXXXX")
    chmod 700 "$runtime"
    python3 -B "$here/pipewire_conf.py" --rate 48000 --quantum "$period" >"$out/pipewire.conf"
    XDG_RUNTIME_DIR="$runtime" pipewire -c "$out/pipewire.conf" >"$out/pipewire.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do [ -S "$runtime/pipewire-0" ] && break; sleep 0.1; done
    [ -S "$runtime/pipewire-0" ] || die "pipewire did not start: $(cat "$out/pipewire.log")"
    export XDG_RUNTIME_DIR="$runtime"
    server_args=()
    client() { exec pw-jack -p "$period" "$@"; }
    ;;
*) die "TACTUS_BENCH_SERVER is jackd or pipewire, not $kind" ;;
esac

# The recorder keeps the frames after a warm-up of $warmup s (clients starting,
# connecting, locking memory) and stops by itself $seconds s later; only what
# happens in that window counts, xruns included.
warmup=2
client "$bin/tactus-jack-probe" record ${server_args[@]+"${server_args[@]}"} --name rec --out "$out/recording.txt" --ready "$out/ready" \
    --audio-ports 2 --midi-ports 2 --skip "$warmup" --seconds "$(awk -v w="$warmup" -v s="$seconds" 'BEGIN { print w + s }')" \
    >"$out/recorder.log" 2>&1 &
recorder_pid=$!
pids+=("$recorder_pid")
for _ in $(seq 100); do [ -e "$out/ready" ] && break; sleep 0.1; done
[ -e "$out/ready" ] || die "the recorder did not start: $(cat "$out/recorder.log")"
ready=$(date +%s.%N)

# Transport rolls before the peers start, so jack_midi_clock clocks at once.
(client "$bin/tactus-jack-probe" transport start ${server_args[@]+"${server_args[@]}"})

client "$bin/tactus" run --no-alsa --no-interactive ${server_args[@]+"${server_args[@]}"} --bpm "$bpm" rec:audio_1 --connect-clock rec:midi_1 >"$out/tactus.log" 2>&1 &
tactus_pid=$!
pids+=("$tactus_pid")
client klick -n klick -p rec:audio_2 "$bpm" >"$out/klick.log" 2>&1 &
klick_pid=$!
pids+=("$klick_pid")
client jack_midi_clock -b "$bpm" -B rec:midi_2 >"$out/jack_midi_clock.log" 2>&1 &
jmc_pid=$!
pids+=("$jmc_pid")
measured=("$tactus_pid" "$klick_pid" "$jmc_pid")
client "$bin/tactus" run --no-alsa --no-interactive ${server_args[@]+"${server_args[@]}"} -n tactus-sync --bpm "$bpm" --sync-out din24 \
    >"$out/tactus_sync.log" 2>&1 &
sync_pid=$!
pids+=("$sync_pid")
measured+=("$sync_pid")
static_pid=""
if [ -n "${TACTUS_BENCH_STATIC:-}" ]; then
    client "$TACTUS_BENCH_STATIC" run --no-alsa --no-interactive ${server_args[@]+"${server_args[@]}"} -n tactus-static --bpm "$bpm" \
        >"$out/tactus_static.log" 2>&1 &
    static_pid=$!
    pids+=("$static_pid")
    measured+=("$static_pid")
fi

# CPU time of every thread (JACK runs the process callback on its own thread), in ns.
cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%d\n", s }'; }
# The same for the real-time threads only (scheduling policy SCHED_FIFO or SCHED_RR,
# field 41 of /proc/PID/task/TID/stat): the JACK process thread.
rt_cpu_ns() {
    local t s=0 policy
    for t in /proc/"$1"/task/*; do
        policy=$(sed 's/^.*) //' "$t/stat" 2>/dev/null | awk '{ print $39 }')
        if [ "$policy" = 1 ] || [ "$policy" = 2 ]; then s=$((s + $(cut -d' ' -f1 "$t/schedstat"))); fi
    done
    echo "$s"
}
rss_anon() { awk '/^RssAnon:/ {print $2}' "/proc/$1/status"; }

sleep "$(awk -v r="$ready" -v w="$warmup" -v now="$(date +%s.%N)" 'BEGIN { d = r + w - now; print (d > 0 ? d : 0) }')"
t0=$(date +%s.%N)
declare -A start_ns start_rt
for p in "${measured[@]}"; do start_ns[$p]=$(cpu_ns "$p"); start_rt[$p]=$(rt_cpu_ns "$p"); done
say "recording $seconds s at $bpm BPM ($kind, period $period)"
wait "$recorder_pid" || true
t1=$(date +%s.%N)
declare -A cpu rss rt
for p in "${measured[@]}"; do
    kill -0 "$p" 2>/dev/null || die "process $p ended during the recording; logs in $out"
    cpu[$p]=$(awk -v a="${start_ns[$p]}" -v b="$(cpu_ns "$p")" -v t0="$t0" -v t1="$t1" \
        'BEGIN { printf "%.3f", (b - a) / 1e9 / (t1 - t0) * 100 }')
    rt[$p]=$(awk -v a="${start_rt[$p]}" -v b="$(rt_cpu_ns "$p")" -v t0="$t0" -v t1="$t1" \
        'BEGIN { printf "%.3f", (b - a) / 1e9 / (t1 - t0) * 100 }')
    rss[$p]=$(rss_anon "$p")
done
kill -TERM "${measured[@]}"
wait "${measured[@]}" 2>/dev/null || true
pids=()
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
server_pid=""
[ -s "$out/recording.txt" ] || die "the recorder wrote nothing: $(cat "$out/recorder.log")"

python3 -B "$here/jack_vs_peers_report.py" "$out/recording.txt" "$bpm" --json "$out/run.json" --server "$kind" \
    "tactus=${cpu[$tactus_pid]},${rss[$tactus_pid]},${rt[$tactus_pid]}" \
    "klick=${cpu[$klick_pid]},${rss[$klick_pid]},${rt[$klick_pid]}" \
    "jack_midi_clock=${cpu[$jmc_pid]},${rss[$jmc_pid]},${rt[$jmc_pid]}" \
    "tactus_sync=${cpu[$sync_pid]},${rss[$sync_pid]},${rt[$sync_pid]}" \
    ${static_pid:+"tactus_static=${cpu[$static_pid]},${rss[$static_pid]},${rt[$static_pid]}"}
say "recording and logs in $out"
