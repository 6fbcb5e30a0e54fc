#!/usr/bin/env python3
"""Fit Sift's calibrated relevance (Sources/Sift/Ranking/RelevanceModel.swift) on judged results.

Input: the TSV `sift eval --all --features FILE` writes (query, document, rank, grade,
relevance and the evidence: keyword, coverage, cosine and their raw figures), one row per
result; only each query's top 10 are read. The target is grade > 0. The model is a logistic regression over the features, fitted by iteratively
reweighted least squares (Newton's method on the log-likelihood) with a small ridge penalty,
standard library only, deterministic.

Fit on SciFact *train* only (the judged top 10 of each train query, every mode separately):

    sift eval --dataset ../shared/datasets/scifact --split train --mode hybrid --all \\
        --features /tmp/train-hybrid.tsv
    python3 scripts/fit-relevance.py /tmp/train-hybrid.tsv --mode hybrid

It prints the coefficients as RelevanceModel.Coefficients takes them, the fit's log-loss and
expected calibration error (ten bins) on the file itself, and with --check FILE the same
figures on another dump (e.g. Cranfield, which the fit never sees). --svg FILE draws the
reliability diagram of every file (predicted against observed share relevant, per bin).
"""
import argparse
import math
import sys

FEATURES = {
    "hybrid": ["keyword", "coverage", "cosine"],
    "keyword": ["keyword", "coverage"],
    "semantic": ["coverage", "cosine"],
}
DEPTH = 10


def load(path, names):
    rows, ys = [], []
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        col = {n: header.index(n) for n in names + ["grade"]}
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != len(header) or int(parts[header.index("rank")]) > DEPTH:
                continue
            x = [1.0]
            for n in names:
                v = parts[col[n]]
                x.append(float(v) if v not in ("", "nan") else 0.0)
            rows.append(x)
            ys.append(1.0 if int(parts[col["grade"]]) > 0 else 0.0)
    return rows, ys


def sigmoid(z):
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def solve(a, b):
    """Gaussian elimination with partial pivoting: a x = b."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            raise SystemExit("singular system: a feature is constant or duplicated")
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows, ys, ridge=1e-3, iterations=50):
    d = len(rows[0])
    w = [0.0] * d
    for _ in range(iterations):
        grad = [0.0] * d
        hess = [[0.0] * d for _ in range(d)]
        for x, y in zip(rows, ys):
            p = sigmoid(sum(wi * xi for wi, xi in zip(w, x)))
            s = p * (1 - p)
            for i in range(d):
                grad[i] += (y - p) * x[i]
                for j in range(d):
                    hess[i][j] += s * x[i] * x[j]
        for i in range(1, d):  # no penalty on the intercept
            grad[i] -= ridge * w[i]
            hess[i][i] += ridge
        step = solve(hess, grad)
        w = [wi + si for wi, si in zip(w, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def figures(w, rows, ys, bins=10):
    ps = [sigmoid(sum(wi * xi for wi, xi in zip(w, x))) for x in rows]
    eps = 1e-12
    loss = -sum(y * math.log(p + eps) + (1 - y) * math.log(1 - p + eps) for p, y in zip(ps, ys)) / len(ys)
    total, ece = len(ps), 0.0
    table = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        idx = [i for i, p in enumerate(ps) if (lo <= p < hi) or (b == bins - 1 and p == 1.0)]
        if not idx:
            continue
        conf = sum(ps[i] for i in idx) / len(idx)
        acc = sum(ys[i] for i in idx) / len(idx)
        ece += len(idx) / total * abs(conf - acc)
        table.append((lo, hi, len(idx), conf, acc))
    return loss, ece, table


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("features", help="the TSV from sift eval --all --features")
    ap.add_argument("--mode", choices=sorted(FEATURES), required=True)
    ap.add_argument("--check", action="append", default=[], help="another dump to report figures on")
    ap.add_argument("--ridge", type=float, default=1e-3)
    ap.add_argument("--svg", help="write the reliability diagram of every file here")
    ap.add_argument("--labels", help="with --svg: comma-separated names of the files, fit first (default: the file names)")
    ap.add_argument(
        "--coefficients",
        help="no fit: report and draw these coefficients, comma-separated in the mode's order "
        "(intercept, then the mode's features: e.g. the shipped RelevanceModel's)")
    args = ap.parse_args()
    names = FEATURES[args.mode]
    rows, ys = load(args.features, names)
    if not rows:
        sys.exit(f"{args.features}: no rows")
    if args.coefficients:
        try:
            w = [float(x) for x in args.coefficients.split(",")]
        except ValueError:
            sys.exit(f"--coefficients: not numbers: {args.coefficients!r}")
        if len(w) != len(names) + 1:
            sys.exit(f"--coefficients: {args.mode} mode takes {len(names) + 1} (intercept, {', '.join(names)}), got {len(w)}")
    else:
        w = fit(rows, ys, ridge=args.ridge)
    coef = dict(zip(["intercept"] + names, w))
    swift = ", ".join(f"{k}: {coef.get(k, 0.0):.4f}" for k in ["intercept", "keyword", "coverage", "cosine"])
    print(f"mode {args.mode}: {len(rows)} results, {int(sum(ys))} relevant")
    print(f"Coefficients({swift})" + (" (given, not fitted)" if args.coefficients else ""))
    curves = []
    for label, path in [("fit", args.features)] + [("check", p) for p in args.check]:
        r, y = (rows, ys) if label == "fit" else load(path, names)
        loss, ece, table = figures(w, r, y)
        names_given = args.labels.split(",") if args.labels else []
        name = names_given[len(curves)] if len(curves) < len(names_given) else f"{label}: {path.rsplit('/', 1)[-1]}"
        curves.append((f"{name} (ECE {ece:.3f})", table))
        print(f"{label} {path}: log-loss {loss:.4f}  ECE {ece:.4f}  ({len(r)} results, {int(sum(y))} relevant)")
        for lo, hi, n, conf, acc in table:
            print(f"    [{lo:.1f}, {hi:.1f})  n={n:5d}  predicted {conf:.3f}  observed {acc:.3f}")
    if args.svg:
        with open(args.svg, "w") as f:
            f.write(svg(curves, f"Calibrated relevance, {args.mode} mode: reliability over ten bins"))


def svg(curves, title):
    """A reliability diagram: mean predicted against observed share relevant per bin, marker
    area by the bin's count, the diagonal for perfect calibration."""
    size, pad = 420, 50
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]

    def xy(p, q):
        return pad + p * size, pad + (1 - q) * size

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size + 2 * pad + 260}" height="{size + 2 * pad}" font-family="sans-serif" font-size="12">',
           f'<text x="{pad}" y="{pad - 20}" font-size="14">{title}</text>',
           f'<rect x="{pad}" y="{pad}" width="{size}" height="{size}" fill="none" stroke="#888"/>',
           f'<line x1="{pad}" y1="{pad + size}" x2="{pad + size}" y2="{pad}" stroke="#bbb" stroke-dasharray="4 3"/>']
    for t in range(0, 11, 2):
        x, y = xy(t / 10, t / 10)
        out.append(f'<text x="{x - 8}" y="{pad + size + 16}">{t / 10:.1f}</text>')
        out.append(f'<text x="{pad - 30}" y="{y + 4}">{t / 10:.1f}</text>')
    out.append(f'<text x="{pad + size / 2 - 60}" y="{pad + size + 36}">predicted relevance</text>')
    out.append(f'<text x="12" y="{pad + size / 2}" transform="rotate(-90 12 {pad + size / 2})">observed share relevant</text>')
    for i, (label, table) in enumerate(curves):
        c = colours[i % len(colours)]
        total = sum(n for _, _, n, _, _ in table) or 1
        points = [xy(conf, acc) for _, _, _, conf, acc in table]
        out.append('<polyline fill="none" stroke="%s" points="%s"/>' % (c, " ".join(f"{x:.1f},{y:.1f}" for x, y in points)))
        for (x, y), (_, _, n, _, _) in zip(points, table):
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{2 + 10 * math.sqrt(n / total):.1f}" fill="{c}" fill-opacity="0.5"/>')
        out.append(f'<rect x="{pad + size + 20}" y="{pad + 20 * i}" width="12" height="12" fill="{c}"/>')
        out.append(f'<text x="{pad + size + 38}" y="{pad + 20 * i + 11}">{label}</text>')
    out.append("</svg>\n")
    return "\n".join(out)


if __name__ == "__main__":
    main()
