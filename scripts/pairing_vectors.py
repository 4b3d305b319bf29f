#!/usr/bin/env python3
"""Forfeit-heavy and bye-heavy tournaments made by bbpPairings' generator, against pg_rating's
Dutch (or Burstein) pairing. An offline step: it needs a bbpPairings executable (v6.0.0, built from
its source with `make`), which CI does not have; CI replays the tournaments kept in
core/tests/data/pairing.

    BBP=/path/to/bbpPairings.exe scripts/pairing_vectors.py [--burstein] check [FIRST COUNT]
        generates tournaments FIRST..FIRST+COUNT-1 (default 1 200) into a temporary directory and
        pairs every round of each with pg_rating_core from the rounds before it
        (core/tests/pairing_data.rs, `any_directory_of_generated_tournaments`, release build);
        exits 1 unless every round equals bbpPairings'.
    BBP=/path/to/bbpPairings.exe scripts/pairing_vectors.py [--burstein] keep
        writes the tournaments of KEEP into core/tests/data/pairing/gen_SEED.trf (the same files
        again: the generator is deterministic for a configuration and a seed).

--burstein: the Burstein system instead (`--burstein -g`, files burstein_SEED.trf, KEEP_BURSTEIN,
PAIRING_SYSTEM=burstein for the test). bbpPairings' Burstein generator crashes (heap corruption)
on many seeds: those are left out like the seeds it cannot finish.

Tournament SEED: `bbpPairings.exe --dutch -g CONFIG -o FILE -s SEED` with the configuration
`config(SEED)`: 10-150 players, 5-11 rounds, a draw percentage, and one of MIXES by SEED % 6 (a
rate of N: about one in N games forfeited, players with a half-point bye, players retiring).
A seed whose tournament bbpPairings cannot finish (no pairing for some round) is left out.
"""
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEPT = ROOT / "core" / "tests" / "data" / "pairing"

MIXES = [
    {"ForfeitRate": 2},
    {"ForfeitRate": 3},
    {"ForfeitRate": 3, "RetiredRate": 6},
    {"HalfPointByeRate": 2, "RetiredRate": 10},
    {"ForfeitRate": 2, "HalfPointByeRate": 3, "RetiredRate": 5},
    {"ForfeitRate": 1.5, "HalfPointByeRate": 4},
]

# Kept in the repository (README.md there lists them): the top seed without a colour in round 1
# (2, 14, 41, 57, 119, 189), a bracket of three moved-down players who all met (10, round 8),
# small ones (31, 43, 56, 123), 10 and 11 rounds (72, 82, 87) and 150 players (35, 48).
KEEP = [2, 10, 14, 31, 35, 41, 43, 48, 56, 57, 72, 82, 87, 119, 123, 189]

# Burstein tournaments kept (README.md there lists them): 10 to 148 players, every mix; 25 needs
# bbpPairings' order of comparisons when a bracket sorts its floater (round 2); 377 has half-point
# byes in round 1 (who takes part in round 1 decides the acceleration).
KEEP_BURSTEIN = [25, 69, 121, 206, 290, 334, 377, 769, 906, 987]


def config(seed):
    """The generator's configuration for tournament `seed` (Key=value lines)."""
    rnd = random.Random(seed)
    players, rounds = rnd.randint(10, 150), rnd.randint(5, 11)
    draws = rnd.choice([0, 20, 30, 50])
    lines = [f"PlayersNumber={players}", f"RoundsNumber={rounds}", f"DrawPercentage={draws}"]
    lines += [f"{k}={v}" for k, v in MIXES[seed % len(MIXES)].items()]
    return "\n".join(lines) + "\n"


def generate(bbp, out, seeds, system="dutch"):
    """Writes gen_SEED.trf (burstein_SEED.trf) into `out` for each seed bbpPairings finishes;
    returns those seeds."""
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            cfg = Path(tmp) / f"c{seed}.txt"
            cfg.write_text(config(seed))
            prefix = "burstein" if system == "burstein" else "gen"
            trf = Path(out) / f"{prefix}_{seed}.trf"
            run = subprocess.run([bbp, f"--{system}", "-g", str(cfg), "-o", str(trf), "-s", str(seed)],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                print(f"seed {seed}: left out ({run.stderr.strip() or run.stdout.strip()})")
                trf.unlink(missing_ok=True)
            else:
                made.append(seed)
    return made


def main():
    bbp = os.environ.get("BBP")
    if not bbp or not os.access(bbp, os.X_OK):
        sys.exit("BBP must name a bbpPairings executable (v6.0.0)")
    args = sys.argv[1:]
    system = "dutch"
    if args and args[0] == "--burstein":
        system, args = "burstein", args[1:]
    action = args[0] if args else "check"
    if action == "keep":
        made = generate(bbp, KEPT, KEEP_BURSTEIN if system == "burstein" else KEEP, system)
        print(f"kept {len(made)} tournaments in {KEPT}")
        return
    if action != "check":
        sys.exit(__doc__)
    first = int(args[1]) if len(args) > 1 else 1
    count = int(args[2]) if len(args) > 2 else 200
    with tempfile.TemporaryDirectory() as out:
        made = generate(bbp, out, range(first, first + count), system)
        print(f"{len(made)} tournaments generated; pairing every round")
        run = subprocess.run(
            ["cargo", "test", "--release", "-p", "pg_rating_core", "--test", "pairing_data",
             "any_directory_of_generated_tournaments", "--", "--nocapture"],
            cwd=ROOT, env={**os.environ, "PAIRING_TRF_DIR": out, "PAIRING_SYSTEM": system})
        sys.exit(run.returncode)


if __name__ == "__main__":
    main()
