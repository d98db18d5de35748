//! The operation table and the session's handles (until session.reset).

use std::collections::HashMap;

use serde_json::{json, Value};
use toolnexus::Toolkit;

use crate::client_ops::ClientEntry;
use crate::errors::OpError;
use crate::toolkit_ops::ToolkitEntry;

#[derive(Default)]
pub struct Runner {
    pub clients: HashMap<String, ClientEntry>,
    pub toolkits: HashMap<String, ToolkitEntry>,
    /// The toolkit of client calls that name none: the port's run/ask/stream take a `&Toolkit`.
    pub empty: Option<Toolkit>,
}

impl Runner {
    pub async fn handle(&mut self, op: &str, input: &Value) -> Result<Value, OpError> {
        match op {
            "session.reset" => {
                self.reset().await;
                Ok(json!({}))
            }
            "runner.echo" => Ok(json!({"value": input["value"]})),
            "client.create" => self.client_create(input),
            "client.run" => self.client_run(input).await,
            "client.ask" => self.client_ask(input).await,
            "client.stream" => self.client_stream(input).await,
            "client.observations" => self.client_observations(input),
            "store.get" => self.store_get(input),
            "store.save" => self.store_save(input),
            "toolkit.create" => self.toolkit_create(input).await,
            "toolkit.tools" => self.toolkit_tools(input),
            "toolkit.execute" => self.toolkit_execute(input).await,
            "toolkit.adapter" => self.toolkit_adapter(input),
            "toolkit.status" => self.toolkit_status(input),
            "toolkit.warnings" => self.toolkit_warnings(input),
            "toolkit.close" => self.toolkit_close(input).await,
            "toolkit.introspect" => Err(OpError::Unsupported(
                "toolnexus (Rust) keeps no registry of open toolkits to introspect".into(),
            )),
            "mcp.list" => Err(OpError::Unsupported(
                "toolnexus (Rust) has no list-only MCP inventory call (src/mcp.rs: load_mcp / load_mcp_with only)".into(),
            )),
            "mcp.parse" => self.mcp_parse(input),
            other => Err(OpError::Unsupported(format!("the rust runner has no operation {other:?}"))),
        }
    }

    /// Close every toolkit and drop every client created since the last reset.
    pub async fn reset(&mut self) {
        for (_, entry) in self.toolkits.drain() {
            if !entry.closed {
                entry.toolkit.close().await;
            }
        }
        if let Some(empty) = self.empty.take() {
            empty.close().await;
        }
        self.clients.clear();
    }
}
