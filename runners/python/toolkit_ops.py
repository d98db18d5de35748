"""toolkit.* and mcp.* operations on toolnexus's toolkit and MCP source (runners/PROTOCOL.md#operations)."""
from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass, field
from typing import Any, Optional

from toolnexus import create_toolkit, list_mcp_tools, parse_mcp_config
from toolnexus.mcp_source import is_enabled, is_remote
from toolnexus.types import Tool, ToolResult

from common import ContractError, Session, Unsupported, cancel_event_after, capture_warnings, require

# How long session.reset / toolkit.close wait for a toolkit's close before giving up on it.
CLOSE_BOUND_S = 10.0


@dataclass
class ToolkitEntry:
    toolkit: Any = None
    warnings: list[str] = field(default_factory=list)
    close_requested: asyncio.Event = field(default_factory=asyncio.Event)
    closed: Optional[asyncio.Future] = None
    owner: Optional[asyncio.Task] = None

    async def close(self) -> None:
        """Ask the owner task to close the toolkit, and wait for it (bounded)."""
        if self.closed is None:
            return
        self.close_requested.set()
        await asyncio.wait_for(asyncio.shield(self.closed), timeout=CLOSE_BOUND_S)


def _config_input(raw: Any) -> Any:
    """`{file: PATH}` names a JSON config file (passed to the port as a path); any other object is
    the config itself."""
    if isinstance(raw, dict) and list(raw.keys()) == ["file"] and isinstance(raw["file"], str):
        return raw["file"]
    return raw if raw is not None else {}


def _extra_tool(data: dict[str, Any]) -> Tool:
    result = data.get("result")
    throws = data.get("throws")

    async def execute(args: Optional[dict[str, Any]] = None, ctx: Any = None) -> ToolResult:
        if throws is not None:
            # A host tool that fails the Python way; turning it into a result is the port's job.
            raise RuntimeError(throws)
        if result is not None:
            return ToolResult(output=result["output"], is_error=result["isError"])
        return ToolResult(output=json.dumps(args if args is not None else {}, separators=(",", ":"), ensure_ascii=False), is_error=False)

    return Tool(
        name=data["name"],
        description=data.get("description", ""),
        input_schema=data.get("inputSchema", {"type": "object", "properties": {}}),
        source="native",
        execute=execute,
    )


def _cancel_ms(payload: dict[str, Any]) -> Optional[int]:
    """The port takes one cancellation token for a load: an asyncio.Event, set by a timer
    `abortAfterMs` after the load starts. It has no deadline option, so the runner does not declare
    `mcp.deadline` and refuses `deadlineMs` rather than imitate a deadline with the cancel event."""
    if payload.get("deadlineMs") is not None:
        raise Unsupported("the port's MCP load has no deadline option (only a cancel Event)")
    if payload.get("abortAfterMs") is not None:
        return int(payload["abortAfterMs"])
    return None


async def _own_toolkit(entry: ToolkitEntry, options: dict[str, Any], created: asyncio.Future) -> None:
    """The task that creates the toolkit, keeps it, and closes it. The MCP SDK's transports are
    anyio contexts that must be exited by the task that entered them, so the toolkit's whole life
    runs in this one task."""
    try:
        with capture_warnings(entry.warnings):
            toolkit = await create_toolkit(**options)
    except BaseException as error:  # noqa: BLE001 — handed to the waiting operation
        if not created.done():
            created.set_exception(error if isinstance(error, Exception) else _Reraised(error))
        return
    entry.toolkit = toolkit
    created.set_result(toolkit)
    await entry.close_requested.wait()
    try:
        with capture_warnings(entry.warnings):
            await toolkit.close()
    except BaseException as error:  # noqa: BLE001
        print(f"python runner: toolkit close failed: {error!r}", file=sys.stderr)
    finally:
        if entry.closed is not None and not entry.closed.done():
            entry.closed.set_result(None)


class _Reraised(Exception):
    """Carries a BaseException (e.g. asyncio.CancelledError) across a future without cancelling it."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


async def toolkit_create(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    handle = str(payload["handle"])
    if handle in session.toolkits:
        raise ContractError("other", f'toolkit "{handle}" already exists')
    entry = ToolkitEntry()
    loop = asyncio.get_running_loop()
    entry.closed = loop.create_future()
    cancel, stop_timer = cancel_event_after(_cancel_ms(payload))
    options: dict[str, Any] = {
        "mcp_config": None if payload.get("mcpConfig") is None else _config_input(payload["mcpConfig"]),
        "extra_tools": [_extra_tool(data) for data in payload.get("extraTools") or []],
        "builtins": False,
        "disable_tools": payload.get("disableTools"),
        "cancel": cancel,
    }
    created: asyncio.Future = loop.create_future()
    owner = asyncio.create_task(_own_toolkit(entry, options, created))
    try:
        toolkit = await created
    except _Reraised as wrapped:
        raise wrapped.error from None
    finally:
        stop_timer()
    session.toolkits[handle] = entry
    session.cleanups.append(entry.close)
    entry.owner = owner  # keep a reference so the task is not collected
    return {"tools": [tool.name for tool in toolkit.tools()], "status": toolkit.mcp_status()}


def toolkit_for(session: Session, name: Any) -> Any:
    return require(session.toolkits, name, "toolkit").toolkit


async def toolkit_tools(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    tools = toolkit_for(session, payload.get("toolkit")).tools()
    return {"tools": [{"name": t.name, "description": t.description, "inputSchema": t.input_schema} for t in tools]}


async def toolkit_execute(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    entry = require(session.toolkits, payload.get("toolkit"), "toolkit")
    with capture_warnings(entry.warnings):
        result = await entry.toolkit.execute(str(payload["name"]), payload.get("args") or {})
    return {"output": result.output, "isError": result.is_error}


async def toolkit_adapter(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    toolkit = toolkit_for(session, payload.get("toolkit"))
    fmt = payload.get("format")
    if fmt == "openai":
        return {"value": toolkit.to_openai()}
    if fmt == "anthropic":
        return {"value": toolkit.to_anthropic()}
    if fmt == "gemini":
        return {"value": toolkit.to_gemini()}
    raise ContractError("other", f'unknown adapter format "{fmt}"')


async def toolkit_status(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    return {"status": toolkit_for(session, payload.get("toolkit")).mcp_status()}


async def toolkit_warnings(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    return {"warnings": list(require(session.toolkits, payload.get("toolkit"), "toolkit").warnings)}


async def toolkit_close(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    await require(session.toolkits, payload.get("toolkit"), "toolkit").close()
    return {}


async def mcp_list(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    cancel, stop_timer = cancel_event_after(_cancel_ms(payload))
    sink: list[str] = []  # the protocol's inventory has no warnings channel
    try:
        with capture_warnings(sink):
            inventory = await list_mcp_tools(_config_input(payload.get("config")), cancel=cancel)
    finally:
        stop_timer()
    return {
        "tools": {server: [{"name": t.name, "description": t.description, "inputSchema": t.input_schema} for t in infos]
                  for server, infos in inventory.tools.items()},
        "status": dict(inventory.status),
    }


async def mcp_parse(payload: dict[str, Any], session: Session) -> dict[str, Any]:
    """What the port's parser exposes: `parse_mcp_config` returns the raw server dicts (wrappers
    resolved, reserved keys stripped), read with the port's own `is_remote` / `is_enabled`. It does not
    normalize `timeout`: the port applies its default inline when it connects (mcp_source.py:387, 480),
    so `timeout` is reported only when the config itself carries one, as the parser handed it back."""
    servers: dict[str, Any] = {}
    for name, cfg in parse_mcp_config(_config_input(payload.get("config"))).items():
        cfg = cfg if isinstance(cfg, dict) else {}
        out: dict[str, Any] = {"type": "remote" if is_remote(cfg) else "local", "enabled": is_enabled(cfg)}
        if cfg.get("timeout") is not None:
            out["timeout"] = cfg["timeout"]
        if cfg.get("tools") is not None:
            out["tools"] = cfg["tools"]
        servers[name] = out
    return {"servers": servers}


OPS = {
    "toolkit.create": toolkit_create,
    "toolkit.tools": toolkit_tools,
    "toolkit.execute": toolkit_execute,
    "toolkit.adapter": toolkit_adapter,
    "toolkit.status": toolkit_status,
    "toolkit.warnings": toolkit_warnings,
    "toolkit.close": toolkit_close,
    "mcp.list": mcp_list,
    "mcp.parse": mcp_parse,
}
