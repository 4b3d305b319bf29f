#!/usr/bin/env python3
"""Docs that are tests (issue 35): every ```sql block of the pages a newcomer follows runs, word for word,
against fresh databases of the test cluster, and where the page shows output (a ```text block right after the
```sql block) psql's output must equal it.

What a page may say to this test, in HTML comments that readers do not see:
  <!-- doctest: database=NAME -->            (before the first block) the page runs in database NAME, created
                                            empty for it; a block may name another one, created empty at its
                                            first use, and the blocks after it run there too
  <!-- doctest: after=PAGE.md -->           (page) the database starts as PAGE.md's blocks leave it
  <!-- doctest: role=NAME -->               (block, or page) run as NAME: psql logs in as NAME (the page
                                            creates it with LOGIN), so its settings IN DATABASE apply
  <!-- doctest: roles=A,B -->               (page) roles the page creates: dropped before it runs, so that a
                                            page runs again on the same cluster
  <!-- doctest: skip REASON -->             (block) not run, and the reason says why (a shell command, ...)
The page's first doctest comment is the page's (database=, after=, roles=); every other one is the next block's.
A ```sql block inside a multi-line HTML comment (`<!-- Set-up ...`, the block, `-->`) runs like any other: a
set-up the reader does not see (the reference's pages create their extension so).
Blocks run in page order, each in a session of its own, with ON_ERROR_STOP unless they show their output: an
error that the page does not show fails the test, naming the page and the line of the statement.

Usage: docs_as_tests.py [PAGE ...]  (default: the pages below); PGHOST, PGPORT and PGUSER name a superuser of
the cluster. Exit 0 when every page holds.
"""
import difflib
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGES = [
    "README.md",
    "docs/getting-started-random-chess.md",
    "docs/getting-started-ledgers.md",
    "docs/analysts.md",
    "docs/operations.md",
    "docs/faq.md",
    "docs/troubleshooting.md",
    "docs/uninstalling.md",
    "docs/tuning.md",
    "docs/arbiters.md",
    # the reference's examples (each entry shows one with its output)
    "docs/reference/chess.md",
    "docs/reference/ratings.md",
    "docs/reference/types.md",
    "docs/reference/tournaments.md",
    "docs/reference/random-chess.md",
    "docs/reference/ledgers.md",
]
DIRECTIVE = re.compile(r"<!--\s*doctest:\s*(.*?)\s*-->")
PSQL_PREFIX = re.compile(r"^psql:[^:]*:(\d+): ")


class Block:
    def __init__(self, page, line, sql, options):
        self.page, self.line, self.sql, self.options = page, line, sql, options
        self.expected = None  # the ```text block after it, if any
        self.expected_line = None

    def where(self, offset=0):
        return f"{self.page}:{self.line + offset}"


def parse_options(text):
    """`key=value ...` pairs, or `skip reason...`."""
    if text.startswith("skip"):
        return {"skip": text[4:].strip() or "(no reason given)"}
    options = {}
    for word in text.split():
        if "=" not in word:
            raise SystemExit(f"doctest directive not understood: {text!r}")
        key, value = word.split("=", 1)
        options[key] = value
    return options


def extract(page):
    """The page's options and its ```sql blocks, each with the directives just before it and its output."""
    with open(os.path.join(REPO, page), encoding="utf-8") as f:
        lines = f.read().split("\n")
    page_options, blocks, pending = {}, [], {}
    seen_directive = False
    i = 0
    while i < len(lines):
        line = lines[i]
        m = DIRECTIVE.search(line)
        if m:
            options = parse_options(m.group(1))
            first_directive, seen_directive = not seen_directive, True
            if first_directive:
                page_options.update(options)
            else:
                pending.update(options)
            i += 1
            continue
        fence = line.strip()
        if fence.startswith("```"):
            lang = fence[3:].strip()
            start = i
            i += 1
            body = []
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            if i == len(lines):
                raise SystemExit(f"{page}:{start + 1}: code block never closed")
            if lang == "sql":
                # the block's first SQL line is line start + 2 of the page (1-based)
                blocks.append(Block(page, start + 2, "\n".join(body) + "\n", pending))
                pending = {}
                # output: the next non-blank line opens a ```text block
                j = i + 1
                while j < len(lines) and not lines[j].strip():
                    j += 1
                if j < len(lines) and lines[j].strip() == "```text":
                    k = j + 1
                    out = []
                    while k < len(lines) and lines[k].strip() != "```":
                        out.append(lines[k])
                        k += 1
                    blocks[-1].expected = out
                    blocks[-1].expected_line = j + 2
                    i = k
            elif pending:
                raise SystemExit(f"{page}:{start + 1}: a doctest directive stands before a ```{lang} block")
        i += 1
    return page_options, blocks


def psql(database, sql, stop_on_error):
    env = dict(os.environ, PGTZ="UTC", PGDATESTYLE="ISO, MDY")
    env.pop("PGDATABASE", None)
    args = ["psql", "-X", "-q", "-d", database, "-v", "VERBOSITY=default", "-P", "pager=off",
            "-v", f"ON_ERROR_STOP={1 if stop_on_error else 0}"]
    done = subprocess.run(args, input=sql, text=True, capture_output=True, env=env)
    return done.returncode, done.stdout, done.stderr


def fresh(database):
    code, _, err = psql("postgres", f'DROP DATABASE IF EXISTS "{database}";\nCREATE DATABASE "{database}";\n', True)
    if code:
        raise SystemExit(f"cannot create database {database}: {err}")


def normalise(lines):
    lines = [l.rstrip() for l in lines]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def run_block(block, database, role):
    sql = block.sql
    env = dict(os.environ, PGTZ="UTC", PGDATESTYLE="ISO, MDY")
    env.pop("PGDATABASE", None)
    stop = block.expected is None
    args = ["psql", "-X", "-q", "-d", database, "-v", "VERBOSITY=default", "-P", "pager=off",
            "-v", f"ON_ERROR_STOP={1 if stop else 0}"] + (["-U", role] if role else [])
    # read from a file, so that psql prefixes each message with the line of its statement; stdout and stderr
    # on one pipe: results and messages in the order psql wrote them
    with tempfile.NamedTemporaryFile("w", suffix=".sql") as f:
        f.write(sql)
        f.flush()
        done = subprocess.run(args + ["-f", f.name], text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              env=env)
    lines = []
    failures = []
    for line in done.stdout.split("\n"):
        m = PSQL_PREFIX.match(line)
        if m:
            stmt_line = int(m.group(1))
            line = line[m.end():]
            if line.startswith("ERROR:") and stop:
                failures.append(f"{block.where(stmt_line - 1)}: {line}")
        elif failures and line.startswith(("DETAIL:", "HINT:", "CONTEXT:")):
            failures[-1] += "\n    " + line
        lines.append(line)
    if stop:
        if done.returncode and not failures:
            failures.append(f"{block.where()}: psql exited {done.returncode}: {done.stdout.strip()}")
        return failures
    got, want = normalise(lines), normalise(block.expected)
    if got != want:
        diff = "\n".join(difflib.unified_diff(want, got, "page", "psql", lineterm="", n=2))
        return [f"{block.where()}: output differs from the page's (shown at line {block.expected_line}):\n{diff}"]
    return []


def run_page(page, seen=None, databases=None):
    """Runs a page's blocks (after those of the page it follows); returns (failures, ran, compared, skipped)."""
    seen = seen if seen is not None else []
    if page in seen:
        raise SystemExit(f"{page}: `after=` goes round in a circle: {seen}")
    options, blocks = extract(page)
    databases = databases if databases is not None else set()
    failures = []
    home = options.get("database")
    if "roles" in options:
        names = {options.get("database")} | {b.options["database"] for b in blocks if "database" in b.options}
        drops = "".join(f'DROP DATABASE IF EXISTS "{n}";\n' for n in sorted(n for n in names if n))
        drops += "".join(f'DROP ROLE IF EXISTS "{r}";\n' for r in options["roles"].split(","))
        code, _, err = psql("postgres", drops, True)
        if code:
            raise SystemExit(f"{page}: cannot drop what an earlier run left: {err}")
        databases.clear()
    if "after" in options:
        before = os.path.join(os.path.dirname(page), options["after"])
        before_options, _ = extract(before)
        failures += run_page(before, seen + [page], databases)[0]
        home = before_options.get("database")
        if "database" in options and options["database"] != home:
            raise SystemExit(f"{page}: `after={options['after']}` runs in {home}, not {options['database']}")
    if blocks and not home:
        raise SystemExit(f"{page}: has ```sql blocks but no `<!-- doctest: database=NAME -->` before them")
    if home and home not in databases and "after" not in options:
        fresh(home)
        databases.add(home)
    ran = compared = skipped = 0
    current = home
    for block in blocks:
        if "skip" in block.options:
            skipped += 1
            continue
        database = current = block.options.get("database", current)
        if database not in databases:
            fresh(database)
            databases.add(database)
        role = block.options.get("role", options.get("role"))
        failures += run_block(block, database, role)
        ran += 1
        compared += block.expected is not None
    return failures, ran, compared, skipped


def main():
    pages = sys.argv[1:] or [p for p in PAGES if os.path.exists(os.path.join(REPO, p))]
    all_failures = []
    for page in pages:
        # each page on databases of its own, from scratch (a page run after another reruns that one)
        failures, ran, compared, skipped = run_page(page)
        print(f"{page}: {ran} blocks run, {compared} outputs compared, {skipped} skipped"
              f"{'' if not failures else f', {len(failures)} FAILED'}")
        all_failures += failures
    for f in all_failures:
        print(f"FAILED {f}")
    if all_failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
