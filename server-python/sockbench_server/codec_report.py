"""``python -m sockbench_server.codec_report``: the codecs this interpreter
can run with, space-separated on stdout; refused ones and why on stderr."""
import sys

from .protocol.codecs import survey

usable, refused = survey()
for name, reason in refused.items():
    print("note: %s" % reason, file=sys.stderr)
print(" ".join(usable))
