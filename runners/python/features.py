"""What the installed toolnexus can do, found by looking at it (feature detection, never a table of
versions): the runner drives the published release and older source checkouts (e.g. 0.16.0) alike.

Differences that matter to the runner:
- `Client.run/ask/stream` take an optional toolkit since 0.20.0; before, it is a required positional
  argument. `client_requires_toolkit()` tells; the runner then passes an empty toolkit (see
  client_ops._toolkit and README.md "Source mode").
- The typed HTTP error (`ProviderError` vs the older `_HttpError`) is handled in protocol.classify.
- Capabilities whose option or function the port lacks are not declared.
"""
from __future__ import annotations

import inspect
from functools import lru_cache
from typing import Any, Callable


def _parameters(fn: Any) -> dict[str, inspect.Parameter]:
    try:
        return dict(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return {}


@lru_cache(maxsize=None)
def client_requires_toolkit() -> bool:
    """True when `Client.run` has no default for its `toolkit` parameter (ports before 0.20.0)."""
    from toolnexus import Client

    toolkit = _parameters(Client.run).get("toolkit")
    return toolkit is not None and toolkit.default is inspect.Parameter.empty


def _create_client_has(name: str) -> Callable[[], bool]:
    def check() -> bool:
        import toolnexus

        return name in _parameters(getattr(toolnexus, "create_client", None))
    return check


def _has(attr: str) -> Callable[[], bool]:
    def check() -> bool:
        import toolnexus

        return getattr(toolnexus, attr, None) is not None
    return check


def _client_has(attr: str) -> Callable[[], bool]:
    def check() -> bool:
        from toolnexus import Client

        return hasattr(Client, attr)
    return check


def stream_takes_history() -> bool:
    """Client.stream accepting prior messages (`history`), as run does; no release up to 0.21.0 does
    (they take an `id` into the store only), so client.stream-history stays undeclared there."""
    from toolnexus import Client

    return "history" in _parameters(getattr(Client, "stream", None))


def _toolkit_cancel() -> bool:
    import toolnexus

    return "cancel" in _parameters(getattr(toolnexus, "create_toolkit", None))


def _client_cancel() -> bool:
    """run, ask and stream each take the cancel Event (client.py run/ask/stream `cancel`)."""
    from toolnexus import Client

    return all("cancel" in _parameters(getattr(Client, name, None)) for name in ("run", "ask", "stream"))


def _inventory_cancel() -> bool:
    import toolnexus

    return _has("list_mcp_tools")() and "cancel" in _parameters(toolnexus.list_mcp_tools)


# What toolnexus offers through its public API (see README.md for the mapping), each with the check
# that the installed port has it. Never declared: toolkit.introspection (no accessor for open
# toolkits) and mcp.deadline (the MCP load takes a cancel Event only, no deadline option).
_CAPABILITIES: list[tuple[str, Callable[[], bool]]] = [
    ("client.run", _client_has("run")),
    ("client.stream", _client_has("stream")),
    ("client.stream-history", stream_takes_history),
    ("client.ask", _client_has("ask")),
    ("style.openai", lambda: True),
    ("style.anthropic", lambda: True),
    ("client.request-params", _create_client_has("request_params")),
    ("client.body-transform", _create_client_has("body_transform")),
    ("client.hooks", _create_client_has("hooks")),
    ("client.transport", lambda: _create_client_has("http_transport")() and _has("UrllibTransport")()),
    ("client.store-accessor", lambda: _create_client_has("store")() and _client_has("conversation_store")()
        and _has("InMemoryConversationStore")()),
    ("client.retries", _create_client_has("retries")),
    ("client.cancel", _client_cancel),
    ("toolkit.extra-tools", lambda: True),
    ("toolkit.adapters", lambda: True),
    ("mcp.stdio", lambda: True),
    ("mcp.http", lambda: True),
    ("mcp.sse", lambda: True),
    ("mcp.cancel", lambda: _toolkit_cancel() and _inventory_cancel()),
    ("mcp.allowlist", _has("apply_tools_filter")),
    ("mcp.inventory", _has("list_mcp_tools")),
    # The parser is public (parse_mcp_config, with is_remote / is_enabled) and reads a config without
    # connecting; see toolkit_ops.mcp_parse for what it does and does not normalize.
    ("mcp.parse", lambda: all(_has(name)() for name in ("parse_mcp_config", "is_remote", "is_enabled"))),
    ("mcp.config-file", lambda: True),
]


def capabilities() -> list[str]:
    out: list[str] = []
    for name, check in _CAPABILITIES:
        try:
            ok = bool(check())
        except Exception:  # noqa: BLE001 — a check that cannot tell declares nothing
            ok = False
        if ok:
            out.append(name)
    return out
