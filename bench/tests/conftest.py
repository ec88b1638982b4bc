import os
import sys


BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, BENCH_DIR)
# docs/contract holds sockbench_contract (READY parser, launcher, /proc reader, private Redis).
sys.path.insert(0, os.path.join(BENCH_DIR, "..", "docs", "contract"))
