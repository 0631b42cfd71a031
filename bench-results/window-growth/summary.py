#!/usr/bin/env python3
"""Prints the window-growth run's table: ops/s per case and round (sample mode: threads / mean latency)."""
import glob, json, os, re, statistics, sys
out = os.path.dirname(os.path.abspath(__file__))
rows = {}
for path in sorted(glob.glob(os.path.join(out, "*.json"))):
    name = os.path.basename(path)[:-5]
    case, rnd = re.match(r"(.*)-r(\d+)$", name).groups()
    data = json.load(open(path))
    if not data:
        continue
    d = data[0]; m = d["primaryMetric"]
    if d["mode"] == "sample":
        scale = {"ms": 1e3, "us": 1e6}[m["scoreUnit"].split("/")[0]]
        ops = d["threads"] * scale / m["score"]
        p99 = m["scorePercentiles"]["99.0"]
        rows.setdefault(case, []).append((int(rnd), ops, p99, m["scoreUnit"]))
    else:
        rows.setdefault(case, []).append((int(rnd), m["score"], None, ""))
for case, values in rows.items():
    values.sort()
    ops = [v[1] for v in values]
    p99 = [v[2] for v in values if v[2] is not None]
    print(f"{case:32s} ops/s {' / '.join(f'{o:,.1f}' for o in ops):40s} median {statistics.median(ops):,.1f}"
          + (f"   p99 {' / '.join(f'{p:,.1f}' for p in p99)} {values[0][3]}" if p99 else ""))
