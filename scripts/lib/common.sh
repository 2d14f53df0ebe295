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
BUILD_PACKAGES=(pkg-config libjack-jackd2-dev libasound2-dev libsndfile1-dev jackd2)
