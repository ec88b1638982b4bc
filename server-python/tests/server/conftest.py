import os
import sys

here = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(here, "..", "conformance"))
