#!/usr/bin/env python3
"""Code lines of the glue (src/) against the core (core/src/), without tests (issue 33: glue <= 0.6x).

A code line is a line that is neither blank nor only a comment. Left out as tests: items under
`#[cfg(test)]` or `#[cfg(any(test, feature = "pg_test"))]` (an inline module, or a module file
that such a `mod x;` names), and `#[pg_test]` functions. Usage: bench/code_size.py [--files N] [ROOT]
"""
import os
import re
import sys

TEST_ATTR = re.compile(r'^#\[cfg\((test|any\(test, feature = "pg_test"\))\)\]$')
MOD_DECL = re.compile(r'^(pub(\(crate\))? )?mod (\w+);$')


def code_lines(text):
    """(code lines, names of module files declared under a test attribute)."""
    lines = text.split('\n')
    count, test_mods, i, in_block = 0, [], 0, False
    while i < len(lines):
        line = lines[i].strip()
        if in_block:
            in_block = '*/' not in line
            i += 1
            continue
        if line.startswith('/*'):
            in_block = '*/' not in line
            i += 1
            continue
        if TEST_ATTR.match(line) or line == '#[pg_test]':
            i += 1
            while i < len(lines) and lines[i].strip().startswith('#['):
                i += 1
            decl = MOD_DECL.match(lines[i].strip()) if i < len(lines) else None
            if decl:
                test_mods.append(decl.group(3))
                i += 1
                continue
            depth, opened = 0, False
            while i < len(lines):
                depth += lines[i].count('{') - lines[i].count('}')
                opened = opened or '{' in lines[i]
                if (opened and depth <= 0) or (not opened and lines[i].strip().endswith(';')):
                    break
                i += 1
            i += 1
            continue
        if line and not line.startswith('//'):
            count += 1
        i += 1
    return count, test_mods


def tree(root):
    """Code lines per file of a source tree, test module files left out."""
    counts, excluded = {}, set()
    for folder, _, files in os.walk(root):
        for name in files:
            if not name.endswith('.rs'):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding='utf-8') as f:
                n, mods = code_lines(f.read())
            counts[path] = n
            base = folder if name in ('mod.rs', 'lib.rs') else os.path.join(folder, name[:-3])
            for m in mods:
                excluded.update({os.path.join(base, m + '.rs'), os.path.join(base, m, 'mod.rs')})
    # files under an excluded module's folder are tests too
    return {p: n for p, n in counts.items()
            if p not in excluded and not any(p.startswith(e[:-3] + '/') for e in excluded)}


def main():
    args = sys.argv[1:]
    top = 0
    if args[:1] == ['--files']:
        top, args = int(args[1]), args[2:]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    glue, core = tree(os.path.join(root, 'src')), tree(os.path.join(root, 'core', 'src'))
    g, c = sum(glue.values()), sum(core.values())
    print(f'glue {g} code lines, core {c}: glue/core = {g / c:.2f}x (target <= 0.6x)')
    for path, n in sorted(glue.items(), key=lambda x: -x[1])[:top]:
        print(f'{n:6} {os.path.relpath(path, root)}')


if __name__ == '__main__':
    main()
