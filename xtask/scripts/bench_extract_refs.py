"""Reference extractors for `cargo xtask bench-extract`.

Runs trafilatura and readability-lxml on every `<dir>/html/*.html.gz` page,
single-threaded, timing only the extraction call of each page (reading and
gunzipping the file, imports and interpreter start-up are excluded), and writes
`{"trafilatura": {"<id>": {"text": ..., "ms": ...}}, "readability-lxml": {...}}`
as JSON to the output path.

usage: python bench_extract_refs.py <benchmark dir> <output.json>
"""

import gzip
import json
import os
import sys
import time

import lxml.html
import trafilatura
from readability import Document


def readability_text(html):
    summary = Document(html).summary(html_partial=True)
    tree = lxml.html.fromstring(summary)
    # One line per block so that words of adjacent paragraphs do not merge.
    for el in tree.iter("p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "br", "tr", "blockquote", "pre"):
        el.tail = "\n" + (el.tail or "")
    return tree.text_content()


def main():
    bench_dir, out_path = sys.argv[1], sys.argv[2]
    html_dir = os.path.join(bench_dir, "html")
    pages = {}
    for name in sorted(os.listdir(html_dir)):
        if name.endswith(".html.gz"):
            with gzip.open(os.path.join(html_dir, name), "rb") as f:
                pages[name[: -len(".html.gz")]] = f.read().decode("utf-8", errors="replace")
    tools = {
        "trafilatura": lambda html: trafilatura.extract(html) or "",
        # The benchmark's article bodies never include comments.
        "trafilatura-no-comments": lambda html: trafilatura.extract(html, include_comments=False) or "",
        "readability-lxml": readability_text,
    }
    result = {}
    for tool, fn in tools.items():
        # Warm-up (imports, lazy initialisation) outside the timed loop.
        fn(next(iter(pages.values())))
        out = {}
        for pid, html in pages.items():
            t = time.perf_counter()
            try:
                text = fn(html)
            except Exception as e:  # a failing page scores as empty output
                print(f"{tool} failed on {pid}: {e}", file=sys.stderr)
                text = ""
            out[pid] = {"text": text, "ms": (time.perf_counter() - t) * 1000.0}
        result[tool] = out
        print(f"{tool}: {len(out)} pages", file=sys.stderr)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
