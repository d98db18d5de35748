"""Protocol plumbing for the python runner: read requests from stdin, one at a time, answer on the
protocol stream, map the port's exceptions to protocol error kinds (runners/PROTOCOL.md)."""
from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
import time
import traceback
from typing import Any, Awaitable, Callable, TextIO

from common import ContractError, Session, Unsupported, begin_notes, end_notes

PROTOCOL_VERSION = 2
PACKAGE = "toolnexus"
# The releases this runner drives (hello `implementation.supports`): every release from the oldest one
# it was verified against (handshake and the whole suite; README.md "Versions"). Older releases may
# lack what the runner imports.
SUPPORTS = ">=0.9.0"

# Capabilities are detected on the installed port (features.py); errors the port has no type for
# (e.g. the standard library's http.client.IncompleteRead when a body ends early) are reported as
# `other`.

Handler = Callable[[dict[str, Any], Session], Awaitable[Any]]


def unsupported(seq: Any, elapsed_ms: float, reason: str) -> dict[str, Any]:
    """The answer for an operation or option the port has no way to perform: error kind `unsupported`."""
    return {"type": "error", "seq": seq, "elapsedMs": elapsed_ms, "error": {"kind": "unsupported", "message": reason}}


def _json_default(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return str(value)


def _type_name(error: BaseException) -> str:
    cls = type(error)
    return f"{cls.__module__}.{cls.__qualname__}"


def _port_error_classes() -> dict[str, Any]:
    """The port's error types, found by name (feature detection, not a version table): the typed
    HTTP error is `ProviderError` since toolnexus 0.20.0 and a private `_HttpError` before it (0.21.0
    still has `_HttpError`, as an alias of `ProviderError`). A name the installed port lacks is None."""
    try:
        import toolnexus.client as client_module
    except Exception:  # noqa: BLE001 — without the port only runner errors can be classified
        return {"http": None, "timeout": None, "cancelled": None}
    return {
        "http": getattr(client_module, "ProviderError", None) or getattr(client_module, "_HttpError", None),
        "timeout": getattr(client_module, "RunTimeout", None),
        "cancelled": getattr(client_module, "RunCancelled", None),
    }


def _is(error: BaseException, cls: Any) -> bool:
    return isinstance(cls, type) and isinstance(error, cls)


def _http_body(error: BaseException) -> Any:
    """The body the port's HTTP error carries: `.body` (ProviderError, redacted by the port) or, on
    ports before it, `.text` (_HttpError, the body as received)."""
    if hasattr(error, "body"):
        return getattr(error, "body")
    return getattr(error, "text", None)


def classify(error: BaseException, op: str = "") -> dict[str, Any]:
    """The port's exception as a protocol error {kind, type, message, details?}."""
    message = str(error) or type(error).__name__
    if isinstance(error, ContractError):
        out = {"kind": error.kind, "type": error.type or "runner.ContractError", "message": error.message}
        if error.details is not None:
            out["details"] = error.details
        return out
    classes = _port_error_classes()
    if _is(error, classes["http"]):
        return {
            "kind": "http",
            "type": _type_name(error),
            "message": message,
            "details": {"status": getattr(error, "status", None), "bodyExcerpt": _http_body(error)},
        }
    if _is(error, classes["timeout"]):  # before TimeoutError: RunTimeout is one
        return {"kind": "deadline", "type": _type_name(error), "message": message}
    if _is(error, classes["cancelled"]) or isinstance(error, asyncio.CancelledError):
        return {"kind": "cancelled", "type": _type_name(error), "message": message}
    return {"kind": "other", "type": _type_name(error), "message": message}


def safe_classify(error: BaseException, op: str = "") -> dict[str, Any]:
    """classify(), and if classifying itself fails (a runner bug, or a port shaped unlike any this
    runner knows) still a typed error: kind `other` with the port's type, never a runner crash."""
    try:
        return classify(error, op)
    except Exception as failure:  # noqa: BLE001
        print(f"python runner: could not classify {error!r}: {failure!r}", file=sys.stderr)
        try:
            message = str(error) or type(error).__name__
        except Exception:  # noqa: BLE001
            message = type(error).__name__
        return {"kind": "other", "type": _type_name(error), "message": message}


class Server:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.session = Session()
        self.operations: dict[str, Handler] | None = None
        self.unavailable: str | None = None

    def write(self, message: dict[str, Any]) -> None:
        self.out.write(json.dumps(message, default=_json_default, ensure_ascii=False) + "\n")
        self.out.flush()

    def load(self) -> None:
        """Import the port and the op families; an import failure makes the runner unavailable."""
        try:
            import client_ops
            import toolkit_ops

            self.operations = {"runner.echo": _echo, **client_ops.OPS, **toolkit_ops.OPS}
        except Exception as error:  # noqa: BLE001 — reported in the handshake
            self.unavailable = f"cannot import {PACKAGE}: {type(error).__name__}: {error}"
            traceback.print_exc(file=sys.stderr)

    def hello(self, message: dict[str, Any]) -> None:
        if message.get("protocol") != PROTOCOL_VERSION:
            self.write({"type": "hello", "from": "runner", "protocol": PROTOCOL_VERSION,
                        "error": f"this runner speaks protocol {PROTOCOL_VERSION}"})
            return
        self.load()
        if self.unavailable is not None:
            self.write({"type": "hello", "from": "runner", "protocol": PROTOCOL_VERSION, "unavailable": self.unavailable})
            return
        from importlib.metadata import version

        import features

        implementation = {"name": "toolnexus", "language": "python", "package": PACKAGE,
                          "version": version(PACKAGE), "capabilities": features.capabilities(),
                          "supports": SUPPORTS}
        self.write({"type": "hello", "from": "runner", "protocol": PROTOCOL_VERSION, "implementation": implementation})

    async def request(self, message: dict[str, Any]) -> None:
        seq = message.get("seq", 0)
        op = str(message.get("op"))
        payload = message.get("input") or {}
        if op == "session.reset":
            await self.session.reset()
            self.write({"type": "result", "seq": seq, "elapsedMs": 0, "value": {}})
            return
        if self.operations is None:
            self.load()
        handler = (self.operations or {}).get(op)
        if handler is None:
            self.write(unsupported(seq, 0, f"the python runner has no operation {op!r}"))
            return
        # Each operation runs in a task of its own, so a cancellation the port leaves behind in a task
        # (anyio cancel scopes, asyncio.timeout) cannot leak into the next operation. The task shares
        # this operation's notes list (common.note): what the runner substituted on this release.
        notes, token = begin_notes()
        started = time.perf_counter()
        try:
            value = await asyncio.create_task(handler(payload, self.session))
            elapsed = (time.perf_counter() - started) * 1000
            answer = {"type": "result", "seq": seq, "elapsedMs": elapsed, "value": value if value is not None else {}}
        except Unsupported as error:
            answer = unsupported(seq, (time.perf_counter() - started) * 1000, str(error))
        except BaseException as error:  # noqa: BLE001 — every failure is answered, never fatal
            if isinstance(error, (KeyboardInterrupt, SystemExit)):
                raise
            elapsed = (time.perf_counter() - started) * 1000
            try:
                traceback.print_exception(error, file=sys.stderr)
            except Exception:  # noqa: BLE001 — the answer matters more than the trace
                pass
            answer = {"type": "error", "seq": seq, "elapsedMs": elapsed, "error": safe_classify(error, op)}
        finally:
            end_notes(token)
        if notes and answer["type"] in ("result", "error"):
            answer["notes"] = list(notes)
        try:
            self.write(answer)
        except Exception as error:  # noqa: BLE001 — the value could not be written: a runner bug
            self.write({"type": "crash", "seq": seq, "message": f"cannot encode the answer: {error!r}"})


async def _echo(payload: dict[str, Any], _session: Session) -> dict[str, Any]:
    return {"value": payload.get("value")}


async def _stdin_reader() -> asyncio.StreamReader:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=64 * 1024 * 1024)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    return reader


async def serve(out: TextIO) -> None:
    server = Server(out)
    reader = await _stdin_reader()
    while True:
        line = await reader.readline()
        if not line:
            break
        text = line.decode("utf-8", "replace").strip()
        if not text:
            continue
        try:
            message = json.loads(text)
        except json.JSONDecodeError:
            print(f"python runner: ignoring a line that is not JSON: {text[:200]}", file=sys.stderr)
            continue
        kind = message.get("type") if isinstance(message, dict) else None
        if kind == "hello":
            server.hello(message)
        elif kind == "request":
            try:
                await server.request(message)
            except Exception as error:  # noqa: BLE001
                server.write({"type": "crash", "seq": message.get("seq", 0), "message": repr(error)})
        else:
            print(f"python runner: ignoring a message of type {kind!r}", file=sys.stderr)
    # stdin closed: close what is open, then exit.
    try:
        await asyncio.wait_for(server.session.reset(), timeout=10)
    except BaseException:  # noqa: BLE001
        pass
