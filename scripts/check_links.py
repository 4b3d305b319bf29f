#!/usr/bin/env python3
"""Checks the repository's Markdown files, tracked or new (not ignored):

- every link resolves inside the repository: a relative link names a file or directory that exists
  (and a #fragment a heading of that file); a link never leaves the repository. Web links (http,
  https, mailto) are not followed.
- no line of a Markdown table (a line starting with `|`, outside code blocks) is longer than
  MAX_TABLE_LINE characters, so that tables fit on a screen: turn a wide table into a list.

Prints each problem with its file (and line) and exits 1 if there is any."""
import re
import subprocess
import sys
from pathlib import Path

MAX_TABLE_LINE = 120

root = Path(__file__).resolve().parent.parent
files = sorted(set(subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
                                  cwd=root, capture_output=True, text=True, check=True).stdout.split()))
files = [name for name in files if (root / name).is_file()]
link = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
fence = re.compile(r"^\s*(```|~~~)")


def prose_lines(text):
    """(line number, line) of every line outside fenced code blocks."""
    inside = None
    for number, line in enumerate(text.splitlines(), 1):
        m = fence.match(line)
        if m:
            if inside is None:
                inside = m.group(1)
            elif m.group(1) == inside:
                inside = None
            continue
        if inside is None:
            yield number, line


def anchors(path):
    """GitHub's anchors of a Markdown file's headings (a repeated heading gets -1, -2, ...)."""
    out = set()
    for _, line in prose_lines(path.read_text()):
        m = re.match(r"#+\s+(.*)", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            candidate, n = slug, 0
            while candidate in out:
                n += 1
                candidate = f"{slug}-{n}"
            out.add(candidate)
    return out


problems = []
count = 0
for name in files:
    source = root / name
    text = source.read_text()
    # the file with its code blocks blanked (line numbers kept), so that a link's text may wrap
    lines = [""] * len(text.splitlines())
    for number, line in prose_lines(text):
        lines[number - 1] = line
        if line.startswith("|") and len(line) > MAX_TABLE_LINE:
            problems.append(f"{name}:{number}: a table line of {len(line)} characters "
                            f"(at most {MAX_TABLE_LINE}); make the table narrower or a list")
    prose = "\n".join(lines)
    for m in link.finditer(prose):
        target = m.group(1)
        if re.match(r"(https?|mailto):", target):
            continue
        count += 1
        number = prose.count("\n", 0, m.start(1)) + 1
        path, _, fragment = target.partition("#")
        resolved = (source.parent / path).resolve() if path else source
        if root not in resolved.parents and resolved != root:
            problems.append(f"{name}:{number}: {target} leaves the repository")
        elif not resolved.exists():
            problems.append(f"{name}:{number}: {target} does not exist")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            problems.append(f"{name}:{number}: {target} names no heading of {resolved.relative_to(root)}")
for p in problems:
    print(p)
print(f"{count} links in {len(files)} Markdown files, {len(problems)} problems "
      f"(broken links or table lines over {MAX_TABLE_LINE} characters)")
sys.exit(1 if problems else 0)
