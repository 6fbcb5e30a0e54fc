#!/usr/bin/env python3
"""Ranking-quality gate: runs `sift eval` for every entry of Benchmarks/quality.json against
../shared/datasets and fails when a figure falls below its floor (the figure reached so far,
rounded down). Evaluations are deterministic, so any drop is a real regression.

usage: quality-gate.py [--shared DIR] [--sift BINARY]
"""
import json, os, shutil, subprocess, sys, tempfile

def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    args = sys.argv[1:]
    shared = args[args.index("--shared") + 1] if "--shared" in args else os.path.join(root, "..", "shared")
    sift = args[args.index("--sift") + 1] if "--sift" in args else os.path.join(root, ".build", "release", "sift")
    datasets = os.path.join(shared, "datasets")
    if not os.path.isdir(datasets):
        print(f"quality gate: {datasets} not present, skipped")
        return 0
    with open(os.path.join(root, "Benchmarks", "quality.json")) as f:
        gates = json.load(f)["gates"]
    typo_dirs = {}
    try:
        return run_gates(gates, sift, shared, datasets, typo_dirs)
    finally:
        for d in typo_dirs.values():
            shutil.rmtree(d, ignore_errors=True)

def run_gates(gates, sift, shared, datasets, typo_dirs):
    failed = passed = 0
    for gate in gates:
        cmd = [sift, "eval", "--json"]
        if "similarity" in gate:
            cmd += ["--similarity", os.path.join(datasets, "similarity", gate["similarity"])]
            label = f"similarity {gate['similarity']}"
        else:
            ds = os.path.join(datasets, gate["dataset"])
            cmd += ["--dataset", ds, "--split", gate.get("split", "test"), "--mode", gate["mode"]]
            label = f"{gate['dataset']}/{gate.get('split', 'test')} {gate['mode']}"
            if "typo_seed" in gate:
                seed = gate["typo_seed"]
                if seed not in typo_dirs:
                    d = tempfile.mkdtemp(prefix="sift-typo-")
                    subprocess.run([sys.executable, os.path.join(shared, "tools", "typo_queries.py"), ds, d, "--seed", str(seed)], check=True, stdout=subprocess.DEVNULL)
                    typo_dirs[seed] = d
                cmd += ["--queries", os.path.join(typo_dirs[seed], "queries.jsonl")]
                label += f" typos(seed {seed})"
            if "as_you_type" in gate:
                cmd += ["--as-you-type", str(gate["as_you_type"])]
                label += " as-you-type"
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            print(f"FAIL {label}: sift eval exited {out.returncode}: {out.stderr.strip()[:300]}")
            failed += 1
            continue
        result = json.loads(out.stdout)
        value = result[gate["metric"]]
        ok = value >= gate["floor"]
        print(f"{'ok  ' if ok else 'FAIL'} {label}: {gate['metric']} {value:.4f} (floor {gate['floor']:.4f})")
        passed += ok
        failed += not ok
    print(f"quality gate: {passed} passed, {failed} failed")
    return 1 if failed else 0

sys.exit(main())
