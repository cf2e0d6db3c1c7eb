"""Reference extractors for `cargo xtask bench-extract`.

Runs the reference tools on every `<dir>/html/*.html.gz` page of one text
corpus, single-threaded, timing only the extraction call of each page (reading
and gunzipping the file, imports and interpreter start-up are excluded), and
writes `{"<tool>": {"<id>": {"text": ..., "ms": ...}}, ...}` as JSON to the
output path. Tools: trafilatura (defaults and `include_comments=False`) and
readability-lxml.

- `article`: pages decoded as UTF-8 (the corpus is UTF-8).
- `with-without`: the bytes as served (each tool decodes them itself, as it
  would in production).

(The publication-date corpus has its own script, `bench_dates_refs.py`.)

usage: python bench_extract_refs.py <article|with-without> <benchmark dir> <output.json>
"""

import gzip
import json
import os
import sys
import time

import lxml.html


def readability_text(html):
    from readability import Document

    summary = Document(html).summary(html_partial=True)
    tree = lxml.html.fromstring(summary)
    # One line per block so that words of adjacent paragraphs do not merge.
    for el in tree.iter("p", "div", "li", "h1", "h2", "h3", "h4", "h5", "h6", "br", "tr", "blockquote", "pre"):
        el.tail = "\n" + (el.tail or "")
    return tree.text_content()


def text_tools():
    import trafilatura

    return {
        "trafilatura": lambda html: trafilatura.extract(html) or "",
        # The benchmarks' bodies never include comments.
        "trafilatura-no-comments": lambda html: trafilatura.extract(html, include_comments=False) or "",
        "readability-lxml": readability_text,
    }


def main():
    kind, bench_dir, out_path = sys.argv[1], sys.argv[2], sys.argv[3]
    html_dir = os.path.join(bench_dir, "html")
    pages = {}
    for name in sorted(os.listdir(html_dir)):
        if name.endswith(".html.gz"):
            with gzip.open(os.path.join(html_dir, name), "rb") as f:
                raw = f.read()
            pid = name[: -len(".html.gz")]
            pages[pid] = raw.decode("utf-8", errors="replace") if kind == "article" else raw
    if kind not in ("article", "with-without"):
        sys.exit(f"unknown corpus kind {kind!r} (article, with-without)")
    tools = text_tools()
    result = {}
    for tool, fn in tools.items():
        # Warm-up (imports, lazy initialisation) outside the timed loop.
        try:
            fn(next(iter(pages.values())))
        except Exception:
            pass
        out = {}
        for pid, html in pages.items():
            t = time.perf_counter()
            try:
                value = fn(html)
            except Exception as e:  # a failing page scores as empty output
                print(f"{tool} failed on {pid}: {e}", file=sys.stderr)
                value = ""
            out[pid] = {"text": value, "ms": (time.perf_counter() - t) * 1000.0}
        result[tool] = out
        print(f"{tool}: {len(out)} pages", file=sys.stderr)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main()
