"""Shared pieces of the python runner: the session of handles, the runner's own errors, and the
capture of the port's warnings (toolnexus prints them to stderr with a "[toolnexus]" prefix; it has
no logger option, so they are collected by redirecting sys.stderr around each call)."""
from __future__ import annotations

import asyncio
import contextlib
import contextvars
import io
import sys
from typing import Any, Callable, Iterator, Optional

WARNING_PREFIX = "[toolnexus]"


class ContractError(Exception):
    """A failure the runner reports itself (e.g. an unknown handle), with its protocol kind."""

    def __init__(self, kind: str, message: str, details: Optional[dict[str, Any]] = None, type: Optional[str] = None) -> None:  # noqa: A002
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.details = details
        self.type = type


class Unsupported(Exception):
    """The port has no way to perform this operation or option."""


# The notes of the operation in flight: what the runner substituted to perform it on this release
# (protocol `notes`, runners/PROTOCOL.md#requests-and-answers). protocol.Server.request gives each
# operation a fresh list before starting its task; the task's context shares that list.
_NOTES: contextvars.ContextVar[Optional[list[str]]] = contextvars.ContextVar("notes", default=None)


def begin_notes() -> tuple[list[str], contextvars.Token]:
    notes: list[str] = []
    return notes, _NOTES.set(notes)


def end_notes(token: contextvars.Token) -> None:
    _NOTES.reset(token)


def note(text: str) -> None:
    """Say, in the answer of the operation in flight, what the runner substituted (once per text)."""
    notes = _NOTES.get()
    if notes is not None and text not in notes:
        notes.append(text)


class _Tee(io.TextIOBase):
    """Forwards everything to the real stderr and keeps a copy."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.parts: list[str] = []

    def write(self, text: str) -> int:  # type: ignore[override]
        self.parts.append(text)
        self.real.write(text)
        return len(text)

    def flush(self) -> None:
        self.real.flush()

    def fileno(self) -> int:
        return self.real.fileno()

    def warnings(self) -> list[str]:
        lines = "".join(self.parts).splitlines()
        return [line for line in lines if line.startswith(WARNING_PREFIX)]


@contextlib.contextmanager
def capture_warnings(sink: list[str]) -> Iterator[None]:
    """Collect the port's "[toolnexus] ..." lines printed while the block runs into `sink`.

    Safe here because the runner performs one operation at a time."""
    tee = _Tee(sys.stderr)
    try:
        with contextlib.redirect_stderr(tee):
            yield
    finally:
        sink.extend(tee.warnings())


class Session:
    """Handles live until session.reset; cleanups close what the session opened."""

    def __init__(self) -> None:
        self.clients: dict[str, Any] = {}
        self.toolkits: dict[str, Any] = {}
        self.cleanups: list[Callable[[], Any]] = []

    async def reset(self) -> None:
        cleanups, self.cleanups = self.cleanups, []
        self.clients = {}
        self.toolkits = {}
        for cleanup in cleanups:
            try:
                await cleanup()
            except BaseException as error:  # noqa: BLE001 — a reset never fails
                if isinstance(error, (KeyboardInterrupt, SystemExit)):
                    raise
                print(f"python runner: cleanup failed: {error!r}", file=sys.stderr)


def require(mapping: dict[str, Any], name: Any, what: str) -> Any:
    entry = mapping.get(str(name))
    if entry is None:
        raise ContractError("other", f'no {what} named "{name}" in this session')
    return entry


def cancel_event_after(ms: Optional[int]) -> tuple[Optional[asyncio.Event], Callable[[], None]]:
    """An asyncio.Event set `ms` milliseconds from now (the port's cancellation token), and a
    function that stops the timer once the operation has settled."""
    if ms is None:
        return None, lambda: None
    event = asyncio.Event()
    if ms <= 0:
        event.set()
        return event, lambda: None
    handle = asyncio.get_running_loop().call_later(ms / 1000.0, event.set)
    return event, handle.cancel
