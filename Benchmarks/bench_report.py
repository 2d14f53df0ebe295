#!/usr/bin/env python3
"""The table and the plot of scripts/bench, from what its run recorded.

Reads bench-results/raw/ (written by scripts/bench):
  runs.list                 `server period bpm attempts directory` per rows 1-3/8 run;
                            each directory holds run.json (Benchmarks/jack_vs_peers_report.py)
  callgrind/engine.out      callgrind of tactus-bench's render loop (row 4)
  callgrind/engine.txt      tactus-bench's own line (cycles, frames, tempo)
  callgrind/live-NAME.out   callgrind of NAME's JACK process callback, collected
  callgrind/live-NAME.rtprobe   inside Tests/RTProbe's trampoline, and its cycle count
  render.txt                Benchmarks/render-vs-klick.sh's output (row 5)
  alsa.txt                  Benchmarks/alsa-clock.sh's output (row 6)
  pressure.json             Benchmarks/pressure-latency.sh's figures (row 7), or
  pressure.txt              the line saying why it measured nothing
  link.json                 Benchmarks/link-peers.sh's figures (row 9), or
  link.txt                  the line saying why it measured nothing
  churn/churn.json          Benchmarks/churn.sh's figures (row 10), or
  churn.txt                 its output when it wrote none
  xrun.txt                  Benchmarks/xrun.sh's output (row 11)
Writes results.md and results.png (gnuplot) beside raw/ and prints the table.
Nothing here is typed in: a figure that was not recorded is shown as missing.

usage: bench_report.py RESULTS_DIR [--quick] [--rows LIST] [--readme README.md]
  --rows    only these rows (`9,10,11`; 8 stands for 8 (1)-(3)), as scripts/bench --rows ran them
  --readme  also puts the table between README's `<!-- bench-results: begin -->`
            and `<!-- bench-results: end -->` lines (scripts/bench --update-readme);
            with --rows only those rows are replaced there, the others kept, and the
            block lists which run (date, commit, machine) each row came from
"""
import json
import os
import re
import statistics
import subprocess
import sys

import churn_report
import jack_vs_peers_report

PEER_OF = {"click": "klick", "clock": "jack_midi_clock"}


# ---- reading what was recorded ----

def load_runs(raw):
    """[(server, period, bpm, attempts, run dict)] in the order they were run."""
    runs, path = [], os.path.join(raw, "runs.list")
    if not os.path.exists(path):
        return runs
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) != 5:
                continue
            server, period, bpm, attempts, directory = fields
            folder = directory if os.path.isabs(directory) else os.path.join(raw, directory)
            run_json = os.path.join(folder, "run.json")
            if os.path.exists(run_json):
                with open(run_json) as r:
                    run = json.load(r)
                # The timing figures again from the recording itself, so the table
                # always shows what this analysis makes of what was recorded.
                recording = os.path.join(folder, "recording.txt")
                if os.path.exists(recording):
                    processes = {name: (p["cpu_percent"], p["rss_anon_kb"], *([p["rt_cpu_percent"]] if p.get("rt_cpu_percent") is not None else []))
                                 for name, p in run["processes"].items()}
                    run = jack_vs_peers_report.analyse(recording, float(bpm), processes, server)
                runs.append((server, int(period), float(bpm), int(attempts), run))
    return runs


def callgrind_total(path):
    """The Ir total of a callgrind output file (its `summary:` or `totals:` line)."""
    if not os.path.exists(path):
        return None
    with open(path) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    return None


def rtprobe_cycles(path):
    """The callback cycles the interposer counted (its report, churn_report.read_rtprobe); None without it."""
    report = churn_report.read_rtprobe(path)
    return report.get("cycles") if report is not None else None


def parse_render(text):
    """Benchmarks/render-vs-klick.sh's rows: {label: (seconds, x realtime)} and its footnote."""
    rows, note = {}, ""
    for line in text.splitlines():
        m = re.match(r"^(.*?)\s+([0-9.]+)\s+([0-9]+)\s*$", line)
        if m and not line.startswith("one hour"):
            rows[m.group(1).strip()] = (float(m.group(2)), int(m.group(3)))
        elif line.startswith("("):
            note = line.strip("()")
    return rows, note


ALSA_LINE = re.compile(r"ALSA clock (\d+) BPM: (\d+) ticks received of (\d+) emitted; lateness p50 (\S+) p95 (\S+) max (\S+) ms, "
                       r"interval sd (\S+) ms")
ALSA_ON_TIME = re.compile(r"written on time: (\d+)/\d+, their lateness p50 (\S+) p95 (\S+) max (\S+) ms, interval sd (\S+) ms")


def parse_alsa_on_time(line):
    """The same figures over the ticks the clock thread wrote in time (on_time, p50, p95, max, sd), or None."""
    m = ALSA_ON_TIME.search(line)
    return (int(m.group(1)), *(float(m.group(i)) for i in range(2, 6))) if m else None


def parse_alsa(text):
    """Benchmarks/alsa-clock.sh's figures: [(look-ahead ms, bpm, received, emitted, p50, p95, max, sd)];
    the look-ahead is None when the output names none."""
    found, lookahead = [], None
    for line in text.splitlines():
        m = re.match(r"^look-ahead (\d+) ms:", line.strip())
        if m:
            lookahead = int(m.group(1))
            continue
        m = ALSA_LINE.search(line)
        if m:
            found.append((lookahead, int(m.group(1)), int(m.group(2)), int(m.group(3)),
                          *(float(m.group(i)) for i in range(4, 8))))
    return found


# ---- formatting ----

def fmt(x, digits=3):
    if x is None or (isinstance(x, float) and (x != x or x in (float("inf"), float("-inf")))):
        return "—"
    return f"{x:.{digits}f}".replace("-", "−")


def grouped(n):
    return f"{n:,}".replace(",", " ")


def timing_cell(stream):
    text = (f"{fmt(stream['max_error_fitted'])} fr, {fmt(stream['drift_ppm'], 2)} ± {fmt(stream.get('drift_stderr_ppm'), 2)} ppm "
            f"({stream['count']}")
    if stream["missing"] or stream["extra"]:
        text += f"; {stream['missing']} missing, {stream['extra']} extra"
    if stream.get("unseen"):
        text += f"; {stream['unseen']} in recorder holes"
    return text + ")"


def run_note(attempts, run):
    notes = []
    if attempts > 1:
        notes.append(f"{attempts} attempts")
    if run["disturbed"]:
        notes.append(f"DISTURBED: {run['disturbed']}")
    return f" [{'; '.join(notes)}]" if notes else ""


def setting(server, period, bpm=None):
    text = f"{'jackd dummy' if server == 'jackd' else 'PipeWire'} p{period}"
    return text + (f", {bpm:g} BPM" if bpm is not None else "")


def timing_rows(number, runs, stream_name):
    rows = []
    for server, period, bpm, attempts, run in runs:
        streams = {(s["program"], s["stream"]): s for s in run["streams"]}
        tactus, peer = streams[("tactus", stream_name)], streams[(PEER_OF[stream_name], stream_name)]
        rows.append([number, f"{stream_name} timing: max error, drift (events)",
                     setting(server, period, bpm) + run_note(attempts, run),
                     timing_cell(tactus), f"{PEER_OF[stream_name]}: {timing_cell(peer)}"])
    return rows


def process_rows(number, runs):
    """CPU % (mean over the setting's runs) and RssAnon (largest) per server and period."""
    rows, groups = [], {}
    for server, period, bpm, attempts, run in runs:
        groups.setdefault((server, period), []).append(run)
    for (server, period), group in groups.items():
        def cpu(name):
            return statistics.mean(r["processes"][name]["cpu_percent"] for r in group)

        def rt(name):
            shares = [r["processes"][name].get("rt_cpu_percent") for r in group]
            return statistics.mean(shares) if all(x is not None for x in shares) else None

        def with_rt(name):
            share = rt(name)
            return f"{fmt(cpu(name), 2)} %" + (f" (RT thread {fmt(share, 2)} %)" if share is not None else "")

        def rss(name):
            return max(r["processes"][name]["rss_anon_kb"] for r in group) / 1024
        seconds = sum(r["recorded_seconds"] for r in group)
        label = setting(server, period) + f", mean of {len(group)} runs ({seconds:.0f} s)"
        rows.append([number, "CPU % of one core (click + clock), all threads (real-time thread)", label,
                     with_rt('tactus'),
                     f"klick {with_rt('klick')} + jack_midi_clock {with_rt('jack_midi_clock')} = "
                     f"{fmt(cpu('klick') + cpu('jack_midi_clock'), 2)} %"])
        # Tactus with --sync-out din24 beside the plain run, when the run had it (row 4 counts its instructions).
        if all("tactus_sync" in r["processes"] for r in group):
            rows.append([number, "CPU % of one core with --sync-out din24 (click, clock and two sync lines, unconnected)", label,
                         with_rt('tactus_sync'), "— (no peer has sync outputs; Tactus without them above)"])
        # The .deb's build (--static-swift-stdlib) beside the source build, when the run had it.
        static = f" (.deb build {fmt(rss('tactus_static'), 1)} MB)" if all("tactus_static" in r["processes"] for r in group) else ""
        rows.append([number, "RssAnon (largest)", setting(server, period), f"{fmt(rss('tactus'), 1)} MB{static}",
                     f"klick {fmt(rss('klick'), 1)} + jack_midi_clock {fmt(rss('jack_midi_clock'), 1)} = "
                     f"{fmt(rss('klick') + rss('jack_midi_clock'), 1)} MB"])
    return rows


def cycle_rows(raw):
    rows, directory = [], os.path.join(raw, "callgrind")
    total = callgrind_total(os.path.join(directory, "engine.out"))
    described = ""
    if os.path.exists(os.path.join(directory, "engine.txt")):
        with open(os.path.join(directory, "engine.txt")) as f:
            described = f.read()
    m = re.search(r"(\d+) cycles of (\d+) frames at (\S+) BPM", described)
    if total is not None and m:
        cycles = int(m.group(1))
        rows.append([4, "instructions per process cycle (callgrind)",
                     f"Engine.render loop as in the JACK callback, {grouped(cycles)} cycles × {m.group(2)} frames, {m.group(3)} BPM",
                     grouped(round(total / cycles)), "— (the peers have no offline loop; live below)"])
    live = {}
    for name in ("tactus", "klick", "jack_midi_clock", "tactus_sync"):
        ir = callgrind_total(os.path.join(directory, f"live-{name}.out"))
        cycles = rtprobe_cycles(os.path.join(directory, f"live-{name}.rtprobe"))
        if ir is not None and cycles:
            live[name] = (ir / cycles, cycles)
    if live:
        period = ""
        if os.path.exists(os.path.join(directory, "live.txt")):
            with open(os.path.join(directory, "live.txt")) as f:
                period = f.read().strip()
        t = live.get("tactus")
        k, j = live.get("klick"), live.get("jack_midi_clock")
        peer = " + ".join(f"{n} {grouped(round(v[0]))}" for n, v in (("klick", k), ("jack_midi_clock", j)) if v)
        if k and j:
            peer += f" = {grouped(round(k[0] + j[0]))}"
        rows.append([4, "instructions per JACK process callback, live (callgrind)", period,
                     f"{grouped(round(t[0]))} ({t[1]} cycles)" if t else "—",
                     peer + (f" ({k[1]} and {j[1]} cycles)" if k and j else "")])
        s = live.get("tactus_sync")
        if s:
            rows.append([4, "instructions per JACK process callback with --sync-out din24, live (callgrind)", period,
                         f"{grouped(round(s[0]))} ({s[1]} cycles)", "— (no peer has sync outputs; Tactus without them above)"])
    return rows


def render_rows(raw):
    path = os.path.join(raw, "render.txt")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        rows, note = parse_render(f.read())
    tactus, sixteenths = rows.get("tactus render"), rows.get("tactus render --subdivision 16ths")
    klick = rows.get("klick -W (no subdivision)")

    def cell(v):
        return f"{fmt(v[0])} s ({v[1]}× realtime)" if v else "—"
    result = [[5, "offline export of one hour (wall time)", f"48 kHz 16-bit mono WAV, 4/4 at 133 BPM; {note}",
               f"{cell(tactus)}; with 16ths {cell(sixteenths)}", f"klick -W: {cell(klick)}"]]
    tactus_map, klick_map = rows.get("tactus render --map (the same map)"), rows.get("klick -W -f (1-hour map with ramps)")
    if tactus_map or klick_map:
        result.append([5, "offline export of a one-hour tempo map (wall time)",
                       f"65 × (8 bars at 120, 120-160, 8 at 160, 3/4 160-120): 3 615 s, 48 kHz 16-bit mono WAV; {note}",
                       f"tactus render --map: {cell(tactus_map)}", f"klick -W -f: {cell(klick_map)}"])
    return result


def alsa_rows(raw, runs):
    path = os.path.join(raw, "alsa.txt")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        text = f.read()
    where = "alsa-vm (emulated CPU)" if "alsa-vm" in text else "this machine's sequencer"
    jack = {}
    for server, period, bpm, attempts, run in runs:
        if server == "jackd" and period == 256:
            for s in run["streams"]:
                if s["program"] == "tactus" and s["stream"] == "clock":
                    jack[bpm] = s["max_error_fitted"]
    rows = []
    on_time = [parse_alsa_on_time(line) for line in text.splitlines() if ALSA_LINE.search(line)]
    for (lookahead, bpm, received, emitted, p50, p95, maximum, sd), late in zip(parse_alsa(text), on_time):
        error = jack.get(float(bpm))
        tactus = f"{fmt(p50)} / {fmt(p95)} / {fmt(maximum)} ms, sd {fmt(sd)} ms"
        if late and late[0] < emitted:
            tactus += f" (the {late[0]} written in time: max {fmt(late[3])} ms, sd {fmt(late[4])} ms)"
        beside = f"JACK MIDI clock (jackd p256, same BPM): max error {fmt(error)} fr = {fmt(error / 48000 * 1e6 if error is not None else None, 1)} µs"
        rows.append([6, "ALSA clock lateness p50/p95/max, interval sd",
                     f"{bpm} BPM, look-ahead {lookahead} ms, {where}; {received}/{emitted} ticks",
                     tactus, beside])
    if not rows:
        rows.append([6, "ALSA clock", "no figures: see raw/alsa.txt", "—", "—"])
    return rows


def pressure_rows(raw):
    """Row 7 from pressure.json (live, through `tactus run`), or the reason in pressure.txt."""
    path = os.path.join(raw, "pressure.json")
    if os.path.exists(path):
        with open(path) as f:
            p = json.load(f)
        how = p.get("setting", "live") + f"; {p.get('measured')} of {p.get('presses')} presses measured"
        if not p.get("measured"):
            return [[7, "pressure→tempo latency", how + ": no tempo change seen", "—", "—"]]
        return [[7, f"pressure→tempo latency over {p['presses']} presses (min / median / p90 / max)", how,
                 f"{fmt(p['min'], 1)} / {fmt(p['median'], 1)} / {fmt(p['p90'], 1)} / {fmt(p['max'], 1)} ms",
                 "— (no peer has pressure control)"]]
    path = os.path.join(raw, "pressure.txt")
    if os.path.exists(path):
        with open(path) as f:
            first = f.read().strip().splitlines()[:1] or ["no output"]
        return [[7, "pressure→tempo latency", first[0], "—", "—"]]
    return []


def link_rows(raw):
    """Row 9 from link.json (two Link peers in a private network namespace), or the reason in link.txt."""
    path = os.path.join(raw, "link.json")
    if os.path.exists(path):
        with open(path) as f:
            p = json.load(f)
        setting = f"jackd dummy, period 256, 120 BPM, {fmt(p['seconds'], 0)} s, private netns; xruns {p.get('xruns', 0)}"
        if not p.get("clicks"):
            return [[9, "Link: phase difference of two peers", setting + ": no clicks recorded", "—", "—"]]
        return [[9, f"Link: phase difference of two peers over {p['clicks']} clicks (mean / max)", setting,
                 f"{fmt(p['mean_frames'], 2)} / {p['max_frames']} frames", "— (no peer metronome)"],
                [9, "Link: CPU % of one core, with --link (two peers) / without", setting,
                 f"{fmt(p['cpu_link'], 2)} / {fmt(p['cpu_alone'], 2)}", "—"]]
    path = os.path.join(raw, "link.txt")
    if os.path.exists(path):
        with open(path) as f:
            first = f.read().strip().splitlines()[:1] or ["no output"]
        return [[9, "Link: phase difference of two peers", first[0], "—", "—"]]
    return []


def churn_clock(v):
    """The churn row's clock words: on the grid in how many undisturbed minutes."""
    if "clock_minutes_judged" not in v:
        return ""
    off = v["clock_minutes_off"]
    return (f"; clock {'on the grid' if not off else 'OFF THE GRID in ' + str(len(off))} of {v['clock_minutes_judged']} "
            f"undisturbed minutes ({v['clock_minutes_xrun']} with an xrun not judged)")


def churn_rows(raw):
    """Row 10 from churn/churn.json (Benchmarks/churn.sh), or its output when it wrote none."""
    path = os.path.join(raw, "churn", "churn.json")
    if os.path.exists(path):
        with open(path) as f:
            v = json.load(f)
        restarts = f"{v['restarts']} server restart{'s' if v['restarts'] != 1 else ''}"
        cpu = f"{fmt(v['control_cpu_percent'], 2)} %" if v.get("control_cpu_percent") is not None else "—"
        return [[10, f"churn: RssAnon at {v['baseline_at']} s → end, fds, threads, control-thread CPU",
                 f"{v['seconds']} s on jackd dummy p256: holds every 10 s, preset switches every 30 s, keys, taps, "
                 f"connections every 15 s, a sender client a minute, {restarts}",
                 (f"live heap {v['heap_bytes'][0]} → {v['heap_bytes'][1]} bytes ({v['heap_growth_bytes']:+d}, bound {v['heap_bound_bytes']}), "
                  f"{v['heap_blocks'][0]} → {v['heap_blocks'][1]} blocks ({v['heap_growth_blocks']:+d}, bound {v['heap_bound_blocks']}); "
                  if "heap_bytes" in v else "")
                 + f"{v['rss_anon_kb'][0]} → {v['rss_anon_kb'][1]} kB ({v['rss_growth_kb']:+d} kB, bound {v['rss_bound_kb']}); "
                 f"fds {v['fds'][0]} → {v['fds'][1]}; threads {v['threads'][0]} → {v['threads'][1]}; CPU {cpu}; "
                 f"xruns {v['xruns']} ({v['xruns_tactus']} naming tactus"
                 + (f", {v['xruns_tactus_running']} while its callback ran" if "xruns_tactus_running" in v else "")
                 + (f", {v['xruns_tactus_alone']} of those with neither the twin nor the server's driver late" if "xruns_tactus_alone" in v else "")
                 + (f"; twin server without tactus {v['xruns_twin']}" if "xruns_twin" in v else "") + ")"
                 + churn_clock(v)
                 + (f"; process callback: {v['callback_violations']} allocations or locks in {v['callback_cycles']} cycles"
                    if "callback_cycles" in v else "")
                 + ("" if not v["grew"] else "; GREW: " + ", ".join(v["grew"])),
                 "— (no peer has presets or pressure)"]]
    path = os.path.join(raw, "churn.txt")
    if os.path.exists(path):
        with open(path) as f:
            last = (f.read().strip().splitlines() or ["no output"])[-1]
        return [[10, "churn", f"no figures: {last}", "—", "—"]]
    return []


JACK_XRUN = re.compile(r"JACK clock through one (\d+) ms stall at (\S+) BPM: (\d+) ticks, (\d+) late at a cycle start; "
                       r"(\d+) events, max error (\S+) frames \(best phase (\S+)\), (\d+) gaps.*?, (\d+) unseen")
ALSA_XRUN = re.compile(r"ALSA clock through a (\d+) ms stall at (\S+) BPM: (\d+) ALSA ticks, (\d+) JACK ticks, .*?"
                       r"from 0\.5 s after the stall \((\d+) intervals\): interval spread (\S+) ms \(max \|error\| (\S+) ms\), lateness p50 (\S+) p95 (\S+) max (\S+) ms; "
                       r"from 0\.1 s before the stall to 0\.5 s after: interval spread (\S+) ms, max \|error\| (\S+) ms; "
                       r"before it: spread (\S+) ms; .*?; (\d+) xruns")


def parse_xrun(text):
    """Benchmarks/xrun.sh's two lines: ({stall_ms, bpm, ticks, late, gaps, unseen, max_error} or None,
    {stall_ms, bpm, alsa_ticks, jack_ticks, intervals, before, during, after, after_max, p50, p95, max, xruns} or None)."""
    jack = alsa = None
    for line in text.splitlines():
        m = JACK_XRUN.search(line)
        if m:
            jack = {"stall_ms": int(m.group(1)), "bpm": float(m.group(2)), "ticks": int(m.group(3)), "late": int(m.group(4)),
                    "max_error": float(m.group(6)), "gaps": int(m.group(8)), "unseen": int(m.group(9))}
        m = ALSA_XRUN.search(line)
        if m:
            alsa = {"stall_ms": int(m.group(1)), "bpm": float(m.group(2)), "alsa_ticks": int(m.group(3)), "jack_ticks": int(m.group(4)),
                    "intervals": int(m.group(5)), "after": float(m.group(6)), "after_max": float(m.group(7)), "p50": float(m.group(8)),
                    "p95": float(m.group(9)), "max": float(m.group(10)), "during": float(m.group(11)), "during_max": float(m.group(12)),
                    "before": float(m.group(13)), "xruns": int(m.group(14))}
            windows = re.search(r"(\d+) of (\d+) half-second windows judged", line)
            if windows:
                alsa["windows"] = [int(windows.group(1)), int(windows.group(2))]
            stalls = re.search(r"(\d+) machine stalls over 1 ms after the stall \(the longest (\d+) ms\)", line)
            if stalls:
                alsa["machine_stalls"] = [int(stalls.group(1)), int(stalls.group(2))]
    return jack, alsa


def xrun_rows(raw):
    """Row 11 from Benchmarks/xrun.sh's output."""
    path = os.path.join(raw, "xrun.txt")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        text = f.read()
    jack, alsa = parse_xrun(text)
    rows = []
    if jack:
        rows.append([11, "JACK MIDI clock through one forced xrun: ticks, late at the next cycle, missing or doubled",
                     f"one {jack['stall_ms']} ms stall at {jack['bpm']:g} BPM, jackd dummy p256 asynchronous",
                     f"{jack['ticks']} ticks, {jack['late']} late at a cycle start, {jack['gaps']} gaps, {jack['unseen']} unseen",
                     "—"])
    if alsa:
        where = "alsa-vm (emulated CPU)" if "alsa-vm" in text else "this machine's sequencer"
        rows.append([11, "ALSA clock through one forced xrun: interval spread before / during / from 0.5 s after; lateness after",
                     f"one {alsa['stall_ms']} ms stall at {alsa['bpm']:g} BPM, {where}; {alsa['xruns']} xruns; "
                     + (f"{alsa['machine_stalls'][0]} machine stalls over 1 ms after it (longest {alsa['machine_stalls'][1]} ms); "
                        if "machine_stalls" in alsa else "")
                     + (f"{alsa['windows'][0]} of {alsa['windows'][1]} half-second windows after it without either (judged); " if "windows" in alsa else "")
                     + 
                     f"{alsa['alsa_ticks']} ALSA ticks, {alsa['jack_ticks']} on JACK",
                     (f"sd {fmt(alsa['before'])} / {fmt(alsa['during'])} / {fmt(alsa['after'])} ms; "
                      f"p50 {fmt(alsa['p50'])} p95 {fmt(alsa['p95'])} max {fmt(alsa['max'])} ms" if alsa["intervals"] else
                      "not measured: the server or the machine itself lost real time (xruns, timers over 1 ms late) in every window, "
                      "the test judges no timing then"),
                     "target after: sd ≤ 0.150 ms, p95 ≤ 0.250 ms"])
    if not rows:
        rows.append([11, "clocks through a forced xrun", "no figures: see raw/xrun.txt", "—", "—"])
    return rows


def markdown(rows):
    head = ["Row", "Measure", "Setting", "Tactus", "Peer"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        lines.append("| " + " | ".join(str(c) for c in r) + " |")
    return "\n".join(lines)


# ---- the plot ----

def write_plot(results, runs):
    """results.png: each event's error against its phase-fitted grid, Tactus vs the peer,
    one panel per stream and setting (rows) and tempo (columns)."""
    panels = {}
    for server, period, bpm, attempts, run in runs:
        for stream in ("click", "clock"):
            panels.setdefault((server, period, stream), {})[bpm] = run
    if not panels:
        return None
    data_dir = os.path.join(results, "raw", "plot")
    os.makedirs(data_dir, exist_ok=True)
    tempos = sorted({bpm for _, _, bpm, _, _ in runs})
    row_keys = list(panels)
    width, height = 560 * len(tempos), 330 * len(row_keys) + 60
    script = [f"set terminal pngcairo noenhanced size {width},{height} font 'DejaVu Sans,10'",
              f"set output '{os.path.join(results, 'results.png')}'",
              f"set multiplot layout {len(row_keys)},{len(tempos)} title "
              "'Per-event timing error against the nominal grid (phase fitted), frames at 48 kHz: Tactus vs peers' font ',13'",
              "set grid", "set key below horizontal", "set xlabel 'time (s)'", "set ylabel 'error (frames)'"]
    for server, period, stream in row_keys:
        for bpm in tempos:
            run = panels[(server, period, stream)].get(bpm)
            if run is None:
                script += ["set multiplot next"]
                continue
            plots = []
            # The peer first, so Tactus' dots stay visible inside the peer's circles.
            for s in sorted(run["streams"], key=lambda s: s["program"] == "tactus"):
                if s["stream"] != stream:
                    continue
                name = f"{server}-p{period}-{bpm:g}-{stream}-{s['program']}.dat"
                with open(os.path.join(data_dir, name), "w") as f:
                    for t, e in zip(s["seconds"], s["errors"]):
                        f.write(f"{t:.6f} {e:.6f}\n")
                style = "points pt 7 ps 0.5 lc rgb '#1f77b4'" if s["program"] == "tactus" else "points pt 6 ps 0.9 lc rgb '#e6550d'"
                plots.append(f"'{os.path.join(data_dir, name)}' using 1:2 with {style} title '{s['program']}: "
                             f"{s['count']} events, max {s['max_error_fitted']:.3f}'")
            note = " DISTURBED" if run["disturbed"] else ""
            # One scale for every panel (±0.8 frame) unless an event lies beyond it.
            worst = max((abs(e) for s in run["streams"] if s["stream"] == stream for e in s["errors"]), default=0)
            limit = max(0.8, worst * 1.1)
            script += [f"set yrange [{-limit}:{limit}]", f"set xrange [0:{run['recorded_seconds']:.3f}]",f"set title '{stream}, {setting(server, period, bpm)}{note}'", "plot " + ", ".join(plots)]
    script.append("unset multiplot")
    path = os.path.join(data_dir, "results.gp")
    with open(path, "w") as f:
        f.write("\n".join(script) + "\n")
    done = subprocess.run(["gnuplot", path], capture_output=True, text=True)
    if done.returncode != 0:
        print(f"gnuplot failed: {done.stderr.strip()}", file=sys.stderr)
        return None
    return os.path.join(results, "results.png")


README_BEGIN = "<!-- bench-results: begin -->"
README_END = "<!-- bench-results: end -->"


def row_number(label):
    """The row's number: 8 for "8 (2)"."""
    return int(str(label).split()[0])


def parse_rows(text):
    """`9,10,11` or `1-3,9` → the sorted row numbers; ValueError naming what is wrong."""
    numbers = set()
    for part in text.split(","):
        part = part.strip()
        bounds = part.split("-")
        if not part or len(bounds) > 2 or not all(b.isdigit() for b in bounds):
            raise ValueError(f"--rows: '{part}' is not a row number or a range like 1-3 (in '{text}')")
        low, high = int(bounds[0]), int(bounds[-1])
        if not 1 <= low <= high <= ROW_COUNT:
            raise ValueError(f"--rows: '{part}' is outside rows 1-{ROW_COUNT} (in '{text}')")
        numbers.update(range(low, high + 1))
    return sorted(numbers)


ROW_COUNT = 11


def ranges(numbers):
    """[1, 2, 3, 9, 11] → "1-3, 9, 11"."""
    out, numbers = [], sorted(numbers)
    i = 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        out.append(f"{numbers[i]}-{numbers[j]}" if j > i + 1 else ", ".join(str(n) for n in numbers[i:j + 1]))
        i = j + 1
    return ", ".join(out)


def parse_block(body):
    """What the README's result block holds: ([(row numbers, context)], [table row cells]).
    A block written by one whole run has a paragraph of context for every row; a merged
    one a list `* Rows 1-8: context`."""
    lines = body.strip("\n").splitlines()
    table = [l for l in lines if l.startswith("| ") and not l.startswith("| Row |")]
    cells = [[c.strip() for c in l.strip().strip("|").split(" | ")] for l in table]
    present = sorted({row_number(c[0]) for c in cells})
    runs = []
    for l in lines:
        m = re.match(r"\* Rows? ([0-9, -]+): (.*)$", l)
        if m:
            runs.append((parse_rows(m.group(1).replace(" ", "")), m.group(2)))
    if not runs:
        first_table = next((i for i, l in enumerate(lines) if l.startswith("|")), len(lines))
        context = " ".join(l.strip() for l in lines[1:first_table] if l.strip())
        if present:
            runs = [(present, context)]
    return runs, cells


def merge_block(old_body, new_rows, rows, context, notes):
    """The README block with `rows` (numbers) replaced by `new_rows` (cells), the other rows
    of `old_body` kept in order, and the list of runs saying where each row came from."""
    runs, cells = parse_block(old_body)
    kept = [c for c in cells if row_number(c[0]) not in rows]
    merged = sorted(kept + [[str(x) for x in r] for r in new_rows], key=lambda c: row_number(c[0]))
    runs = [(sorted(set(numbers) - set(rows)), text) for numbers, text in runs]
    runs = [r for r in runs if r[0]] + [(sorted(rows), context)]
    runs.sort(key=lambda r: r[0][0])
    listing = [f"* Row{'s' if len(numbers) > 1 else ''} {ranges(numbers)}: {text}" for numbers, text in runs]
    return "\n".join(["### Latest runs", "", *listing, "", markdown(merged), "", *[f"* {n}" for n in notes], "",
                      "Plot: `bench-results/results.png` (not committed)."])


def readme_block(path):
    """(README text, start and end of what lies between its result markers)."""
    with open(path) as f:
        text = f.read()
    begin, end = text.find(README_BEGIN), text.find(README_END)
    if begin < 0 or end < begin:
        raise ValueError(f"{path} has no {README_BEGIN} ... {README_END} lines")
    return text, begin + len(README_BEGIN), end


def merge_readme(path, new_rows, rows, context, notes):
    """Replaces only `rows` of the README's table (scripts/bench --rows … --update-readme)."""
    text, start, end = readme_block(path)
    body = merge_block(text[start:end], new_rows, rows, context, notes)
    with open(path, "w") as f:
        f.write(text[:start] + "\n" + body + "\n" + text[end:])


def update_readme(path, results_text):
    """Replaces what lies between the README's result markers with `results_text`
    (its heading one level down, under the Performance heading)."""
    text, start, end = readme_block(path)
    body = results_text.replace("## Tactus benchmark", "### Latest run", 1).rstrip("\n")
    body = body.replace("Plot: results.png", "Plot: `bench-results/results.png` (not committed).")
    with open(path, "w") as f:
        f.write(text[:start] + "\n" + body + "\n" + text[end:])


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    results = argv[0]
    quick = "--quick" in argv
    try:
        only = parse_rows(argv[argv.index("--rows") + 1]) if "--rows" in argv else None
    except (ValueError, IndexError) as e:
        print(f"bench_report.py: {e}", file=sys.stderr)
        return 2
    raw = os.path.join(results, "raw")
    runs = load_runs(raw)
    jackd = [r for r in runs if r[0] == "jackd"]
    pipewire = [r for r in runs if r[0] == "pipewire"]
    rows = (timing_rows(1, jackd, "click") + timing_rows(2, jackd, "clock") + process_rows(3, jackd)
            + cycle_rows(raw) + render_rows(raw) + alsa_rows(raw, runs) + pressure_rows(raw)
            + timing_rows("8 (1)", pipewire, "click") + timing_rows("8 (2)", pipewire, "clock") + process_rows("8 (3)", pipewire)
            + link_rows(raw) + churn_rows(raw) + xrun_rows(raw))
    if only is not None:
        rows = [r for r in rows if row_number(r[0]) in only]
    context = ""
    if os.path.exists(os.path.join(raw, "machine.txt")):
        with open(os.path.join(raw, "machine.txt")) as f:
            context = f.read().strip()
    plot = write_plot(results, runs)
    command = "scripts/bench" + (" --quick" if quick else "") + (f" --rows {','.join(map(str, only))}" if only else "")
    title = f"Tactus benchmark ({command}: {'rows ' + ranges(only) if only else 'rows 1-5, 10' if quick else 'all rows'})"
    notes = ["max error: worst distance of an event from the nominal grid (interval 60·48000/BPM frames for clicks, "
             "a 24th of it for clock ticks), phase fitted; 0.5 fr is what rounding to whole frames costs. "
             "drift: least-squares slope against the nominal interval, ± its standard error "
             "(what whole-frame rounding leaves undecided over that many events).",
             "Runs with xruns or skipped cycles (recorder's xrun callback, holes in its frame count) are repeated, "
             "never averaged in; a run still disturbed after the last attempt is marked DISTURBED."]
    text = "\n".join([f"## {title}", "", context, "", markdown(rows), "", *[f"* {n}" for n in notes],
                      "", f"Plot: {os.path.basename(plot)}" if plot else "Plot: none", ""])
    with open(os.path.join(results, "results.md"), "w") as f:
        f.write(text)
    print(text)
    if "--readme" in argv and only is not None:
        merge_readme(argv[argv.index("--readme") + 1], rows, only, " ".join(context.split()) + f" ({command})", notes)
    elif "--readme" in argv:
        update_readme(argv[argv.index("--readme") + 1], text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
