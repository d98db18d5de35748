"""client.* and store.* operations on toolnexus's unified client (runners/PROTOCOL.md#operations)."""
from __future__ import annotations

import copy
import json
import sys
from dataclasses import dataclass, field
from typing import Any, Optional

import jsonpatch
from toolnexus import InMemoryConversationStore, RunResult, UrllibTransport, create_client, create_toolkit
from toolnexus.types import ToolResult

from common import ContractError, Session, cancel_event_after, capture_warnings, note, require
from features import client_requires_toolkit
from toolkit_ops import toolkit_for

# toolnexus refuses to run without an API key and otherwise reads OPENROUTER_API_KEY /
# OPENAI_API_KEY / ANTHROPIC_API_KEY from the environment (client.py, _resolve_key). The harness's
# mock LLM needs none, and a developer's real key must never reach a fixture's request log, so a
# client created without `apiKey` gets this placeholder instead of the environment's key.
PLACEHOLDER_API_KEY = "conformance-placeholder-key"


@dataclass
class ClientEntry:
    client: Any = None
    warnings: list[str] = field(default_factory=list)
    transform_inputs: list[Any] = field(default_factory=list)
    hook_calls: list[dict[str, Any]] = field(default_factory=list)
    transport_requests: list[dict[str, Any]] = field(default_factory=list)
    provided_store: Optional[Any] = None
    # Body transform calls in the current run/ask/stream: the turn (it runs once per LLM request).
    turn: int = 0


def _json_copy(value: Any) -> Any:
    """A deep copy as JSON would carry it (what the wire / the protocol sees)."""
    return json.loads(json.dumps(value))


def _body_transform(data: dict[str, Any], entry: ClientEntry):
    patch = jsonpatch.JsonPatch(data["patch"]) if data.get("patch") is not None else None

    on_turns = data.get("onTurns")
    in_place = bool(data.get("inPlace"))

    def transform(body: dict[str, Any]) -> Optional[dict[str, Any]]:
        entry.transform_inputs.append(copy.deepcopy(body))
        turn = entry.turn
        entry.turn += 1
        if on_turns is not None and turn not in on_turns:
            return body  # not on this turn: sent as built
        if in_place and patch is not None:
            # inPlace: the patched document's keys replace the received dict's own, so the edit lives in it.
            edited = patch.apply(body, in_place=False)
            body.clear()
            body.update(edited)
        if data.get("returnNull"):
            return None
        if patch is None or in_place:
            return body
        return patch.apply(body, in_place=False)

    return transform


def _hooks(data: dict[str, Any], entry: ClientEntry) -> dict[str, Any]:
    hooks: dict[str, Any] = {}
    before_llm = data.get("beforeLLM")
    before_tool = data.get("beforeTool")
    if before_llm is not None:
        def on_before_llm(event: dict[str, Any]) -> Optional[dict[str, Any]]:
            turn = event["turn"]
            entry.hook_calls.append({"hook": "beforeLLM", "input": {
                "turn": turn, "messageCount": len(event["messages"]), "toolCount": len(event["tools"])}})
            on_turns = before_llm.get("onTurns")
            if "setTools" in before_llm and (on_turns is None or turn in on_turns):
                return {"tools": copy.deepcopy(before_llm["setTools"])}
            return None

        hooks["before_llm"] = on_before_llm
    if before_tool is not None:
        def on_before_tool(event: dict[str, Any]) -> Optional[dict[str, Any]]:
            entry.hook_calls.append({"hook": "beforeTool", "input": {"name": event["name"], "args": copy.deepcopy(event["args"])}})
            if before_tool.get("result") is not None:
                result = before_tool["result"]
                return {"result": ToolResult(output=result["output"], is_error=result["isError"])}
            if before_tool.get("args") is not None:
                return {"args": copy.deepcopy(before_tool["args"])}
            return None

        hooks["before_tool"] = on_before_tool
    return hooks


class RecordingTransport:
    """The port's http_transport seam: record {method, url, body}, then hand over to the port's own
    default transport (UrllibTransport), which raises the port's ProviderError on an HTTP error."""

    def __init__(self, entry: ClientEntry) -> None:
        self.entry = entry
        self.inner = UrllibTransport()

    def _record(self, url: str, payload: Any) -> None:
        self.entry.transport_requests.append({"method": "POST", "url": url, "body": _json_copy(payload)})

    def post(self, url: str, headers: dict[str, str], payload: dict[str, Any], timeout: float) -> dict[str, Any]:
        self._record(url, payload)
        return self.inner.post(url, headers, payload, timeout)

    def open(self, url: str, headers: dict[str, str], payload: dict[str, Any], timeout: float):  # noqa: A003
        self._record(url, payload)
        return self.inner.open(url, headers, payload, timeout)


_OPTIONS = {  # protocol name -> create_client keyword
    "headers": "headers",
    "systemPrompt": "system_prompt",
    "maxTurns": "max_turns",
    "retries": "retries",
    "retryBaseMs": "retry_base_ms",
    "timeoutMs": "timeout_ms",
    "requestParams": "request_params",
}


def _entry(session: Session, payload: dict[str, Any]) -> ClientEntry:
    return require(session.clients, payload.get("client"), "client")


def _call_entry(session: Session, payload: dict[str, Any]) -> ClientEntry:
    """The client of a run, ask or stream: a new call starts at turn 0."""
    entry = _entry(session, payload)
    entry.turn = 0
    return entry


def _empty_toolkit_note(method: str) -> str:
    """The protocol note (and stderr line) for the empty-toolkit substitution; names the installed
    release as its metadata says."""
    return (f"passed an empty toolkit (create_toolkit(builtins=False)): toolnexus {_port_version()}'s "
            f"Client.{method} requires one; the scenario gave none")


def _port_version() -> str:
    from importlib.metadata import version

    try:
        return version("toolnexus")
    except Exception:  # noqa: BLE001
        return "(unknown version)"


async def _toolkit(session: Session, payload: dict[str, Any], method: str) -> Any:
    """The toolkit handle named by the scenario; without one, None where the port accepts that, or,
    on ports whose run/ask/stream require a toolkit (features.client_requires_toolkit), an empty
    toolkit: the runner's substitution, said in the answer's `notes` (and on stderr) and in
    README.md ("Versions")."""
    if payload.get("toolkit") is not None:
        return toolkit_for(session, payload["toolkit"])
    if not client_requires_toolkit():
        return None
    text = _empty_toolkit_note(method)
    note(text)
    print(f"python runner: substituted: {text}", file=sys.stderr)
    return await create_toolkit(builtins=False)


def _usage(usage: dict[str, int]) -> dict[str, int]:
    return {"input": usage.get("prompt_tokens", 0), "output": usage.get("completion_tokens", 0)}


def _run_result(result: RunResult) -> dict[str, Any]:
    return {"text": result.text, "usage": _usage(result.usage), "messages": _json_copy(result.messages)}


def _normalize_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Protocol events: is_error -> isError, `done` without its payload, and usage once, with the
    call's totals, just before done (toolnexus yields a cumulative usage event at the end)."""
    out: list[dict[str, Any]] = []
    usage: Optional[dict[str, int]] = None
    for event in events:
        kind = event.get("type")
        if kind == "text":
            out.append({"type": "text", "delta": event["delta"]})
        elif kind == "tool_call":
            out.append({"type": "tool_call", "id": event["id"], "name": event["name"], "args": _json_copy(event["args"])})
        elif kind == "tool_result":
            out.append({"type": "tool_result", "id": event["id"], "name": event["name"],
                        "output": event["output"], "isError": event["is_error"]})
        elif kind == "usage":
            usage = _usage(event["usage"])
        elif kind == "done":
            if usage is not None:
                out.append({"type": "usage", **usage})
            out.append({"type": "done"})
        # "pending" (a §10 suspension) has no protocol event; no scenario provokes one.
    return out


async def client_create(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    handle = str(payload["handle"])
    if handle in session.clients:
        raise ContractError("other", f'client "{handle}" already exists')
    entry = ClientEntry()
    options: dict[str, Any] = {
        "base_url": payload["baseUrl"],
        "style": payload["style"],
        "model": payload["model"],
        "api_key": payload.get("apiKey") or PLACEHOLDER_API_KEY,
    }
    for name, keyword in _OPTIONS.items():
        if payload.get(name) is not None:
            options[keyword] = copy.deepcopy(payload[name])
    if payload.get("bodyTransform") is not None:
        options["body_transform"] = _body_transform(payload["bodyTransform"], entry)
    if payload.get("hooks") is not None:
        options["hooks"] = _hooks(payload["hooks"], entry)
    if payload.get("transport") == "recording":
        options["http_transport"] = RecordingTransport(entry)
    if payload.get("store") == "provided":
        entry.provided_store = InMemoryConversationStore()
        options["store"] = entry.provided_store
    with capture_warnings(entry.warnings):
        entry.client = create_client(**options)
    session.clients[handle] = entry
    return {}


async def client_run(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    entry = _call_entry(session, payload)
    toolkit = await _toolkit(session, payload, "run")
    history = copy.deepcopy(payload["history"]) if payload.get("history") is not None else None
    cancel, stop = _cancel(payload)
    try:
        with capture_warnings(entry.warnings):
            result = await entry.client.run(payload["prompt"], toolkit, history=history, **cancel)
    finally:
        stop()
    return _run_result(result)


def _cancel(payload: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """`abortAfterMs` (client.cancel): the call's `cancel` Event, set that many ms in; no keyword without it."""
    if payload.get("abortAfterMs") is None:
        return {}, lambda: None
    event, stop = cancel_event_after(int(payload["abortAfterMs"]))
    return {"cancel": event}, stop


async def client_ask(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    entry = _call_entry(session, payload)
    toolkit = await _toolkit(session, payload, "ask")
    cancel, stop = _cancel(payload)
    try:
        with capture_warnings(entry.warnings):
            result = await entry.client.ask(payload["prompt"], toolkit, id=str(payload["id"]), **cancel)
    finally:
        stop()
    return _run_result(result)


async def client_stream(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    entry = _call_entry(session, payload)
    toolkit = await _toolkit(session, payload, "stream")
    stream_id = None if payload.get("id") is None else str(payload["id"])
    # Only sent when the runner declared client.stream-history (features.stream_takes_history).
    extra = {"history": copy.deepcopy(payload["history"])} if payload.get("history") is not None else {}
    events: list[dict[str, Any]] = []
    cancel, stop = _cancel(payload)
    try:
        with capture_warnings(entry.warnings):
            async for event in entry.client.stream(payload["prompt"], toolkit, id=stream_id, **extra, **cancel):
                events.append(event)
    finally:
        stop()
    done = next((event for event in events if event.get("type") == "done"), None)
    if done is None:
        raise ContractError("other", "the stream ended without a done event")
    return {**_run_result(done["result"]), "events": _normalize_events(events)}


async def client_observations(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    entry = _entry(session, payload)
    accessor = getattr(entry.client, "conversation_store", None)
    usable = callable(getattr(accessor, "get", None)) and callable(getattr(accessor, "save", None))
    if entry.provided_store is not None:
        store_accessor = "provided" if accessor is entry.provided_store else "missing"
    else:
        store_accessor = "default" if usable else "missing"
    return {
        "transformInputs": _json_copy(entry.transform_inputs),
        "hookCalls": _json_copy(entry.hook_calls),
        "warnings": list(entry.warnings),
        "transportRequests": _json_copy(entry.transport_requests),
        "storeAccessor": store_accessor,
    }


async def store_get(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    messages = await _entry(session, payload).client.conversation_store.get(str(payload["id"]))
    return {"messages": _json_copy(messages) if messages is not None else None}


async def store_save(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    await _entry(session, payload).client.conversation_store.save(str(payload["id"]), copy.deepcopy(payload["messages"]))
    return {}


OPS = {
    "client.create": client_create,
    "client.run": client_run,
    "client.ask": client_ask,
    "client.stream": client_stream,
    "client.observations": client_observations,
    "store.get": store_get,
    "store.save": store_save,
}
