#!/usr/bin/env bash
# Offline export of one hour at 48 kHz, 16-bit mono WAV, 4/4 at 133 BPM:
# `tactus render` (plain and with 16ths) against `klick -W` (tempo map "1995 4/4 133"),
# and a one-hour tempo map with ramps (65 × 8 bars at 120, up to 160, 8 at 160, down
# to 120: 3 615 s) rendered by both, `tactus render --map` and `klick -W -f`,
# run alternately in the same session, whole-process wall time, median of N runs.
# Usage: Benchmarks/render-vs-klick.sh [RUNS]   (default 5)
set -euo pipefail
. "$(dirname "$0")/../scripts/lib/common.sh"
cd "$TACTUS_ROOT"
find_swift
ensure_packages "${BUILD_PACKAGES[@]}" klick
swift build -c release --product tactus >&2
runs=${1:-5}
dir=$(mktemp -d /dev/shm/tactus-bench.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "1995 4/4 133" > "$dir/map.txt"   # 1995 bars × 4 beats at 133 BPM = 3600 s
for ((i = 0; i < 65; i++)); do printf '8 120\n8 120-160\n8 160\n8 3/4 160-120\n'; done > "$dir/ramps.txt"

wall() { # prints the wall seconds of a command
    local s e
    s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
    awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f\n", e - s }'
}
declare -a t_plain t_16 t_klick t_map t_klick_map
for ((i = 0; i < runs; i++)); do
    t_plain+=("$(wall .build/release/tactus render "$dir/t.wav" --seconds 3600 --bpm 133 --meter 4/4)")
    t_16+=("$(wall .build/release/tactus render "$dir/t16.wav" --seconds 3600 --bpm 133 --meter 4/4 --subdivision sixteenths)")
    t_klick+=("$(wall klick -W "$dir/k.wav" -f "$dir/map.txt")")
    t_map+=("$(wall .build/release/tactus render "$dir/tm.wav" --map "$dir/ramps.txt")")
    t_klick_map+=("$(wall klick -W "$dir/km.wav" -f "$dir/ramps.txt")")
    rm -f "$dir"/*.wav
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
printf '%-36s %10s %14s\n' "one hour, 48 kHz, 16-bit mono WAV" "seconds" "x realtime"
for row in "klick -W (no subdivision):t_klick" "tactus render:t_plain" "tactus render --subdivision 16ths:t_16" \
           "klick -W -f (1-hour map with ramps):t_klick_map" "tactus render --map (the same map):t_map"; do
    label=${row%%:*}; var=${row##*:}
    eval "m=\$(median \"\${${var}[@]}\")"
    printf '%-36s %10s %14.0f\n' "$label" "$m" "$(awk -v m="$m" 'BEGIN { print 3600 / m }')"
done
echo "(median of $runs runs each, whole process, files on $(dirname "$dir"))"
