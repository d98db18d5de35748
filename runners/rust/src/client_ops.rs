//! client.* and store.* operations over toolnexus::client.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use toolnexus::client::{
    create_client, BeforeLlmEvent, BeforeToolEvent, Client, ClientOptions, Hooks, LlmOverride,
    RunResult, Style, ToolOverride,
};
use toolnexus::store::{ConversationStore, InMemoryConversationStore};
use toolnexus::{create_toolkit, BuiltinsConfig, Toolkit, ToolResult, ToolkitOptions};

use crate::errors::OpError;
use crate::logcapture;
use crate::ops::Runner;
use crate::recording::Recorder;
use crate::values::{obj_or_empty, on_turn, str_of, turns_of, u64_of};

/// The key of a client created without `apiKey`: the port refuses to call without one and otherwise
/// reads a provider's variable from the environment for its hosts (same as the other runners).
const PLACEHOLDER_API_KEY: &str = "conformance-placeholder-key";

/// What client.observations reports about one client.
#[derive(Default)]
pub struct Observed {
    pub transform_inputs: Vec<Value>,
    pub hook_calls: Vec<Value>,
    pub warnings: Vec<String>,
}

pub struct ClientEntry {
    client: Client,
    /// The store passed with `store: "provided"`, to check the accessor returns that very one.
    provided: Option<Arc<InMemoryConversationStore>>,
    observed: Arc<Mutex<Observed>>,
    /// Body transform calls since the current run/ask/stream began (one per LLM request).
    turn: Arc<AtomicU64>,
    recorder: Option<Recorder>,
}

fn lock(observed: &Arc<Mutex<Observed>>) -> std::sync::MutexGuard<'_, Observed> {
    observed.lock().unwrap_or_else(|e| e.into_inner())
}

/// `bodyTransform` as data: record a copy of the body the port hands over, then patch it (or return
/// None) on the listed turns. The port hands the transform an owned copy (`t(body.clone())`), so
/// `inPlace` edits that copy: what the port does with it is the port's business.
fn body_transform(spec: &Value, observed: Arc<Mutex<Observed>>, turn: Arc<AtomicU64>) -> toolnexus::client::BodyTransformFn {
    let return_null = spec["returnNull"].as_bool().unwrap_or(false);
    // `inPlace` needs nothing more: the value received is the one patched (and returned, or dropped
    // with returnNull, when the port sends the body it kept).
    let turns = turns_of(&spec["onTurns"]);
    let patch: Option<json_patch::Patch> = match spec.get("patch") {
        None => None,
        Some(ops) => match serde_json::from_value(ops.clone()) {
            Ok(p) => Some(p),
            Err(e) => {
                logcapture::log(&format!("bodyTransform: cannot decode the patch {ops}: {e}"));
                None
            }
        },
    };
    Arc::new(move |mut body: Value| {
        lock(&observed).transform_inputs.push(body.clone());
        let this_turn = turn.fetch_add(1, Ordering::SeqCst);
        if !on_turn(&turns, this_turn) {
            return Some(body);
        }
        if let Some(p) = &patch {
            let mut patched = body.clone();
            match json_patch::patch(&mut patched, p) {
                Ok(()) => body = patched,
                Err(e) => logcapture::log(&format!("bodyTransform: the patch does not apply: {e}")),
            }
        }
        if return_null {
            return None;
        }
        Some(body)
    })
}

fn hooks(spec: &Value, observed: &Arc<Mutex<Observed>>) -> Hooks {
    let mut hooks = Hooks::default();
    if let Some(before_llm) = spec.get("beforeLLM") {
        let set_tools = before_llm.get("setTools").and_then(Value::as_array).cloned();
        let turns = turns_of(&before_llm["onTurns"]);
        let observed = observed.clone();
        hooks.before_llm = Some(Arc::new(move |ev: BeforeLlmEvent| {
            lock(&observed).hook_calls.push(json!({"hook": "beforeLLM", "input": {
                "turn": ev.turn, "messageCount": ev.messages.len(), "toolCount": ev.tools.len(),
            }}));
            let replace = match &set_tools {
                Some(tools) if on_turn(&turns, ev.turn as u64) => {
                    Some(LlmOverride { tools: Some(tools.clone()), ..Default::default() })
                }
                _ => None,
            };
            Box::pin(async move { Ok(replace) })
        }));
    }
    if let Some(before_tool) = spec.get("beforeTool") {
        let result = before_tool.get("result").cloned();
        let args = before_tool.get("args").cloned();
        let observed = observed.clone();
        hooks.before_tool = Some(Arc::new(move |ev: BeforeToolEvent| {
            lock(&observed).hook_calls.push(json!({"hook": "beforeTool", "input": {
                "name": ev.name, "args": obj_or_empty(&ev.args),
            }}));
            let over = if let Some(r) = &result {
                let mut tr = ToolResult::ok(str_of(r, "output"));
                tr.is_error = r["isError"].as_bool().unwrap_or(false);
                Some(ToolOverride { result: Some(tr), ..Default::default() })
            } else {
                args.as_ref().map(|a| ToolOverride { args: Some(a.clone()), ..Default::default() })
            };
            Box::pin(async move { Ok(over) })
        }));
    }
    hooks
}

fn run_result(r: &RunResult) -> Value {
    json!({
        "text": r.text,
        "usage": {"input": r.usage.prompt_tokens, "output": r.usage.completion_tokens},
        "messages": r.messages,
    })
}

/// `abortAfterMs` (client.cancel): the port's *_ctx calls take a CancellationToken; it is cancelled
/// that many milliseconds after the call starts.
fn cancel_after(input: &Value) -> CancellationToken {
    let token = CancellationToken::new();
    if let Some(ms) = u64_of(input, "abortAfterMs") {
        let t = token.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            t.cancel();
        });
    }
    token
}

impl Runner {
    pub fn client_create(&mut self, input: &Value) -> Result<Value, OpError> {
        let handle = str_of(input, "handle");
        if self.clients.contains_key(&handle) {
            return Err(OpError::runner("other", format!("client {handle:?} already exists")));
        }
        let observed = Arc::new(Mutex::new(Observed::default()));
        let turn = Arc::new(AtomicU64::new(0));
        let mut opts = ClientOptions {
            base_url: str_of(input, "baseUrl"),
            style: if input["style"] == "anthropic" { Style::Anthropic } else { Style::OpenAI },
            model: str_of(input, "model"),
            api_key: match input["apiKey"].as_str() {
                Some(k) if !k.is_empty() => k.to_owned(),
                _ => PLACEHOLDER_API_KEY.to_owned(),
            },
            system_prompt: str_of(input, "systemPrompt"),
            // Passed through as given: the port's own meaning of each value applies (0 retries is
            // "the default, 2" there; timeout_ms is a whole-run deadline).
            max_turns: u64_of(input, "maxTurns").unwrap_or(0) as usize,
            retries: input["retries"].as_i64().unwrap_or(0) as i32,
            retry_base_ms: u64_of(input, "retryBaseMs").unwrap_or(0),
            timeout_ms: u64_of(input, "timeoutMs").unwrap_or(0),
            ..Default::default()
        };
        if let Some(headers) = input["headers"].as_object() {
            opts.headers = headers.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_owned())).collect();
        }
        if let Some(params) = input["requestParams"].as_object() {
            opts.request_params = params.clone();
        }
        if let Some(spec) = input.get("bodyTransform") {
            opts.body_transform = Some(body_transform(spec, observed.clone(), turn.clone()));
        }
        if let Some(spec) = input.get("hooks") {
            opts.hooks = hooks(spec, &observed);
        }
        let recorder = if input["transport"] == "recording" {
            let recorder = Recorder::start().map_err(|e| OpError::Crash(format!("cannot start the recording transport: {e}")))?;
            opts.http_client = Some(recorder.client().map_err(|e| OpError::Crash(format!("cannot build the recording client: {e}")))?);
            Some(recorder)
        } else {
            None
        };
        let provided = if input["store"] == "provided" {
            let store = Arc::new(InMemoryConversationStore::new());
            opts.store = Some(store.clone() as Arc<dyn ConversationStore>);
            Some(store)
        } else {
            None
        };
        let client = create_client(opts);
        self.clients.insert(handle, ClientEntry { client, provided, observed, turn, recorder });
        Ok(json!({}))
    }

    fn client_of(&self, input: &Value) -> Result<&ClientEntry, OpError> {
        let name = str_of(input, "client");
        self.clients.get(&name).ok_or_else(|| OpError::runner("other", format!("no client named {name:?} in this session")))
    }

    /// The toolkit a client call runs against: the named one, else an empty toolkit of the runner's
    /// own (builtins off, nothing else): the port's run/ask/stream take a `&Toolkit`, not an Option.
    async fn toolkit_for(&mut self, input: &Value) -> Result<Toolkit, OpError> {
        if let Some(name) = input["toolkit"].as_str() {
            return self
                .toolkits
                .get(name)
                .map(|t| t.toolkit.clone())
                .ok_or_else(|| OpError::runner("other", format!("no toolkit named {name:?} in this session")));
        }
        if self.empty.is_none() {
            let opts = ToolkitOptions { builtins: Some(BuiltinsConfig::off()), ..Default::default() };
            let empty = create_toolkit(opts).await.map_err(|e| OpError::Crash(format!("cannot create the empty toolkit: {e}")))?;
            self.empty = Some(empty);
        }
        Ok(self.empty.clone().expect("set above"))
    }

    /// Starts one client call: the client, its toolkit, the turn counter back at 0.
    async fn begin_call(&mut self, input: &Value) -> Result<(Client, Toolkit), OpError> {
        let toolkit = self.toolkit_for(input).await?;
        let entry = self.client_of(input)?;
        entry.turn.store(0, Ordering::SeqCst);
        Ok((entry.client.clone(), toolkit))
    }

    /// Ends one client call: what the port wrote to stderr during it are this client's warnings.
    fn end_call(&self, input: &Value) {
        let lines = logcapture::take();
        if let Ok(entry) = self.client_of(input) {
            lock(&entry.observed).warnings.extend(lines);
        }
    }

    pub async fn client_run(&mut self, input: &Value) -> Result<Value, OpError> {
        let (client, toolkit) = self.begin_call(input).await?;
        let history = input["history"].as_array().cloned().unwrap_or_default();
        let outcome = client.run_ctx(cancel_after(input), str_of(input, "prompt"), &toolkit, history).await;
        self.end_call(input);
        Ok(run_result(&outcome?))
    }

    pub async fn client_ask(&mut self, input: &Value) -> Result<Value, OpError> {
        let (client, toolkit) = self.begin_call(input).await?;
        let outcome = client.ask_ctx(cancel_after(input), str_of(input, "prompt"), &toolkit, &str_of(input, "id")).await;
        self.end_call(input);
        Ok(run_result(&outcome?))
    }

    pub async fn client_stream(&mut self, input: &Value) -> Result<Value, OpError> {
        if input.get("history").is_some() {
            return Err(OpError::Unsupported("toolnexus (Rust) stream_ctx takes a conversation id, not prior messages".into()));
        }
        let (client, toolkit) = self.begin_call(input).await?;
        let outcome = stream(&client, &toolkit, input).await;
        self.end_call(input);
        outcome
    }

    pub fn client_observations(&self, input: &Value) -> Result<Value, OpError> {
        let entry = self.client_of(input)?;
        let accessor = entry.client.conversation_store();
        let store_accessor = match &entry.provided {
            Some(p) if std::ptr::addr_eq(Arc::as_ptr(&accessor), Arc::as_ptr(p)) => "provided",
            Some(_) => "missing",
            None => "default",
        };
        let transport_requests = entry.recorder.as_ref().map(Recorder::requests).unwrap_or_default();
        let observed = lock(&entry.observed);
        Ok(json!({
            "transformInputs": observed.transform_inputs,
            "hookCalls": observed.hook_calls,
            "warnings": observed.warnings,
            "transportRequests": transport_requests,
            "storeAccessor": store_accessor,
        }))
    }

    pub fn store_get(&self, input: &Value) -> Result<Value, OpError> {
        let entry = self.client_of(input)?;
        let messages = entry.client.conversation_store().get(&str_of(input, "id")).map_err(|e| OpError::Failed {
            kind: "other", type_name: "toolnexus::store::ConversationStore::get".into(), message: e, details: None,
        })?;
        Ok(json!({"messages": messages}))
    }

    pub fn store_save(&self, input: &Value) -> Result<Value, OpError> {
        let entry = self.client_of(input)?;
        let messages = input["messages"].as_array().cloned().unwrap_or_default();
        entry.client.conversation_store().save(&str_of(input, "id"), &messages).map_err(|e| OpError::Failed {
            kind: "other", type_name: "toolnexus::store::ConversationStore::save".into(), message: e, details: None,
        })?;
        Ok(json!({}))
    }
}

/// client.stream: the port's events as it sends them, but usage once, with the call's totals from
/// the done result, just before done (the port sends a running total per run end).
async fn stream(client: &Client, toolkit: &Toolkit, input: &Value) -> Result<Value, OpError> {
    let mut rx = client.stream_ctx(cancel_after(input), str_of(input, "prompt"), toolkit, &str_of(input, "id"))?;
    let mut events: Vec<Value> = Vec::new();
    let mut done: Option<RunResult> = None;
    let mut saw_usage = false;
    while let Some(ev) = rx.recv().await {
        match ev.kind.as_str() {
            "text" => events.push(json!({"type": "text", "delta": ev.delta})),
            "tool_call" => events.push(json!({"type": "tool_call", "id": ev.id, "name": ev.name, "args": obj_or_empty(&ev.args)})),
            "tool_result" => events.push(json!({"type": "tool_result", "id": ev.id, "name": ev.name, "output": ev.output, "isError": ev.is_error})),
            "usage" => saw_usage = true,
            "done" => done = ev.result.map(|r| *r),
            "error" => {
                if let Some(e) = ev.error {
                    return Err(e.into());
                }
            }
            _ => {}
        }
    }
    let Some(done) = done else {
        return Err(OpError::runner("other", "the stream ended without a done event"));
    };
    if saw_usage {
        events.push(json!({"type": "usage", "input": done.usage.prompt_tokens, "output": done.usage.completion_tokens}));
    }
    events.push(json!({"type": "done"}));
    let mut value = run_result(&done);
    value["events"] = Value::Array(events);
    Ok(value)
}
