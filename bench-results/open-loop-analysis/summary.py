#!/usr/bin/env python3
"""The open-loop analysis: ghz's percentiles beside Triple's server-side histogram, and CPU per call."""
import gzip, json, os, re
out = os.path.dirname(os.path.abspath(__file__))
TICK = os.sysconf("SC_CLK_TCK")

def ghz(path):
    d = json.load(gzip.open(path) if path.endswith(".gz") else open(path))
    pct = {p["percentage"]: p["latency"] / 1e6 for p in d["latencyDistribution"]}
    return d["count"], d["rps"], pct

def buckets(path):
    counts = {}
    for line in open(path):
        m = re.match(r'grpc_server_call_duration_seconds_bucket\{(.*)\} ([0-9.eE+]+)', line)
        if m and 'getUser' in m.group(1):
            le = re.search(r'le="([^"]+)"', m.group(1)).group(1)
            bound = float("inf") if le == "+Inf" else float(le)
            counts[bound] = counts.get(bound, 0) + float(m.group(2))
    return counts

def quantile(delta, q):
    total = max(delta.values())
    for le in sorted(delta):
        if delta[le] >= q * total:
            return le * 1e3
    return float("inf")

for name in ("triple", "triple-direct", "grpc"):
    for load in (50, 75):
        path = os.path.join(out, f"{name}-{load}.json")
        if not os.path.exists(path):
            path += ".gz"
        if not os.path.exists(path):
            continue
        count, rps, pct = ghz(path)
        ticks = int(open(os.path.join(out, f"{name}-{load}-server-ticks.txt")).read())
        user, system = map(float, open(os.path.join(out, f"{name}-{load}-ghz-cpu.txt")).read().split()[-2:])
        line = (f"{name} {load}%: {rps:,.0f} calls/s; ghz p50 {pct[50]:.2f} p90 {pct[90]:.2f} p99 {pct[99]:.2f} ms; "
                f"server CPU {ticks / TICK * 1e6 / count:.1f} us/call, ghz CPU {(user + system) * 1e6 / count:.1f} us/call")
        before = os.path.join(out, f"{name}-{load}-metrics-before.txt")
        if os.path.exists(before):
            b, a = buckets(before), buckets(os.path.join(out, f"{name}-{load}-metrics-after.txt"))
            delta = {le: a[le] - b.get(le, 0) for le in a}
            line += (f"; server-side (grpc.server.call.duration, bucket bounds) p50 <= {quantile(delta, 0.5):.3f} ms, "
                     f"p99 <= {quantile(delta, 0.99):.3f} ms over {max(delta.values()):,.0f} calls")
        print(line)
