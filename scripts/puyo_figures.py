#!/usr/bin/env python3
"""The Puyo figures of docs/notes/puyo.md from `stacktune play --json` reports.

    stacktune play --weights reports/puyo-tsu-beam-steps/tsu-beam.toml --fitness max_chain \
        --max-pieces 100 --games 500 --seed 2000001 --threads 1 --json > beam.json
    python3 scripts/puyo_figures.py beam.json [other.json ...]

One row per report: mean largest chain with its 95 % interval, median, the shares of games
reaching 12 and 14 chains, points per game, deaths and, for a report played with
`--fire-points` (ama's measure), the share of games that fired and the mean pair of the fire.
With two or more reports of the same games, each later one is also compared with the first,
game by game (paired): the mean difference of the largest chain with its 95 % interval.
Standard library only, so it runs wherever stacktune's Python does.
"""

import json
import math
import statistics
import sys


# Student's t 0.975 quantiles for 1 to 9 degrees of freedom (scipy.stats.t.ppf).
SMALL_T95 = [12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836,
             2.446911851, 2.364624252, 2.306004135, 2.262157163]


def t95(df):
    """The quantile `stacktune play`'s ci95 scales by (src/stats.rs `t95`), so the intervals
    here are the ones play reports: exact below 10 degrees of freedom, then the Cornish-Fisher
    series in 1/df that stats.rs uses from 500 on (within 1e-5 of the exact quantile at 10,
    1e-9 at 99)."""
    if df < 1:
        return 0.0
    if df <= len(SMALL_T95):
        return SMALL_T95[df - 1]
    x = 1.959963984540054
    x2, v = x * x, float(df)
    g1 = (x2 + 1.0) * x / 4.0
    g2 = ((5.0 * x2 + 16.0) * x2 + 3.0) * x / 96.0
    g3 = (((3.0 * x2 + 19.0) * x2 + 17.0) * x2 - 15.0) * x / 384.0
    g4 = ((((79.0 * x2 + 776.0) * x2 + 1482.0) * x2 - 1920.0) * x2 - 945.0) * x / 92160.0
    return x + (g1 + (g2 + (g3 + g4 / v) / v) / v) / v


def interval(values):
    """Mean and the half-width of its 95 % interval, as `stacktune play` reports them."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, 0.0
    return mean, t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))


def share(games, test):
    return 100.0 * sum(1 for g in games if test(g)) / len(games)


def row(name, report):
    games = report["per_game"]
    chains = [g["max_chain"] for g in games]
    points = [g["points"] for g in games]
    chain, chain_ci = interval(chains)
    mean_points, points_ci = interval(points)
    died = sum(g["died"] for g in games)
    cells = [
        name,
        str(len(games)),
        f"{chain:.2f} ± {chain_ci:.2f}",
        f"{statistics.median(chains):g}",
        f"{share(games, lambda g: g['max_chain'] >= 12):.1f} %",
        f"{share(games, lambda g: g['max_chain'] >= 14):.1f} %",
        f"{mean_points:,.0f} ± {points_ci:,.0f}",
        f"{died} ({100.0 * died / len(games):.1f} %)",
    ]
    if "fired_at" in games[0]:
        fired = [g["fired_at"] for g in games if g["fired_at"] > 0]
        pairs = f"{statistics.fmean(fired):.1f}" if fired else "-"
        cells += [f"{100.0 * len(fired) / len(games):.1f} %", pairs]
    return "| " + " | ".join(cells) + " |"


def main(paths):
    if not paths:
        sys.exit("usage: puyo_figures.py REPORT.json [REPORT.json ...]")
    reports = []
    for path in paths:
        try:
            with open(path) as f:
                reports.append(json.load(f))
        except (OSError, ValueError) as e:
            sys.exit(f"{path}: {e}")
        if not reports[-1].get("per_game"):
            sys.exit(f"{path}: no per_game rows: not a `play --json` report of Puyo games")
    header = ["report", "games", "mean largest chain", "median", "12+", "14+",
              "points per game", "died"]
    if "fired_at" in reports[0]["per_game"][0]:
        header += ["fired", "mean pairs to fire"]
    print("| " + " | ".join(header) + " |")
    print("|" + " --- |" * len(header))
    for path, report in zip(paths, reports):
        print(row(path, report))
    first = reports[0]["per_game"]
    for path, report in zip(paths[1:], reports[1:]):
        games = report["per_game"]
        if len(games) != len(first):
            continue
        diff, ci = interval([g["max_chain"] - f["max_chain"] for g, f in zip(games, first)])
        print(f"{path} - {paths[0]}: largest chain {diff:+.2f} ± {ci:.2f} (paired)")


if __name__ == "__main__":
    main(sys.argv[1:])
