#!/usr/bin/env python3
"""Every object the two extensions create is in the reference, and every object the reference gives an entry
exists (issue 35). Run by the integration harness on a database with both extensions created.

- Created: the functions, procedures, tables, views, sequences and types that are members of pg_rating or
  pg_rating_random_chess (pg_depend, deptype 'e'), without a table's row type, an array type or a sequence
  owned by a column (documented with its table: `serial`).
- Documented: a name written in backticks in docs/reference/*.md (`name` or `name(...)`, also schema-free).
- An entry: a heading of docs/reference/*.md made of names in backticks (`## \\`ledger_attach\\``): each of them
  must be a created object.
Prints what it compares; exit 1 naming each object missing on either side.
"""
import glob
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CREATED = """
SELECT DISTINCT kind, name FROM (
    SELECT CASE p.prokind WHEN 'p' THEN 'procedure' ELSE 'function' END AS kind, p.proname::text AS name
    FROM pg_depend d JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
    JOIN pg_extension x ON x.oid = d.refobjid
    WHERE d.deptype = 'e' AND x.extname IN ('pg_rating', 'pg_rating_random_chess')
    UNION ALL
    SELECT CASE c.relkind WHEN 'r' THEN 'table' WHEN 'p' THEN 'table' WHEN 'v' THEN 'view'
                          WHEN 'm' THEN 'view' WHEN 'S' THEN 'sequence' END, c.relname::text
    FROM pg_depend d JOIN pg_class c ON d.classid = 'pg_class'::regclass AND c.oid = d.objid
    JOIN pg_extension x ON x.oid = d.refobjid
    WHERE d.deptype = 'e' AND x.extname IN ('pg_rating', 'pg_rating_random_chess')
      AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
      -- a sequence a column owns is its table's (serial)
      AND NOT (c.relkind = 'S' AND EXISTS (SELECT FROM pg_depend o WHERE o.classid = 'pg_class'::regclass
                                           AND o.objid = c.oid AND o.deptype = 'a'
                                           AND o.refclassid = 'pg_class'::regclass))
    UNION ALL
    SELECT 'type', t.typname::text
    FROM pg_depend d JOIN pg_type t ON d.classid = 'pg_type'::regclass AND t.oid = d.objid
    JOIN pg_extension x ON x.oid = d.refobjid
    WHERE d.deptype = 'e' AND x.extname IN ('pg_rating', 'pg_rating_random_chess')
) o ORDER BY 1, 2
"""


def created():
    out = subprocess.run(["psql", "-X", "-A", "-t", "-F", "\t", "-c", CREATED], text=True, capture_output=True)
    if out.returncode:
        sys.exit(out.stderr)
    return [tuple(line.split("\t")) for line in out.stdout.splitlines() if line]


def documented():
    """(names in backticks anywhere in the reference, {name: where} of the entries' headings)."""
    names, entries = set(), {}
    for page in sorted(glob.glob(os.path.join(REPO, "docs/reference/*.md"))):
        rel = os.path.relpath(page, REPO)
        with open(page, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                for code in re.findall(r"`([^`]+)`", line):
                    for m in re.finditer(r"\b([a-z_][a-z0-9_]*)\b", code):
                        names.add(m.group(1))
                heading = re.match(r"^#{2,4} (`[^`]+`(?:, `[^`]+`)*)\s*$", line)
                if heading:
                    for name in re.findall(r"`([a-z_][a-z0-9_]*)(?:\(\))?`", heading.group(1)):
                        entries[name] = f"{rel}:{n}"
    return names, entries


def main():
    objects = created()
    names, entries = documented()
    failures = []
    for kind, name in objects:
        if name not in names:
            failures.append(f"{kind} {name}: created by the extensions, not in docs/reference/")
    exists = {name for _, name in objects}
    for name, where in sorted(entries.items()):
        if name not in exists:
            failures.append(f"{where}: `{name}` has an entry but the extensions create no such object")
    print(f"{len(objects)} objects created, {len(entries)} entries in the reference, {len(failures)} missing")
    for f in failures:
        print(f"FAILED {f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
