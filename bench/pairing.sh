#!/usr/bin/env bash
# Benchmark of the Swiss pairing against bbpPairings, round by round, for the FIDE Dutch system and
# the Burstein system:
#   BBP=/path/to/bbpPairings.exe bench/pairing.sh [sizes] [rounds]
#   (default sizes "50 300 1000 5000", 9 rounds; ROUNDS_<size>=k pairs only rounds 1..k of that
#   size, e.g. ROUNDS_5000=3)
#   SYSTEMS="dutch burstein" (the default) or one of them: the Burstein system is the core with
#       PAIR_TRF_SYSTEM=burstein, bbpPairings --burstein, system => 'burstein' in SQL (the files
#       have no XXA line, so both accelerate rounds 1 and 2 as the Burstein rules ask);
#   BBP_LIMIT seconds per bbpPairings run, default 600 (BBP_TIMEOUT is the older name): a run
#       stopped at the limit prints "> N s (stopped)" instead of a time, so the table stays
#       complete (bbpPairings' Dutch takes 41-96 s a round at 1,000 players and grows about as
#       n^2.75: hours at 5,000); BBP_SIZES="50 300" runs bbpPairings only at those sizes;
#   SQL=0 skips part 2, SQL_SIZES="50 300" limits it to those sizes.
# bbpPairings v6.0.0 (C++, its own Makefile: -O3 -flto) is the baseline; this script does not build
# it: give its executable in BBP (without BBP only pg_rating is measured).
#
# For each size a tournament's files are made first (a Python script below, fixed seed): round R's
# file holds rounds 1..R-1 (a simple Swiss-like pairing: score order, each player against the
# middle of its score group among the players it has not met, colours by preference; random
# results, 40 % wins, 20 % draws, 40 % losses; ratings from 2800 down a point every two players, 0 from
# player 5,601 on, as a TRF rating has 4 digits), `XXR`, `XXC white1`. Both engines pair round R from
# the same file in the same run:
# 1. the core (core/examples/pair_trf.rs, release build) and bbpPairings (`--dutch FILE -p OUT`,
#    `--burstein` likewise), one process each, wall time and peak memory (maximum resident set,
#    /usr/bin/time), and whether both made the same pairing; for pg_rating also the longest time
#    between two interrupt checks (PAIR_TRF_GAPS: how late a cancel or statement_timeout can stop
#    it, at most);
# 2. through SQL on a throwaway cluster (SELECT count(*) FROM tournament_pairings_from_trf(trf),
#    the median of three in one session, and the backend's peak memory (VmHWM) after them), for
#    rounds 1, 2 and the last of each size.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
sizes=${1:-50 300 1000 5000}
rounds=${2:-9}
bbp=${BBP:-}
bbp_limit=${BBP_LIMIT:-${BBP_TIMEOUT:-600}}
systems=${SYSTEMS:-${SYSTEM:-dutch burstein}}
for system in $systems; do
    [[ "$system" == dutch || "$system" == burstein ]] || { echo "SYSTEMS: dutch or burstein" >&2; exit 2; }
done
work=$(mktemp -d /tmp/pg_rating_pairing.XXXXXX)
chmod 755 "$work"
trap 'rm -rf "$work"' EXIT

cargo build --quiet --release -p pg_rating_core --example pair_trf
# (a copy: a rebuild while the bench runs does not change what it measures)
cp ./target/release/examples/pair_trf "$work/pair_trf"
ours=$work/pair_trf

# gen.py N ROUNDS OUTDIR: OUTDIR/N_rR.trf for R = 1..ROUNDS (the file before round R)
cat >"$work/gen.py" <<'PY'
import random, sys
n, rounds, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = random.Random(20261127 + n)
score = [0] * n                # half points
hist = [[] for _ in range(n)]  # (opponent or None, colour, result code)
met = [set() for _ in range(n)]
POINTS = {"1": 2, "=": 1, "0": 0, "U": 2}

def pref(p):
    cs = [c for (_, c, _) in hist[p] if c in "wb"]
    w = cs.count("w")
    b = len(cs) - w
    if w != b:
        return "b" if w > b else "w"
    return ("b" if cs[-1] == "w" else "w") if cs else None

def write(played):
    with open(f"{out}/{n}_r{played + 1}.trf", "w") as f:
        f.write("012 pairing bench, %d players\n" % n)
        for p in range(n):
            pts = sum(POINTS[x] for (_, _, x) in hist[p][:played])
            line = "001 %4d      %-33s %4d%28s%4.1f %4d  " % (
                p + 1, "Player %05d" % (p + 1), max(0, 2800 - p // 2), "", pts / 2, p + 1)
            for (o, c, x) in hist[p][:played]:
                line += "%4s %s %s  " % ("0000" if o is None else o + 1, c, x)
            f.write(line.rstrip() + "\n")
        f.write("XXR %d\nXXC white1\n" % rounds)

write(0)
for r in range(rounds - 1):
    order = sorted(range(n), key=lambda p: (-score[p], p))
    free = set(order)
    pairs = []
    bye = None
    if n % 2:
        bye = next(p for p in reversed(order) if all(o is not None for (o, _, _) in hist[p]))
        free.discard(bye)
    for p in order:
        if p not in free:
            continue
        free.discard(p)
        cand = [q for q in order if q in free and q not in met[p]]
        same = [q for q in cand if score[q] == score[p]]
        q = same[len(same) // 2] if same else (cand[0] if cand else next(q for q in order if q in free))
        free.discard(q)
        pairs.append((p, q))
    for (p, q) in pairs:
        pp, pq = pref(p), pref(q)
        white = p if pp == "w" or pq == "b" or (pp is None and pq is None and rng.random() < 0.5) else q
        black = q if white == p else p
        x = rng.random()
        res = ("1", "0") if x < 0.4 else ("=", "=") if x < 0.6 else ("0", "1")
        hist[white].append((black, "w", res[0]))
        hist[black].append((white, "b", res[1]))
        score[white] += POINTS[res[0]]
        score[black] += POINTS[res[1]]
        met[p].add(q)
        met[q].add(p)
    if bye is not None:
        hist[bye].append((None, "-", "U"))
        score[bye] += 2
    write(r + 1)
PY

# run LIMIT OUT CMD...: CMD's output into OUT; prints "seconds peak_MiB", "stopped" when stopped at
# LIMIT seconds, "-" on failure
run() {
    local limit=$1 out=$2
    shift 2
    local start end
    start=$(date +%s%N)
    local status=0
    timeout "$limit" /usr/bin/time -o "$work/time" -f '%M' "$@" >"$out" 2>"$work/stderr" || status=$?
    end=$(date +%s%N)
    if [[ $status == 0 ]]; then
        awk -v ns=$((end - start)) '{printf "%.3f %.0f", ns / 1e9, $1 / 1024}' "$work/time"
    elif [[ $status == 124 ]]; then
        echo stopped
    else
        echo "-"
    fi
}

echo "1. one process per pairing: pg_rating's core (pair_trf, release) and bbpPairings on the same file"
echo "   ($(nproc) cores, load average at the start: $(cut -d' ' -f1-3 /proc/loadavg))"
[[ -n "$bbp" ]] || echo "   (BBP not set: bbpPairings not measured)"
for n in $sizes; do
    last_var="ROUNDS_$n"
    python3 "$work/gen.py" "$n" "${!last_var:-$rounds}" "$work"
done
for system in $systems; do
    echo
    echo "$system system"
    printf '%7s %5s | %10s %9s %8s | %18s %9s | %8s %s\n' players round "pg_rating s" "peak MiB" \
        "gap ms" "bbpPairings s" "peak MiB" "bbp/ours" "same pairing"
    for n in $sizes; do
        last_var="ROUNDS_$n"
        last=${!last_var:-$rounds}
        for r in $(seq 1 "$last"); do
            f="$work/${n}_r$r.trf"
            read -r ot om _ <<<"$(PAIR_TRF_SYSTEM=$system PAIR_TRF_GAPS=1 run 3600 "$work/ours.out" "$ours" "$f") -"
            gap=$(sed -n 's/^longest gap between interrupt checks: \([0-9.]*\) ms$/\1/p' "$work/stderr")
            bt=- bm=- same=- ratio=-
            if [[ -n "$bbp" && " ${BBP_SIZES:-$sizes} " == *" $n "* ]]; then
                read -r bt bm _ <<<"$(run "$bbp_limit" /dev/null "$bbp" "--$system" "$f" -p "$work/bbp.out") -"
                if [[ "$bt" == stopped ]]; then
                    bt="> $bbp_limit s (stopped)" bm=-
                    ratio=$(awk -v b="$bbp_limit" -v o="$ot" 'BEGIN { if (o > 0) printf "> %.0f", b / o; else print "-" }')
                elif [[ "$bt" != - ]]; then
                    cmp -s "$work/ours.out" "$work/bbp.out" && same=yes || same=NO
                    ratio=$(awk -v b="$bt" -v o="$ot" 'BEGIN { if (o > 0) printf "%.1f", b / o; else print "-" }')
                else
                    bt="failed"
                fi
            fi
            printf '%7s %5s | %10s %9s %8s | %18s %9s | %8s %s\n' "$n" "$r" "$ot" "$om" "${gap:--}" "$bt" \
                "$bm" "$ratio" "$same"
        done
    done
done

[[ "${SQL:-1}" == 1 ]] || exit 0
exec 9>"$PG_LOCK"
flock 9
install_extension --release >/dev/null 2>&1 || { echo "cargo pgrx install --release failed" >&2; exit 1; }
bench_cluster_start
trap 'cluster_stop; rm -rf "$work"' EXIT
flock -u 9
psql -X -q -d postgres -c "CREATE DATABASE bench_pairing"
psql -X -q -d bench_pairing -c "CREATE EXTENSION pg_rating"

echo
echo "2. through SQL: SELECT count(*) FROM tournament_pairings_from_trf(trf, system => S), median of 3 in one"
echo "   session, and the backend's peak memory after them (VmHWM)"
for system in $systems; do
for n in ${SQL_SIZES:-$sizes}; do
    last_var="ROUNDS_$n"
    last=${!last_var:-$rounds}
    for r in $(printf '%s\n' 1 2 "$last" | sort -un); do
        f="$work/${n}_r$r.trf"
        [[ -f "$f" ]] || continue
        # the text read by psql itself (a large file is too long for an argument)
        out=$(printf '%s\n' "\\set trf \`cat $f\`" 'SELECT pg_backend_pid() AS pid \gset' '\setenv BACKEND :pid' '\timing on' \
                "SELECT count(*) FROM tournament_pairings_from_trf(:'trf', system => '$system');" \
                "SELECT count(*) FROM tournament_pairings_from_trf(:'trf', system => '$system');" \
                "SELECT count(*) FROM tournament_pairings_from_trf(:'trf', system => '$system');" \
                '\timing off' '\! grep VmHWM /proc/$BACKEND/status' \
            | psql -X -q -v ON_ERROR_STOP=1 -d bench_pairing)
        ms=$(sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' <<<"$out" | sort -g | sed -n 2p)
        kb=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' <<<"$out")
        printf '%9s %7s players, round %2s: %10s ms, backend peak %6s MiB\n' "$system" "$n" "$r" "$ms" \
            "$(( ${kb:-0} / 1024 ))"
    done
done
done
