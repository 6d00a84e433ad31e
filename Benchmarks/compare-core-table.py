#!/usr/bin/env python3
"""The tables of compare-core.sh, from its raw file (one JSON object per line:
{"side": "before"|"after", "round": N, "tag": "overhead"|"pipeline"|"peers KIND IN_FLIGHT", "result": {...}}).

    python3 Benchmarks/compare-core-table.py RAW.jsonl [ROUNDS]

Each cell is the median over the rounds with the lowest and highest round in brackets; a ratio
between two clients is taken within one round (and, for `gateway bench pipeline`, within one of
its runs) before the median is taken, so both sides of a ratio saw the same load.
"""
import json
import statistics
import sys


def fail(message):
    sys.exit(f"compare-core-table: {message}")


def load(path):
    lines = []
    with open(path) as handle:
        for number, text in enumerate(handle, 1):
            if text.strip():
                try:
                    lines.append(json.loads(text))
                except json.JSONDecodeError as error:
                    fail(f"{path}:{number}: not JSON ({error})")
    return lines


def member(result, key, where):
    if key not in result:
        fail(f"{where} has no '{key}' (its members: {', '.join(result)}); has the bench's --json output changed?")
    return result[key]


def per_round(lines, side, tag):
    """The results with this tag for one side, by round."""
    rounds = {}
    for line in lines:
        if line["side"] == side and line["tag"] == tag:
            rounds.setdefault(line["round"], []).append(line["result"])
    return rounds


class Table:
    def __init__(self, title):
        self.title = title
        self.rows = []

    def add(self, label, values, unit, target=""):
        """values: {"before": [per-round values], "after": [...]}; unit: "us", "delta" (a difference
        of two CPU times, whose change is shown as after − before), "rate" or "ratio"."""
        if not values["before"] and not values["after"]:
            return
        self.rows.append((label, values, unit, target))

    @staticmethod
    def cell(values, unit):
        if not values:
            return "—"
        digits = {"us": "%.1f", "delta": "%.1f", "rate": "%.0f"}.get(unit, "%.3f")
        suffix = " µs" if unit in ("us", "delta") else ""
        median = statistics.median(values)
        if len(values) == 1:
            return (digits % median) + suffix
        return f"{digits % median}{suffix} ({digits % min(values)}–{digits % max(values)})"

    def print(self):
        if not self.rows:
            return
        print(f"\n{self.title}\n")
        print("| measurement | target | before, median of rounds (min–max) | after | after / before (after − before for a difference) |")
        print("|---|---|---:|---:|---:|")
        for label, values, unit, target in self.rows:
            before, after = values["before"], values["after"]
            change = "—"
            if unit == "delta" and before and after:
                # A difference can be near zero or negative: its change is told as after − before.
                change = "%+.1f µs" % (statistics.median(after) - statistics.median(before))
            elif before and after and statistics.median(before) != 0:
                change = "%.3f" % (statistics.median(after) / statistics.median(before))
            print(f"| {label} | {target} | {self.cell(before, unit)} | {self.cell(after, unit)} | {change} |")


def overhead_table(lines):
    table = Table("`gateway bench overhead` (instant transport): CPU per request, whole process (getrusage)")
    cells = {}
    for side in ("before", "after"):
        for results in per_round(lines, side, "overhead").values():
            for result in results:
                where = "an overhead result"
                key = (member(result, "in_flight", where), member(result, "all_stages", where))
                cells.setdefault(key, {"before": {}, "after": {}})
        for round_number, results in per_round(lines, side, "overhead").items():
            for result in results:
                key = (result["in_flight"], result["all_stages"])
                cpu = member(result, "cpu_us_per_request", "an overhead result")
                cells[key][side].setdefault(round_number, []).append(cpu)
    targets = {(1, True): "≤ 5 µs", (64, True): "≤ 8 µs"}
    for in_flight in (1, 64):
        for stages in (False, True):
            values = cells.get((in_flight, stages))
            if not values:
                continue
            label = f"overhead, {'one at a time' if in_flight == 1 else f'{in_flight} in flight'}" \
                + (", every stage on" if stages else ", no stages")
            table.add(label, {side: [v for vs in values[side].values() for v in vs] for side in values}, "us",
                      targets.get((in_flight, stages), ""))
        both = cells.get((in_flight, False)), cells.get((in_flight, True))
        if all(both):
            added = {side: [statistics.median(both[1][side][r]) - statistics.median(both[0][side][r])
                            for r in both[0][side] if r in both[1][side]] for side in ("before", "after")}
            table.add(f"overhead, {in_flight} in flight: the stages' added CPU (on − off, by round)", added, "delta")
    table.print()


def pipeline_table(lines):
    table = Table("`gateway bench pipeline` (loopback server in a child process): requests/s ratios, "
                  "per run within a round, median over all runs")
    names = {"dataFor": "Provider + bare data(for:) transport", "provider": "Provider + URLSessionTransport"}
    ratios, cpu, extra = {}, {}, {}
    for side in ("before", "after"):
        for round_number, results in per_round(lines, side, "pipeline").items():
            for result in results:
                rows = member(result, "rows", "a pipeline result")
                by_key = {(member(row, "client", "a pipeline row"), member(row, "in_flight", "a pipeline row")): row
                          for row in rows}
                for (client, in_flight), row in by_key.items():
                    cpu.setdefault((client, in_flight), {"before": [], "after": []})[side].append(
                        member(row, "cpu_us_per_request", "a pipeline row"))
                    bare = by_key.get(("bare", in_flight))
                    if client == "bare" or bare is None:
                        continue
                    own_runs = member(row, "requests_per_s_runs", "a pipeline row")
                    bare_runs = member(bare, "requests_per_s_runs", "a pipeline row")
                    cell = ratios.setdefault((client, in_flight), {"before": [], "after": []})
                    cell[side].extend(own / base for own, base in zip(own_runs, bare_runs) if base > 0)
                    extra.setdefault((client, in_flight), {"before": [], "after": []})[side].append(
                        row["cpu_us_per_request"] - bare["cpu_us_per_request"])
    for in_flight in (1, 64):
        for client in ("dataFor", "provider"):
            if (client, in_flight) in ratios:
                target = "≥ 0.95" if client == "dataFor" and in_flight == 64 else ""
                table.add(f"{names[client]} / bare URLSession, {in_flight} in flight (req/s)",
                          ratios[(client, in_flight)], "ratio", target)
        for client in ("bare", "dataFor", "provider"):
            if (client, in_flight) in cpu:
                label = names.get(client, "bare URLSession")
                table.add(f"CPU per request, {label}, {in_flight} in flight", cpu[(client, in_flight)], "us")
        for client in ("dataFor", "provider"):
            if (client, in_flight) in extra:
                table.add(f"CPU per request over bare URLSession, {names[client]}, {in_flight} in flight",
                          extra[(client, in_flight)], "delta")
    table.print()


PEER_NAMES = {
    "bare-urlsession": "bare URLSession",
    "delegate-urlsession": "URLSession with a session delegate (reference)",
    "transport-urlsession": "URLSessionTransport alone",
    "provider-urlsession": "Provider + URLSessionTransport",
    "stages-urlsession": "Provider + URLSessionTransport, every stage on",
    "bare-ahc": "bare async-http-client",
    "bare-ahc-work": "bare async-http-client + 10 µs of work (reference)",
    "transport-ahc": "AsyncHTTPClientTransport alone",
    "task-ahc": "AsyncHTTPClientTransport alone, each request in a task of its own (reference)",
    "provider-ahc": "Provider + AsyncHTTPClientTransport",
    "stages-ahc": "Provider + AsyncHTTPClientTransport, every stage on",
}

# (client, the client it is compared with, target): ratios taken within a round and build.
PEER_RATIOS = [
    ("delegate-urlsession", "bare-urlsession", ""),
    ("transport-urlsession", "bare-urlsession", ""),
    ("provider-urlsession", "bare-urlsession", ""),
    ("stages-urlsession", "bare-urlsession", ""),
    ("provider-urlsession", "delegate-urlsession", "≥ 0.9"),
    ("stages-urlsession", "delegate-urlsession", "≥ 0.9"),
    ("transport-ahc", "bare-ahc", ""),
    ("task-ahc", "bare-ahc", ""),
    ("provider-ahc", "bare-ahc", "≥ 0.9"),
    ("stages-ahc", "bare-ahc", "≥ 0.9"),
    ("provider-ahc", "task-ahc", ""),
]


def peers_tables(lines):
    samples = {}
    for line in lines:
        parts = line["tag"].split()
        if parts[0] != "peers":
            continue
        kind, in_flight = parts[1], int(parts[2])
        result = line["result"]
        samples.setdefault((kind, in_flight), {"before": {}, "after": {}})[line["side"]][line["round"]] = (
            member(result, "requestsPerSecond", f"peers client {kind}"),
            member(result, "cpuPerRequest", f"peers client {kind}") * 1e6,
        )
    if not samples:
        return
    for in_flight in (1, 64):
        table = Table(f"`peers` HTTP clients, {in_flight} in flight: requests/s ratios to the bare client, "
                      "by round (same build, same round)")
        for client, base, target in PEER_RATIOS:
            own, other = samples.get((client, in_flight)), samples.get((base, in_flight))
            if not own or not other:
                continue
            values = {side: [own[side][r][0] / other[side][r][0] for r in own[side] if r in other[side]]
                      for side in ("before", "after")}
            table.add(f"{PEER_NAMES[client]} / {PEER_NAMES[base]}", values, "ratio", target)
        for client, base, _ in PEER_RATIOS:
            if not client.startswith(("provider", "stages")):
                continue
            own, other = samples.get((client, in_flight)), samples.get((base, in_flight))
            if not own or not other:
                continue
            values = {side: [own[side][r][1] - other[side][r][1] for r in own[side] if r in other[side]]
                      for side in ("before", "after")}
            table.add(f"CPU per request over {PEER_NAMES[base]}: {PEER_NAMES[client]}", values, "delta")
        for kind in PEER_NAMES:
            if (kind, in_flight) in samples:
                values = {side: [sample[0] for sample in samples[(kind, in_flight)][side].values()]
                          for side in ("before", "after")}
                table.rows.append((f"requests/s, {PEER_NAMES[kind]}", values, "rate", ""))
        table.print()


def main():
    if len(sys.argv) < 2:
        fail("usage: compare-core-table.py RAW.jsonl [ROUNDS]")
    lines = load(sys.argv[1])
    rounds = sys.argv[2] if len(sys.argv) > 2 else "?"
    print(f"BEFORE against AFTER, {rounds} rounds, the two builds taking turns within each round.")
    overhead_table(lines)
    pipeline_table(lines)
    peers_tables(lines)


if __name__ == "__main__":
    main()
