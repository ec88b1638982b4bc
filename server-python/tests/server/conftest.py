import os
import sys

here = os.path.dirname(__file__)
contract = os.path.join(here, "..", "..", "..", "docs", "contract")
# The conformance suite's server launcher (serverproc.py) and the shared
# sockbench_contract package it and these tests use live in docs/contract.
sys.path.insert(0, os.path.join(contract, "conformance"))
sys.path.insert(0, contract)
# fuzz_inputs.py, shared with tests/unit, sits one level up.
sys.path.insert(0, os.path.join(here, ".."))
