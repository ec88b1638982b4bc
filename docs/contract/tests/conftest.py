import os
import sys

# sockbench_contract is imported the way every component imports it: docs/contract on sys.path.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
