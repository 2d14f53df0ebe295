#!/usr/bin/env python3
"""The configuration of a private, headless PipeWire for the benchmark.

Debian's /usr/share/pipewire/minimal.conf, edited the way the JACK suite's
PipeWireTestServer edits it: the `{ factory = adapter ... }` objects that open
an ALSA device removed (there is no card, and a benchmark must not grab one),
D-Bus off, the graph fixed at one rate and one quantum (min = max), and the
virtual-machine override that would raise the minimum quantum to 1024 undone.
The Dummy-Driver node stays: a timer that drives the JACK clients, as jackd's
dummy backend does.

usage: pipewire_conf.py [--rate 48000] [--quantum 256] [--source /usr/share/pipewire/minimal.conf]
"""
import re
import sys


def remove_alsa_adapters(text):
    """Drops each `{ factory = adapter ... }` block (braces balanced) that names api.alsa."""
    result, position = "", 0
    for match in re.finditer(r"\{\s*factory\s*=\s*adapter", text):
        if match.start() < position:
            continue
        depth, end = 0, match.start()
        for i in range(match.start(), len(text)):
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    end = i + 1
                    break
        block = text[match.start():end]
        result += text[position:match.start()]
        if "api.alsa" not in block:
            result += block
        position = end
    return result + text[position:]


def configuration(source_text, rate=48000, quantum=256):
    # Whole-line comments hold commented-out objects whose braces would upset the balance.
    text = "".join(line for line in source_text.splitlines(keepends=True) if not line.lstrip().startswith("#"))
    text = remove_alsa_adapters(text)
    settings = (f"\n    support.dbus = false\n    default.clock.rate = {rate}\n"
                f"    default.clock.allowed-rates = [ {rate} ]\n    default.clock.quantum = {quantum}\n"
                f"    default.clock.min-quantum = {quantum}\n    default.clock.max-quantum = {quantum}\n")
    head = re.search(r"context\.properties\s*=\s*\{", text)
    if head is None:
        raise ValueError("minimal.conf has no context.properties")
    text = text[:head.end()] + settings + text[head.end():]
    # A virtual machine gets min-quantum 1024 by default: keep the quantum asked for.
    return re.sub(r"default\.clock\.min-quantum\s*=\s*1024", f"default.clock.min-quantum = {quantum}", text)


def main(argv):
    options = {"--rate": "48000", "--quantum": "256", "--source": "/usr/share/pipewire/minimal.conf"}
    for key, value in zip(argv[::2], argv[1::2]):
        if key not in options:
            print(__doc__, file=sys.stderr)
            return 2
        options[key] = value
    with open(options["--source"]) as f:
        sys.stdout.write(configuration(f.read(), int(options["--rate"]), int(options["--quantum"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
