"""The bench's way into the server registry: an entry by name, the checkout's ROOT, and
server_command (an entry's argv with the contract flags and the knobs it accepts), which
lives with the registry in docs/contract/sockbench_contract/registry.py.
"""

# server_command lives with the registry (docs/contract) because make builds the
# same launches; it is re-exported here for the bench's callers.
from sockbench_contract.registry import ROOT, load, server_command  # noqa: F401  (ROOT: the checkout, for callers)


def entry(name):
    """The registry entry called `name` (docs/contract/server-registry.json); RegistryError if there is none."""
    return load().entry(name)
