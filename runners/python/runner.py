"""The `python` runner: drives the published toolnexus port (PyPI `toolnexus`) for the conformance
harness over the JSON-lines protocol of runners/PROTOCOL.md.

stdout carries protocol lines only. Before anything else is imported, the real stdout is kept for
the protocol and file descriptor 1 is pointed at stderr, so that a print() of the port (or of
anything it starts without its own pipes) can never corrupt the protocol stream.
"""
from __future__ import annotations

import asyncio
import os
import sys


def _claim_stdout():
    protocol_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return os.fdopen(protocol_fd, "w", encoding="utf-8", newline="\n", buffering=1)


def main() -> None:
    out = _claim_stdout()
    from protocol import serve  # noqa: E402 — after stdout is claimed

    try:
        asyncio.run(serve(out))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
