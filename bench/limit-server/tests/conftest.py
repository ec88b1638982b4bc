"""The limit server's own tests use the conformance suite's clients and
launcher (docs/contract/conformance: serverproc, wsclient, sockjs_client) and
docs/contract's READY parser, never a copy of them."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path[:0] = [os.path.join(ROOT, "docs", "contract", "conformance"), os.path.join(ROOT, "docs", "contract")]
