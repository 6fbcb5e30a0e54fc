"""Unit tests of scripts/scaling-table.py on a made-up two-size run.

Run: python3 -m unittest discover -s scripts/tests
"""

import importlib.util
import os
import unittest

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("scaling_table", os.path.join(_HERE, "..", "scaling-table.py"))
st = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(st)

RUN = {
    "results": [
        {"n": 1000, "measure": "index", "per_s": 20000.0, "peer_per_s": 40000.0, "ratio": 0.5},
        {"n": 10000, "measure": "index", "per_s": 10000.0, "peer_per_s": 40000.0, "ratio": 0.25},
        {"n": 1000, "measure": "query.keyword", "p50_ms": 0.02, "peer_p50_ms": 0.06, "ratio": 3.0},
        {"n": 10000, "measure": "query.keyword", "p50_ms": 0.2, "peer_p50_ms": 0.6, "ratio": 3.0},
        {"n": 10000, "measure": "query.hybrid", "p50_ms": 0.5, "bound_ms": 1.0, "exact_p50_ms": 0.7,
         "agreement_at_10": 1.0},
    ]
}

SPLIT = {
    "results": RUN["results"] + [
        {"n": 1000, "measure": "memory", "bytes_per_item": 3000.0, "disk_bytes_per_item": 3500.0},
        {"n": 10000, "measure": "memory", "bytes_per_item": 1500.0, "disk_bytes_per_item": 3400.0,
         "anonymous_bytes_per_item": 400.0, "mapped_file_bytes_per_item": 1100.0},
    ]
}


class ScalingTableTests(unittest.TestCase):
    def test_growth_between_sizes(self):
        self.assertEqual(st.growth([1.0, 10.0, 5.0]), ["×10.00", "×0.50"])
        self.assertEqual(st.growth([None, 2.0]), ["—"])

    def test_rows_peers_and_missing_sizes(self):
        lines = st.table(RUN).splitlines()
        self.assertEqual(lines[0], "| measure | 1,000 | 10,000 | growth per step | peer or bound, same run (at each N) |")
        indexing = next(l for l in lines if l.startswith("| indexing"))
        self.assertIn("| 20,000 | 10,000 | ×0.50 |", indexing)
        self.assertIn("1,000: FTS5 40,000/s (0.50×)", indexing)
        keyword = next(l for l in lines if l.startswith("| keyword"))
        self.assertIn("×10.00", keyword)
        hybrid = next(l for l in lines if l.startswith("| hybrid"))
        # Measured at 10k only: 1k is a dash and there is no growth to give.
        self.assertIn("| — | 0.5 | — |", hybrid)
        self.assertIn("10,000: bound 1 ms (0.50×), exact path 0.7 ms, top-10 agreement 1.000", hybrid)
        self.assertFalse(any(l.startswith("| memory, anonymous") for l in lines))

    def test_memory_split_rows_where_measured(self):
        lines = st.table(SPLIT).splitlines()
        self.assertIn("| memory (B/item) | 3,000 | 1,500 | ×0.50 |", "\n".join(lines))
        anonymous = next(l for l in lines if l.startswith("| memory, anonymous"))
        self.assertIn("| — | 400 | — |", anonymous)
        mapped = next(l for l in lines if l.startswith("| memory, mapped file"))
        self.assertIn("| — | 1,100 | — |", mapped)


if __name__ == "__main__":
    unittest.main()
