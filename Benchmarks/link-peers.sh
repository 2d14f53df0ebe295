#!/usr/bin/env bash
# Two Tactus Link peers on one private jackd (dummy backend, 48 kHz, period 256),
# everything inside a private network namespace with only a loopback interface
# (scripts/lib/netns: Link multicasts on every interface it finds). A starts,
# B joins 1.3 s later; the recorder keeps both clicks for SECONDS after B's
# Start: the phase difference of B's clicks from A's (mean, max). Then the CPU
# of one `tactus run` (utime + stime over the run, % of one core) with --link
# (peer A, during the same SECONDS) and without (alone on the server, SECONDS).
#
# Prints one JSON line. Usage: Benchmarks/link-peers.sh [SECONDS]   (default 60)
# Environment: TACTUS_BENCH_OUT=DIR keeps the recording and logs (and link.json) there;
#              TACTUS_BENCH_NO_BUILD=1 uses the release binaries as they are.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${TACTUS_IN_NETNS:-}" ]; then
    [ "$(id -u)" = 0 ] || { echo "link-peers.sh: needs root for a private network namespace (unshare --net); not measured" >&2; exit 3; }
    TACTUS_IN_NETNS=1 exec "$here/../scripts/lib/netns" run "$0" "$@"
fi
. "$here/../scripts/lib/common.sh"
cd "$TACTUS_ROOT"
seconds=${1:-60}
out=${TACTUS_BENCH_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/tactus-link.XXXXXX")}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/rec.ready" "$out/recording.txt" "$out/link.json"

find_swift
if [ -z "${TACTUS_BENCH_NO_BUILD:-}" ]; then
    swift build -c release --product tactus >&2
    swift build -c release --product tactus-jack-probe >&2
fi
bin=$(swift build -c release --show-bin-path)

server="tactus-link-$$"
pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}
trap cleanup EXIT
# CPU seconds (utime + stime) of PID so far.
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"; }
peer() { # NAME PORT EXTRA...
    local name=$1 port=$2; shift 2
    "$bin/tactus" run --no-alsa --no-interactive -s "$server" -n "$name" --bpm 120 "rec:audio_$port" "$@" >"$out/$name.log" 2>&1 &
    pids+=($!)
}

jackd -n "$server" -S -d dummy -r 48000 -p 256 >"$out/jackd.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do jack_lsp -s "$server" >/dev/null 2>&1 && break; sleep 0.1; done
"$bin/tactus-jack-probe" record -s "$server" --name rec --out "$out/recording.txt" --ready "$out/rec.ready" \
    --audio-ports 2 --midi-ports 1 >"$out/rec.log" 2>&1 &
rec=$!
pids+=($rec)
for _ in $(seq 100); do [ -e "$out/rec.ready" ] && break; sleep 0.1; done

peer la 1 --link
a=${pids[-1]}
sleep 1.3
peer lb 2 --link
sleep 3   # B's Start: the next bar line (2 s at 120 BPM)
a0=$(cpu "$a")
sleep "$seconds"
a1=$(cpu "$a")
kill "${pids[-1]}" "$a"; wait "${pids[-1]}" "$a" 2>/dev/null || true

peer solo 1
s=${pids[-1]}
sleep 2
s0=$(cpu "$s")
sleep "$seconds"
s1=$(cpu "$s")
kill "$s"; wait "$s" 2>/dev/null || true
kill "$rec"; wait "$rec" 2>/dev/null || true

python3 - "$out/recording.txt" "$seconds" "$a0" "$a1" "$s0" "$s1" >"$out/link.json" <<'PY'
import json, sys
path, seconds, a0, a1, s0, s1 = sys.argv[1], float(sys.argv[2]), *map(float, sys.argv[3:])
a, b = [], []
xruns = 0
for line in open(path):
    f = line.split()
    if f[0] == "A":
        (a if f[1] == "1" else b).append(int(f[2]))
    elif f[0] == "#" and "xruns" in f:
        xruns = int(f[f.index("xruns") + 1])
# B's clicks while both ran (from B's first click, for SECONDS), each against A's nearest.
start = b[0] if b else 0
window = [x for x in b if start <= x <= start + seconds * 48000]
diffs = [abs(x - min(a, key=lambda y: abs(y - x))) for x in window] if a else []
print(json.dumps({
    "seconds": seconds, "clicks": len(diffs),
    "mean_frames": sum(diffs) / len(diffs) if diffs else None, "max_frames": max(diffs) if diffs else None,
    "cpu_link": 100 * (a1 - a0) / seconds, "cpu_alone": 100 * (s1 - s0) / seconds, "xruns": xruns,
}))
PY
cat "$out/link.json"
