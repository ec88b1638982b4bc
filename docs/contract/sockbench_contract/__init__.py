"""What several sockbench components share in Python: the READY line parser,
the server launcher, the /proc reader and the private redis-server helper.

Standard library only, for CPython 3.11-3.13 and PyPy alike, and importing
nothing from the components: the servers' tests and the bench both use it, so
it must not pull either one into the other. Importers put docs/contract on
sys.path and import `sockbench_contract.<module>`.
"""
