"""Scale-out: several server processes joined into one broadcast domain
through Redis pub/sub (``--workers``, ``--broker``; docs/protocol.md section 6,
docs/scaling-out.md).

- ``broker_url``: the ``--broker redis://HOST[:PORT][/DB]`` value, parsed once;
- ``envelope``: what one PUBLISH carries (the cross-runtime format; server-node's
  ``src/relay-envelope.js`` speaks the same);
- ``relay``: the asyncio Redis relay (redis-py's asyncio API), with the fault
  behaviour of the contract: local sessions never wait for Redis, a lost Redis
  is logged once, retried with backoff, and what was not relayed is counted.
"""
