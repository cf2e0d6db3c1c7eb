"""Reference authors for the author table of `cargo xtask bench-extract`.

Runs trafilatura's metadata extraction on every page listed in the labelled
author set (`xtask/data/authors.tsv`: corpus, page id, expected names) and
writes `{"<corpus>/<id>": {"authors": [...], "ms": ...}}` as JSON. trafilatura
joins several authors with "; "; they are split here. Only the
`extract_metadata` call is timed.

usage: python bench_authors_refs.py <authors.tsv> <benchmarks dir> <output.json>
"""

import gzip
import json
import os
import sys
import time


def main():
    from trafilatura.metadata import extract_metadata

    labels, bench_dir, out_path = sys.argv[1], sys.argv[2], sys.argv[3]
    out = {}
    with open(labels, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
    urls = {}
    for corpus, pid, *_ in rows:
        if corpus not in urls:
            with open(os.path.join(bench_dir, corpus, "ground-truth.json"), encoding="utf-8") as g:
                urls[corpus] = {k: v.get("url") for k, v in json.load(g).items()}
        with gzip.open(os.path.join(bench_dir, corpus, "html", pid + ".html.gz"), "rb") as g:
            raw = g.read()
        t = time.perf_counter()
        try:
            meta = extract_metadata(raw, default_url=urls[corpus].get(pid))
            author = meta.author if meta is not None else None
        except Exception as e:  # a failing page has no author
            print(f"trafilatura failed on {corpus}/{pid}: {e}", file=sys.stderr)
            author = None
        ms = (time.perf_counter() - t) * 1000.0
        names = [a.strip() for a in (author or "").split(";") if a.strip()]
        out[f"{corpus}/{pid}"] = {"authors": names, "ms": ms}
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
