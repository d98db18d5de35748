//! The `rust` runner: drives the Rust port of toolnexus (crate `toolnexus`, the version this binary
//! was built against) through the JSON-lines protocol of runners/PROTOCOL.md. stdout carries
//! protocol lines only; the port's stderr is collected as warnings (logcapture), the runner's own
//! diagnostics go to the real stderr.

mod client_ops;
mod errors;
mod logcapture;
mod ops;
mod recording;
mod toolkit_ops;
mod values;

use std::io::Write;
use std::time::Instant;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader};

use errors::OpError;

const PROTOCOL_VERSION: u64 = 2;

/// The version of the toolnexus package linked into this binary, read by build.rs from the lock file
/// of this build (the crate's own metadata), never a constant of the runner.
const PORT_VERSION: &str = env!("TNC_TOOLNEXUS_VERSION");

/// What the port can do (README.md "Capabilities" says why the others are missing).
const CAPABILITIES: &[&str] = &[
    "client.run", "client.stream", "client.ask", "style.openai", "style.anthropic",
    "client.request-params", "client.body-transform", "client.hooks", "client.transport",
    "client.store-accessor", "client.retries", "client.cancel",
    "toolkit.extra-tools", "toolkit.adapters",
    "mcp.stdio", "mcp.http", "mcp.sse", "mcp.cancel", "mcp.deadline", "mcp.allowlist",
    "mcp.config-file", "mcp.parse",
];

fn write(message: &Value) {
    let line = serde_json::to_string(message).unwrap_or_else(|e| {
        json!({"type": "crash", "seq": message["seq"], "message": format!("cannot encode answer: {e}")}).to_string()
    });
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn hello(message: &Value) -> Value {
    if message["protocol"].as_u64() != Some(PROTOCOL_VERSION) {
        return json!({"type": "hello", "from": "runner", "protocol": PROTOCOL_VERSION,
                      "error": format!("this runner speaks protocol {PROTOCOL_VERSION}")});
    }
    if PORT_VERSION.is_empty() {
        return json!({"type": "hello", "from": "runner", "protocol": PROTOCOL_VERSION,
                      "unavailable": "no toolnexus package in this build's Cargo.lock"});
    }
    json!({"type": "hello", "from": "runner", "protocol": PROTOCOL_VERSION, "implementation": {
        "name": "toolnexus", "language": "rust", "package": "toolnexus", "version": PORT_VERSION,
        "capabilities": CAPABILITIES,
    }})
}

async fn answer(runner: &mut ops::Runner, message: &Value) -> Value {
    let seq = message["seq"].clone();
    let op = message["op"].as_str().unwrap_or("");
    let input = match &message["input"] {
        Value::Object(_) => message["input"].clone(),
        _ => json!({}),
    };
    logcapture::take(); // what the port wrote between operations is not this operation's
    let started = Instant::now();
    let outcome = runner.handle(op, &input).await;
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    match outcome {
        Ok(value) => json!({"type": "result", "seq": seq, "elapsedMs": elapsed_ms, "value": value}),
        Err(OpError::Crash(message)) => json!({"type": "crash", "seq": seq, "message": message}),
        Err(e) => json!({"type": "error", "seq": seq, "elapsedMs": elapsed_ms, "error": e.to_json()}),
    }
}

#[tokio::main]
async fn main() {
    if let Err(e) = logcapture::install() {
        eprintln!("rust runner: cannot collect the port's stderr ({e}); warnings will be empty");
    }
    let mut runner = ops::Runner::default();
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    loop {
        let line = match lines.next_line().await {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                logcapture::log(&format!("reading stdin: {e}"));
                break;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let message: Value = match serde_json::from_str(&line) {
            Ok(m) => m,
            Err(_) => {
                logcapture::log(&format!("ignoring a line that is not JSON: {:.200}", line));
                continue;
            }
        };
        if message["type"] == "hello" {
            write(&hello(&message));
            continue;
        }
        let reply = answer(&mut runner, &message).await;
        write(&reply);
    }
    runner.reset().await;
}
