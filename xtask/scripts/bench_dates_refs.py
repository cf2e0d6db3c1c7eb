#!/usr/bin/env python3
"""Reference publication dates for `cargo xtask bench-dates`: htmldate.

Usage: bench_dates_refs.py <benchmark dir> <out.json>
Runs htmldate's find_date(original_date=True, extensive_search=True) on every
page (with its URL, as in htmldate's own evaluation) and writes
{ "<id>": { "date": "YYYY-MM-DD" | null, "ms": float } }. Only the find_date
call is timed.
"""
import gzip, json, sys, time
from pathlib import Path

from htmldate import find_date

root = Path(sys.argv[1])
truth = json.loads((root / "ground-truth.json").read_text())
out = {}
for pid, ref in truth.items():
    raw = gzip.decompress((root / "html" / f"{pid}.html.gz").read_bytes())
    t = time.perf_counter()
    try:
        d = find_date(raw, url=ref.get("url"), original_date=True, extensive_search=True)
    except Exception:  # a crash on one page counts as "no date"
        d = None
    out[pid] = {"date": d, "ms": (time.perf_counter() - t) * 1000.0}
Path(sys.argv[2]).write_text(json.dumps(out))
