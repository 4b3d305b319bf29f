#!/usr/bin/env python3
"""Every link of the repository's Markdown files resolves inside the repository: a relative link
names a file or directory that exists (and a #fragment a heading of that file); a link never
leaves the repository. Web links (http, https, mailto) are not followed. Exit 1 on any broken link."""
import re
import subprocess
import sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
files = subprocess.run(["git", "ls-files", "*.md"], cwd=root, capture_output=True, text=True,
                       check=True).stdout.split()
link = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def anchors(path):
    """GitHub's anchors of a Markdown file's headings."""
    out = set()
    for line in path.read_text().splitlines():
        m = re.match(r"#+\s+(.*)", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            out.add(slug)
    return out


broken = []
count = 0
for name in files:
    source = root / name
    text = re.sub(r"```.*?```", "", source.read_text(), flags=re.S)
    for target in link.findall(text):
        if re.match(r"(https?|mailto):", target):
            continue
        count += 1
        path, _, fragment = target.partition("#")
        resolved = (source.parent / path).resolve() if path else source
        if root not in resolved.parents and resolved != root:
            broken.append(f"{name}: {target} leaves the repository")
        elif not resolved.exists():
            broken.append(f"{name}: {target} does not exist")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            broken.append(f"{name}: {target} names no heading of {resolved.relative_to(root)}")
for b in broken:
    print(b)
print(f"{count} links in {len(files)} Markdown files, {len(broken)} broken")
sys.exit(1 if broken else 0)
