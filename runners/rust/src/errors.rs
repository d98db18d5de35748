//! How an operation fails, and how a port error maps to the protocol's error kinds
//! (runners/PROTOCOL.md#error-kinds).

use serde_json::{json, Value};
use toolnexus::client::ClientError;
use toolnexus::mcp::McpError;
use toolnexus::ToolkitError;

pub enum OpError {
    /// The port has no way to perform the operation or option: kind `unsupported`, no `type`.
    Unsupported(String),
    /// A bug in the runner itself: answered as `crash`.
    Crash(String),
    /// A failure: the port's own error (`type` names it) or one the runner detects (`type` "runner").
    Failed { kind: &'static str, type_name: String, message: String, details: Option<Value> },
}

impl OpError {
    /// A failure the runner itself detects (an unknown handle, an input it cannot use).
    pub fn runner(kind: &'static str, message: impl Into<String>) -> Self {
        OpError::Failed { kind, type_name: "runner".into(), message: message.into(), details: None }
    }

    /// The caller's cancellation (abortAfterMs) ended the operation before the port answered.
    pub fn cancelled(what: &str) -> Self {
        OpError::Failed {
            kind: "cancelled",
            type_name: "runner".into(),
            message: format!("{what}: cancelled by the caller (the port's future was dropped)"),
            details: None,
        }
    }

    /// The caller's deadline (deadlineMs) passed before the port answered.
    pub fn deadline(what: &str, ms: u64) -> Self {
        OpError::Failed {
            kind: "deadline",
            type_name: "tokio::time::error::Elapsed".into(),
            message: format!("{what}: deadline of {ms} ms passed (the port's future was dropped)"),
            details: None,
        }
    }

    /// The protocol's error object.
    pub fn to_json(&self) -> Value {
        match self {
            OpError::Unsupported(message) => json!({"kind": "unsupported", "message": message}),
            OpError::Crash(message) => json!({"kind": "other", "message": message}),
            OpError::Failed { kind, type_name, message, details } => {
                let mut out = json!({"kind": kind, "type": type_name, "message": message});
                if let Some(d) = details {
                    out["details"] = d.clone();
                }
                out
            }
        }
    }
}

fn variant_name(debug: &str) -> &str {
    debug.split(|c: char| c == '(' || c == ' ' || c == '{').next().unwrap_or(debug)
}

/// A port error of `kind`, its `type` the enum path and the variant the error's Debug form names.
fn port_error<E: std::fmt::Debug + std::fmt::Display>(kind: &'static str, enum_path: &str, e: &E, details: Option<Value>) -> OpError {
    let debug = format!("{e:?}");
    OpError::Failed { kind, type_name: format!("{enum_path}::{}", variant_name(&debug)), message: e.to_string(), details }
}

impl From<ClientError> for OpError {
    fn from(e: ClientError) -> Self {
        let (kind, details) = match &e {
            // The body the port's error carries (redacted by the port, whole), not one the runner cuts.
            ClientError::Provider(p) => ("http", Some(json!({"status": p.status, "bodyExcerpt": p.body}))),
            ClientError::Cancelled => ("cancelled", None),
            // The whole-run `timeout_ms` (ClientOptions) elapsed.
            ClientError::RunTimeout { .. } => ("deadline", None),
            // Transport (a network error, a body cut short), Decode (a body that is not JSON), hooks,
            // the store: the port has no stream or empty-response error of its own, and the runner
            // does not make one up.
            _ => ("other", None),
        };
        port_error(kind, "toolnexus::client::ClientError", &e, details)
    }
}

impl From<McpError> for OpError {
    fn from(e: McpError) -> Self {
        port_error("config", "toolnexus::mcp::McpError", &e, None)
    }
}

impl From<ToolkitError> for OpError {
    fn from(e: ToolkitError) -> Self {
        match e {
            ToolkitError::Mcp(m) => m.into(),
            other => port_error("other", "toolnexus::toolkit::ToolkitError", &other, None),
        }
    }
}
