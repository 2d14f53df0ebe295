#!/usr/bin/env bash
# ALSA clock timing on a real sequencer: lateness of each tick (the kernel's
# real-time stamp on a subscriber minus the time it was scheduled for,
# p50/p95/max) and the standard deviation of the tick intervals, at 120 and
# 133 BPM, 5.5 s each, for each look-ahead given (default: the product's 5 ms,
# and 30 ms, which keeps the emulated VM's wake-up delays out of the figures).
#
# It runs the acceptance test everyClockTickReachesASubscriberOnceInOrderBetweenStartAndStop,
# natively where /dev/snd/seq exists, else inside the alsa-vm (QEMU, emulated CPU),
# and prints its figures. The issue's targets in the VM: p95 <= 0.25 ms, sd <= 0.15 ms.
#
# Usage: Benchmarks/alsa-clock.sh [LOOKAHEAD_MS...]
# Env:   TACTUS_ALSA_VM  the run-in-alsa-vm.sh to use (default: ../shared/alsa-vm/ beside the repo)
set -euo pipefail
. "$(dirname "$0")/../scripts/lib/common.sh"
cd "$TACTUS_ROOT"
find_swift
LOOKAHEADS=${*:-5 30}
VM=${TACTUS_ALSA_VM:-$TACTUS_ROOT/../shared/alsa-vm/run-in-alsa-vm.sh}

say "building the tests"
swift build --build-tests >&2
BIN=$(swift build --show-bin-path)/TactusPackageTests.xctest
FILTER='ALSASequencerTests.*everyClockTick'

# One shell for every look-ahead, so the VM boots once. The test's own pass/fail
# is not the benchmark's business: the figures are printed either way.
RUN="for ms in $LOOKAHEADS; do
  echo \"look-ahead \$ms ms:\"
  TACTUS_ALSA_TEST_LOOKAHEAD_MS=\$ms '$BIN' --testing-library swift-testing --filter '$FILTER' 2>&1 | grep -E '^ALSA clock|recorded an issue' | sed 's/^/  /' || true
done"

if [ -r /dev/snd/seq ] && [ -w /dev/snd/seq ]; then
    say "on this machine's sequencer ($(uname -r))"
    sh -c "$RUN"
elif [ -x "$VM" ]; then
    say "no /dev/snd/seq here: inside the alsa-vm (emulated CPU; host load $(cut -d' ' -f1-3 /proc/loadavg))"
    "$VM" -t 900 -- sh -c "$RUN"
else
    die "no /dev/snd/seq and no alsa-vm at $VM (set TACTUS_ALSA_VM)"
fi
