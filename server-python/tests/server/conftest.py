import os
import sys

here = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(here, "..", "conformance"))
# fuzz_inputs.py, shared with tests/unit, sits one level up.
sys.path.insert(0, os.path.join(here, ".."))
