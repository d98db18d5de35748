//! toolkit.* and mcp.parse operations over toolnexus::toolkit and toolnexus::mcp.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Map, Value};
use toolnexus::mcp::{parse_mcp_config, parse_mcp_config_file, McpConfig, McpStatus};
use toolnexus::{create_toolkit, define_tool, BuiltinsConfig, McpConfigInput, Tool, ToolContext, Toolkit, ToolkitOptions};

use crate::errors::OpError;
use crate::logcapture;
use crate::ops::Runner;
use crate::values::{obj_or_empty, str_of, u64_of};

pub struct ToolkitEntry {
    pub toolkit: Toolkit,
    pub warnings: Vec<String>,
    pub closed: bool,
}

/// `{file: PATH}` names a config file; anything else is the config itself.
fn config_file(config: &Value) -> Option<PathBuf> {
    let obj = config.as_object()?;
    match (obj.len(), obj.get("file")) {
        (1, Some(Value::String(path))) => Some(PathBuf::from(path)),
        _ => None,
    }
}

/// An extra tool, the way a Rust host writes one (`define_tool`): `Ok(text)` for a result, `Err(e)`
/// for a tool that fails (`throws`, and a scripted `isError` result); without either, the JSON of
/// its arguments. The port's own default schema applies when none is given.
fn extra_tool(spec: &Value) -> Tool {
    let result = spec.get("result").cloned();
    let throws = spec.get("throws").and_then(Value::as_str).map(str::to_owned);
    define_tool(str_of(spec, "name"), str_of(spec, "description"), spec.get("inputSchema").cloned(), move |args: Value, _ctx: ToolContext| {
        let (result, throws) = (result.clone(), throws.clone());
        async move {
            if let Some(message) = throws {
                return Err(message);
            }
            match result {
                Some(r) if r["isError"].as_bool().unwrap_or(false) => Err(str_of(&r, "output")),
                Some(r) => Ok(str_of(&r, "output")),
                None => Ok(serde_json::to_string(&args).unwrap_or_default()),
            }
        }
    })
}

fn status_json(status: &BTreeMap<String, McpStatus>) -> Value {
    Value::Object(status.iter().map(|(k, v)| (k.clone(), json!(v.as_str()))).collect())
}

/// mcp.parse: what the port's parser produced, through the parsed config's own accessors
/// (is_remote, is_enabled, timeout: the port's inference and default, not the runner's).
fn parsed_json(config: &McpConfig) -> Value {
    let servers: Map<String, Value> = config
        .iter()
        .map(|(name, s)| {
            let mut out = json!({
                "type": if s.is_remote() { "remote" } else { "local" },
                "enabled": s.is_enabled(),
                "timeout": s.timeout().as_millis() as u64,
            });
            // An empty map is what the parser gives for no `tools` and for `tools: {}` alike.
            if !s.tools.is_empty() {
                out["tools"] = json!(s.tools);
            }
            (name.clone(), out)
        })
        .collect();
    json!({"servers": servers})
}

impl Runner {
    fn toolkit_of(&self, input: &Value) -> Result<&ToolkitEntry, OpError> {
        let name = str_of(input, "toolkit");
        self.toolkits.get(&name).ok_or_else(|| OpError::runner("other", format!("no toolkit named {name:?} in this session")))
    }

    pub async fn toolkit_create(&mut self, input: &Value) -> Result<Value, OpError> {
        let handle = str_of(input, "handle");
        if self.toolkits.contains_key(&handle) {
            return Err(OpError::runner("other", format!("toolkit {handle:?} already exists")));
        }
        let mcp_config = input.get("mcpConfig").map(|c| match config_file(c) {
            Some(path) => McpConfigInput::Path(path),
            None => McpConfigInput::Json(c.clone()),
        });
        let opts = ToolkitOptions {
            mcp_config,
            extra_tools: input["extraTools"].as_array().map(|a| a.iter().map(extra_tool).collect()).unwrap_or_default(),
            disable_tools: input["disableTools"].as_array().map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect()).unwrap_or_default(),
            builtins: Some(BuiltinsConfig::off()),
            ..Default::default()
        };
        // load_mcp_with takes no cancellation token: a Rust caller cancels a future by dropping it.
        // abortAfterMs races the build against the cancel (tokio::select!), deadlineMs bounds it
        // (tokio::time::timeout); either way the losing create_toolkit future is dropped.
        let build = create_toolkit(opts);
        let outcome = if let Some(ms) = u64_of(input, "abortAfterMs") {
            tokio::select! {
                r = build => r.map_err(OpError::from),
                _ = tokio::time::sleep(Duration::from_millis(ms)) => Err(OpError::cancelled("toolkit.create")),
            }
        } else if let Some(ms) = u64_of(input, "deadlineMs") {
            match tokio::time::timeout(Duration::from_millis(ms), build).await {
                Ok(r) => r.map_err(OpError::from),
                Err(_) => Err(OpError::deadline("toolkit.create", ms)),
            }
        } else {
            build.await.map_err(OpError::from)
        };
        let warnings = logcapture::take();
        let toolkit = outcome?;
        let tools: Vec<String> = toolkit.tools().into_iter().map(|t| t.name).collect();
        let status = status_json(&toolkit.mcp_status());
        self.toolkits.insert(handle, ToolkitEntry { toolkit, warnings, closed: false });
        Ok(json!({"tools": tools, "status": status}))
    }

    pub fn toolkit_tools(&self, input: &Value) -> Result<Value, OpError> {
        let entry = self.toolkit_of(input)?;
        let tools: Vec<Value> = entry
            .toolkit
            .tools()
            .into_iter()
            .map(|t| json!({"name": t.name, "description": t.description, "inputSchema": t.input_schema}))
            .collect();
        Ok(json!({"tools": tools}))
    }

    pub async fn toolkit_execute(&mut self, input: &Value) -> Result<Value, OpError> {
        let toolkit = self.toolkit_of(input)?.toolkit.clone();
        let args = obj_or_empty(&input["args"]);
        let r = toolkit.execute(&str_of(input, "name"), args, ToolContext::default()).await;
        let lines = logcapture::take();
        if let Some(entry) = self.toolkits.get_mut(&str_of(input, "toolkit")) {
            entry.warnings.extend(lines);
        }
        Ok(json!({"output": r.output, "isError": r.is_error}))
    }

    pub fn toolkit_adapter(&self, input: &Value) -> Result<Value, OpError> {
        let toolkit = &self.toolkit_of(input)?.toolkit;
        let value = match input["format"].as_str() {
            Some("openai") => toolkit.to_openai(),
            Some("anthropic") => toolkit.to_anthropic(),
            Some("gemini") => toolkit.to_gemini(),
            other => return Err(OpError::Unsupported(format!("no adapter for format {other:?}"))),
        };
        Ok(json!({"value": value}))
    }

    pub fn toolkit_status(&self, input: &Value) -> Result<Value, OpError> {
        Ok(json!({"status": status_json(&self.toolkit_of(input)?.toolkit.mcp_status())}))
    }

    pub fn toolkit_warnings(&self, input: &Value) -> Result<Value, OpError> {
        Ok(json!({"warnings": self.toolkit_of(input)?.warnings}))
    }

    pub async fn toolkit_close(&mut self, input: &Value) -> Result<Value, OpError> {
        let name = str_of(input, "toolkit");
        let entry = self.toolkits.get_mut(&name).ok_or_else(|| OpError::runner("other", format!("no toolkit named {name:?} in this session")))?;
        entry.toolkit.close().await;
        entry.closed = true;
        Ok(json!({}))
    }

    pub fn mcp_parse(&self, input: &Value) -> Result<Value, OpError> {
        let config = &input["config"];
        let parsed = match config_file(config) {
            Some(path) => parse_mcp_config_file(path)?,
            None => parse_mcp_config(config)?,
        };
        Ok(parsed_json(&parsed))
    }
}
