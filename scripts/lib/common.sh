# Shared by scripts/run, scripts/test and scripts/bench. Source, do not run.
# Installs what is missing (Debian/Ubuntu), finds the toolchain, starts JACK.

TACTUS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

say() { printf 'tactus: %s\n' "$*" >&2; }
die() { say "$*"; exit 1; }

# Swift may live outside PATH (e.g. /opt/swift on the CI image).
find_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        for d in /opt/swift/usr/bin /usr/share/swift/usr/bin "$HOME/.swiftly/bin"; do
            [ -x "$d/swift" ] && export PATH="$d:$PATH" && break
        done
    fi
    command -v swift >/dev/null 2>&1 || die "no Swift toolchain found: install Swift 6 from swift.org (https://www.swift.org/install/linux/) and run this again"
}

# ensure_packages PKG... : apt-get install the ones dpkg does not list as installed.
ensure_packages() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    say "installing ${missing[*]}"
    $sudo apt-get update -q >&2 || true
    # jackd2 asks whether to enable real-time priority: answer without a terminal.
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 \
        || die "apt-get install ${missing[*]} failed"
}

# What building Tactus needs.
BUILD_PACKAGES=(pkg-config libjack-jackd2-dev libasound2-dev libsndfile1-dev jackd2
    # The JACK tests also run on a private PipeWire (its JACK library, pw-jack).
    pipewire pipewire-jack pipewire-bin
    # The interactive display's tests drive `tactus -i` in a tmux pane.
    tmux
    # The LV2 plugin: its headers, and the tests' hosts and validators (lv2ls/lv2info,
    # sord_validate, jalv).
    lv2-dev lilv-utils sordi jalv
    # The tempo map tests compare `tactus render --map` with `klick -W`; `--clock-in`
    # follows jack_midi_clock in a live take, and the clock meter meters it.
    klick jack-midi-clock
    # Ableton Link (header-only C++ over asio) and the OSC server (liblo; its
    # oscsend/oscdump are the tests' clients); the Link tests' private network
    # namespaces need ip(8) and unshare(1).
    ableton-link-dev libasio-dev liblo-dev liblo-tools iproute2 util-linux g++)

# What scripts/bench adds: the peers, callgrind, the plot.
BENCH_PACKAGES=(klick jack-midi-clock valgrind binutils gnuplot-nox python3)

# ensure_jack: when no JACK server answers, starts one for this session and
# sets STARTED_JACKD_PID (stop it with stop_started_jack): jackd's ALSA backend
# when /proc/asound/cards lists a sound card, else the dummy backend (no sound,
# same timing) under a private name exported as JACK_DEFAULT_SERVER. The server
# runs in its own session so a Ctrl-C meant for Tactus does not reach it.
STARTED_JACKD_PID=""
ensure_jack() {
    if jack_lsp >/dev/null 2>&1; then return 0; fi
    local backend=(-d dummy -r 48000 -p 256) name=""
    if [ -r /proc/asound/cards ] && grep -q '^ *[0-9]' /proc/asound/cards; then
        backend=(-d alsa -r 48000 -p 256)
        say "no JACK server running: starting jackd on the sound card (${backend[*]})"
    else
        name="tactus-dummy-$$"
        export JACK_DEFAULT_SERVER="$name"
        say "no JACK server and no sound card: starting a silent dummy jackd named $name (${backend[*]})"
    fi
    setsid jackd ${name:+-n "$name"} "${backend[@]}" >"${TMPDIR:-/tmp}/tactus-jackd-$$.log" 2>&1 &
    STARTED_JACKD_PID=$!
    local i
    for i in $(seq 50); do
        jack_lsp >/dev/null 2>&1 && return 0
        kill -0 "$STARTED_JACKD_PID" 2>/dev/null || break
        sleep 0.1
    done
    die "jackd did not start; its log: ${TMPDIR:-/tmp}/tactus-jackd-$$.log"
}

# jack2 keeps its servers in one shared-memory registry of 8 entries and frees an
# entry only when a server of the same name starts again (or stops cleanly): every
# private test server that died without unregistering (jackd crashing on its way
# out after SIGTERM was seen) holds one for good, and with 8 held no server starts
# ("Too many servers already active"). The tests name each server afresh, so before
# they run, with no JACK or PipeWire server on the machine, the registry and the
# dead servers' segments go.
clear_dead_jack_registry() {
    if pgrep -x jackd >/dev/null || pgrep -x jackdbus >/dev/null || pgrep -x pipewire >/dev/null; then return 0; fi
    rm -f /dev/shm/jack-shm-registry /dev/shm/jack-[0-9]* /dev/shm/jack_sem.* /dev/shm/jack_db-* 2>/dev/null || true
}

stop_started_jack() {
    [ -n "$STARTED_JACKD_PID" ] || return 0
    kill "$STARTED_JACKD_PID" 2>/dev/null || true
    wait "$STARTED_JACKD_PID" 2>/dev/null || true
}

# alsa_vm CMD...: CMD (the alsa-vm's run-in-alsa-vm.sh) at nice TACTUS_ALSA_VM_NICE (default -10,
# 0: as is) where this user may raise priority. The VM's emulated CPUs run jackd's real-time cycle:
# on a loaded host its dummy driver thread wakes a period late whenever qemu's threads wait for a
# core (`JackTimedDriver::Process XRun`); measured at host load 12-13: 39 xruns in a 30 s session
# as is, 25 at -10.
alsa_vm() {
    local n=${TACTUS_ALSA_VM_NICE:--10}
    if [ "$n" != 0 ] && [ "$(nice -n "$n" nice 2>/dev/null)" = "$(($(nice) + n))" ]; then
        nice -n "$n" "$@"
    else
        "$@"
    fi
}
