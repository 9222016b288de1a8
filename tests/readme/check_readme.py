#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""check_readme.py - the Markdown files show the code and output that the repository really has, and their links resolve.

A fenced block right after one of these marker lines (blank lines may come between) is checked:
  <!-- file: tests/readme/x.c -->     the block is the whole file, byte for byte
  <!-- excerpt: tests/readme/x.c -->  the block is taken from the file: its parts (separated by
                                      lines reading `/* ... */`) are runs of whole lines of the
                                      file, in order
  <!-- output: tests/readme/x.c -->   the block is what the program built from tests/readme/x.c
                                      prints (its path given with --exe tests/readme/x.c PATH)
Every C or C++ block of the top-level README must carry a file or excerpt marker, so a snippet
can only be code that the build compiles. Links: a relative link must name an existing file,
and an anchor (#...) must be the slug of a heading of the page it points to.

Usage: check_readme.py --root SRCDIR [--exe SOURCE PATH]... FILE.md...   (paths relative to SRCDIR)
"""
import argparse
import os
import re
import subprocess
import sys

MARKER = re.compile(r"^<!--\s*(file|excerpt|output):\s*(\S+)\s*-->\s*$")
FENCE = re.compile(r"^(```+)\s*([A-Za-z0-9+]*)\s*$")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
ELLIPSIS = "/* ... */"


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|<[^>]+>", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def parse(md_text):
    """Headings' slugs, fenced blocks as (marker or None, language, text, line number), and links outside blocks."""
    slugs, blocks, links = set(), [], []
    seen = {}
    lines = md_text.split("\n")
    marker, i = None, 0
    while i < len(lines):
        line = lines[i]
        m = FENCE.match(line)
        if m:
            fence, lang, start = m.group(1), m.group(2), i
            body = []
            i += 1
            while i < len(lines) and lines[i].rstrip() != fence:
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise SystemExit(f"line {start + 1}: fenced block never closed")
            blocks.append((marker, lang, "\n".join(body) + "\n" if body else "", start + 1))
            marker = None
        elif MARKER.match(line):
            marker = MARKER.match(line).groups() + (i + 1,)
        elif line.strip():
            if marker:
                raise SystemExit(f"line {marker[2]}: marker not followed by a fenced block")
            h = re.match(r"^#{1,6}\s+(.*)$", line)
            if h:
                s = slug(h.group(1))
                n = seen.get(s, 0)
                seen[s] = n + 1
                slugs.add(s if n == 0 else f"{s}-{n}")
            links += [(target, i + 1) for target in LINK.findall(re.sub(r"`[^`]*`", "", line))]
        i += 1
    return slugs, blocks, links


def excerpt_ok(block, source):
    """Each part of the block is a run of whole lines of the source, the parts in order."""
    src = source.rstrip("\n").split("\n")
    at = 0
    parts, part = [], []
    for line in block.rstrip("\n").split("\n"):
        if line.strip() == ELLIPSIS:
            parts.append(part)
            part = []
        else:
            part.append(line)
    parts.append(part)
    for part in parts:
        if not part:
            return False
        for start in range(at, len(src) - len(part) + 1):
            if src[start:start + len(part)] == part:
                at = start + len(part)
                break
        else:
            return False
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--exe", nargs=2, action="append", default=[], metavar=("SOURCE", "PATH"))
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    exes = dict(a.exe)
    errors, checked = [], 0
    pages = {}
    for md in a.files:
        with open(os.path.join(a.root, md), encoding="utf-8") as fh:
            pages[md] = parse(fh.read())
    for md, (slugs, blocks, links) in pages.items():
        for marker, lang, text, line in blocks:
            where = f"{md}:{line}"
            if marker is None:
                if md == "README.md" and lang.lower() in ("c", "cpp", "c++"):
                    errors.append(f"{where}: a {lang} block without a file or excerpt marker")
                continue
            kind, path = marker[0], marker[1]
            if kind == "output":
                if path not in exes:
                    errors.append(f"{where}: no program given for the output of {path} (--exe {path} PATH)")
                    continue
                run = subprocess.run([exes[path]], capture_output=True, text=True, timeout=60)
                if run.returncode != 0 or run.stdout != text:
                    errors.append(f"{where}: the output shown is not what {path} prints (exit {run.returncode}):\n"
                                  f"--- shown\n{text}--- printed\n{run.stdout}")
                checked += 1
                continue
            try:
                with open(os.path.join(a.root, path), encoding="utf-8") as fh:
                    source = fh.read()
            except OSError as ex:
                errors.append(f"{where}: quotes {path}, which cannot be read here ({ex.strerror})")
                continue
            ok = text == source if kind == "file" else excerpt_ok(text, source)
            if not ok:
                what = "the whole of" if kind == "file" else "an excerpt of"
                errors.append(f"{where}: the block is not {what} {path} as it is now")
            checked += 1
        for target, line in links:
            if re.match(r"^[a-z]+:", target):
                continue  # an external URL: not checked here
            path, _, anchor = target.partition("#")
            page = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
            if path and not os.path.exists(os.path.join(a.root, page)):
                errors.append(f"{md}:{line}: link to {target}: no such file")
                continue
            if anchor:
                if page not in pages:
                    errors.append(f"{md}:{line}: link to {target}: {page} is not one of the pages checked")
                elif anchor not in pages[page][0]:
                    errors.append(f"{md}:{line}: link to {target}: no heading with that anchor in {page}")
            checked += 1
    for e in errors:
        print("FAIL", e)
    print(f"check_readme: {checked} blocks and links checked in {len(a.files)} files, {len(errors)} wrong")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
