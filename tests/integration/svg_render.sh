#!/usr/bin/env bash
# board_svg and ledger_rating_svg give pictures a real renderer draws: both are well-formed SVG
# (Python's XML parser), rsvg-convert (librsvg2-bin) turns them into PNGs of the asked size, and
# pixels of the PNGs have the expected colours: on the board the frame, a light and a dark square,
# both squares of the last move and two pieces; on the chart the background and the players' lines.
set -euo pipefail
q() { psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
command -v rsvg-convert >/dev/null || { echo "rsvg-convert is missing (Debian package librsvg2-bin)"; exit 1; }
work=$(mktemp -d /tmp/pg_rating_svg.XXXXXX)
trap 'rm -rf "$work"' EXIT

# 1. e4 e5 2. Nf3, drawn 400 pixels wide: g1 (dark) and f3 (light) are the last move's squares.
q -c "SELECT board_svg('rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2', 'g1f3', 400)" \
    > "$work/board.svg"

# A ledger with two players, a game every other day from 2025-03-01 (UTC).
q <<'SQL'
SET TimeZone = 'UTC';
CREATE TABLE svg_games (id int PRIMARY KEY, played_at timestamptz NOT NULL, white text, black text, score float8);
INSERT INTO ledgers (name, k_factor) VALUES ('svg render', 32);
SELECT ledger_attach('svg render', 'svg_games', 'id', 'played_at', 'white', 'black', 'score');
INSERT INTO svg_games
SELECT i, timestamptz '2025-03-01' + (i - 1) * interval '2 days', CASE WHEN i % 2 = 1 THEN 'ann' ELSE 'bob' END,
       CASE WHEN i % 2 = 1 THEN 'bob' ELSE 'ann' END, CASE WHEN i % 3 = 0 THEN 0.5 ELSE 1 END
FROM generate_series(1, 12) i;
SQL
q -c "SET TimeZone = 'UTC'" -c "SELECT ledger_rating_svg('svg render', '{ann,bob,carl}', '', 500, 300)" \
    > "$work/chart.svg"

rsvg-convert -o "$work/board.png" "$work/board.svg"
rsvg-convert -o "$work/chart.png" "$work/chart.svg"

python3 - "$work" <<'PY'
import struct, sys, zlib
import xml.etree.ElementTree as ET

work = sys.argv[1]
SVG = "{http://www.w3.org/2000/svg}"
failures = []


def check(what, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'} {what}{': ' + detail if detail else ''}")
    if not ok:
        failures.append(what)


def read_png(path):
    """Width, height and a pixel function (r, g, b, a) of an 8-bit RGB or RGBA PNG, decoded with zlib."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    bpp = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line

    def pixel(x, y):
        px = rows[y][x * bpp:(x + 1) * bpp]
        return tuple(px) if bpp == 4 else tuple(px) + (255,)

    return width, height, pixel


def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def near(p, colour, tolerance=12):
    return p[3] == 255 and all(abs(a - b) <= tolerance for a, b in zip(p, rgb(colour)))


def document(path, width, height):
    root = ET.parse(path).getroot()
    check(f"{path.split('/')[-1]} is an SVG 1.1 document of {width}x{height}",
          root.tag == SVG + "svg" and root.get("version") == "1.1" and root.get("width") == str(width)
          and root.get("height") == str(height) and root.get("viewBox") is not None,
          f"{root.tag} {root.attrib}")
    return root


# ---- the board: 400 pixels showing user units 0..360 (squares of 40 from 20) ----
root = document(f"{work}/board.svg", 400, 400)
fills = {(r.get("x"), r.get("y")): r.get("fill") for r in root.iter(SVG + "rect") if r.get("width") == "40"}
width, height, pixel = read_png(f"{work}/board.png")
check("board PNG is 400x400", (width, height) == (400, 400), f"{width}x{height}")
scale = 400 / 360


def square(name):
    """User-unit origin of a square, white at the bottom."""
    f, r = ord(name[0]) - ord("a"), int(name[1]) - 1
    return 20 + 40 * f, 20 + 40 * (7 - r)


def at(ux, uy):
    return pixel(int(ux * scale), int(uy * scale))


for name, colour in [("h3", "#ecdcbc"), ("a3", "#a97c5a"), ("g1", "#c9ad34"), ("f3", "#f2e26e")]:
    x, y = square(name)
    check(f"board: {name} is {colour} in the SVG", fills.get((str(x), str(y))) == colour, fills.get((str(x), str(y))))
    # a corner of the square, where no piece reaches
    p = at(x + 3, y + 3)
    check(f"board: {name} renders {colour}", near(p, colour), str(p))
check("board: the frame renders #3a332c", near(at(5, 5), "#3a332c"), str(at(5, 5)))
# the middle of a king's and of a queen's body: the piece's own colour, not the square's
x, y = square("e1")
check("board: the white king renders white", near(at(x + 20, y + 24), "#fdfcf7"), str(at(x + 20, y + 24)))
x, y = square("d8")
check("board: the black queen renders black", near(at(x + 20, y + 24), "#2a2622"), str(at(x + 20, y + 24)))

# ---- the chart: 500x300 pixels, user units = pixels ----
root = document(f"{work}/chart.svg", 500, 300)
width, height, pixel = read_png(f"{work}/chart.png")
check("chart PNG is 500x300", (width, height) == (500, 300), f"{width}x{height}")
check("chart: the background renders white", near(pixel(3, 3), "#ffffff") and near(pixel(496, 296), "#ffffff"),
      f"{pixel(3, 3)} {pixel(496, 296)}")
lines = list(root.iter(SVG + "polyline"))
check("chart: two lines (carl has no games)", len(lines) == 2, str(len(lines)))
legend = [t.text for t in root.iter(SVG + "text") if t.text and ("ann" in t.text or "bob" in t.text or "carl" in t.text)]
check("chart: the legend names the three players", legend == ["ann", "bob", "carl (no games)"], str(legend))
for line in lines:
    colour = line.get("stroke")
    points = [tuple(float(v) for v in p.split(",")) for p in line.get("points").split()]
    # the middle of a segment that goes somewhere, found within a pixel of where it should be
    (x1, y1), (x2, y2) = max(zip(points, points[1:]), key=lambda s: abs(s[0][0] - s[1][0]) + abs(s[0][1] - s[1][1]))
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    around = [pixel(int(mx) + dx, int(my) + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    check(f"chart: the line renders {colour} at ({mx:.1f}, {my:.1f})", any(near(p, colour, 40) for p in around),
          str(around[4]))
for dot in root.iter(SVG + "circle"):
    cx, cy, colour = float(dot.get("cx")), float(dot.get("cy")), dot.get("fill")
    p = pixel(round(cx), round(cy))
    check(f"chart: the latest rating's dot renders {colour} at ({cx}, {cy})", near(p, colour), str(p))
# ann's line starts at 1500 on 2025-03-01: where the axes' labels put that point
import datetime
dates, ratings = [], []
for t in root.iter(SVG + "text"):
    if t.get("text-anchor") == "middle" and t.text and len(t.text) == 10:
        dates.append((datetime.date.fromisoformat(t.text).toordinal(), float(t.get("x"))))
    elif t.get("text-anchor") == "end":
        ratings.append((float(t.text), float(t.get("y")) - 4))
(d1, x1), (d2, x2) = dates[0], dates[-1]
(r1, y1), (r2, y2) = ratings[0], ratings[-1]
want = (x1 + (datetime.date(2025, 3, 1).toordinal() - d1) / (d2 - d1) * (x2 - x1), y1 + (1500 - r1) / (r2 - r1) * (y2 - y1))
first = [tuple(float(v) for v in p.split(",")) for p in lines[0].get("points").split()][0]
check("chart: ann's line starts at 2025-03-01, 1500 as the axes label them",
      abs(first[0] - want[0]) < 0.02 and abs(first[1] - want[1]) < 0.02, f"{first}, axes say {want}")
# (bob's line starts there too, drawn after ann's: his colour is on top)
around = [pixel(int(first[0]) + dx, int(first[1]) + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
check(f"chart: that point renders {lines[-1].get('stroke')}", any(near(p, lines[-1].get("stroke"), 40) for p in around),
      str(around[4]))

if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
PY
