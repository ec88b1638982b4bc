"""The sans-I/O core and the application API stay free of Tornado."""
import subprocess
import sys


def test_the_core_imports_nothing_from_tornado():
    code = ("import sys; import sockbench_server.protocol.session, "
            "sockbench_server.protocol.transports, sockbench_server.protocol.wsframes, "
            "sockbench_server.protocol.codecs, sockbench_server.protocol.frames, "
            "sockbench_server.api, sockbench_server.apps; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'tornado'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
