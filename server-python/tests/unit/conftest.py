import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
# fuzz_inputs.py, shared with tests/server, sits one level up.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
