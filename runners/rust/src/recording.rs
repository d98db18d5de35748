//! `transport: "recording"`: the port's injectable HTTP client (`ClientOptions::http_client`) is a
//! `reqwest::Client`, which has no per-request hook a caller can install. The injected client is
//! therefore one whose proxy is a forwarder of the runner's own on loopback: it records every request
//! `{method, url, body}` and forwards it to the real network stack (a plain reqwest client), streaming
//! the answer back unchanged. A request reaches it only if the port really uses the injected client.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use futures_util::TryStreamExt;
use http_body_util::{combinators::BoxBody, BodyExt, Full, StreamBody};
use hyper::body::{Bytes, Frame, Incoming};
use hyper::{Request, Response};
use serde_json::{json, Value};

type Body = BoxBody<Bytes, Box<dyn std::error::Error + Send + Sync>>;

pub struct Recorder {
    port: u16,
    requests: Arc<Mutex<Vec<Value>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn full(text: String) -> Body {
    Full::new(Bytes::from(text)).map_err(|never| match never {}).boxed()
}

async fn forward(req: Request<Incoming>, upstream: reqwest::Client, requests: Arc<Mutex<Vec<Value>>>) -> Result<Response<Body>, Infallible> {
    let (parts, body) = req.into_parts();
    let bytes = body.collect().await.map(|b| b.to_bytes()).unwrap_or_default();
    let url = parts.uri.to_string();
    let decoded = serde_json::from_slice::<Value>(&bytes).unwrap_or_else(|_| json!(String::from_utf8_lossy(&bytes)));
    requests.lock().unwrap_or_else(|e| e.into_inner()).push(json!({"method": parts.method.as_str(), "url": url, "body": decoded}));
    let mut out = upstream.request(parts.method.clone(), &url);
    for (name, value) in &parts.headers {
        if !matches!(name.as_str(), "host" | "proxy-connection" | "connection" | "content-length") {
            out = out.header(name, value);
        }
    }
    let resp = match out.body(bytes.to_vec()).send().await {
        Ok(r) => r,
        Err(e) => {
            let mut r = Response::new(full(format!("recording transport: {e}")));
            *r.status_mut() = hyper::StatusCode::BAD_GATEWAY;
            return Ok(r);
        }
    };
    let mut builder = Response::builder().status(resp.status().as_u16());
    for (name, value) in resp.headers() {
        if !matches!(name.as_str(), "transfer-encoding" | "connection" | "content-length") {
            builder = builder.header(name.as_str(), value.as_bytes());
        }
    }
    let stream = resp.bytes_stream().map_ok(Frame::data).map_err(|e| Box::new(e) as Box<dyn std::error::Error + Send + Sync>);
    Ok(builder.body(BodyExt::boxed(StreamBody::new(stream))).unwrap_or_else(|e| Response::new(full(e.to_string()))))
}

impl Recorder {
    pub fn start() -> std::io::Result<Recorder> {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        std_listener.set_nonblocking(true)?;
        let port = std_listener.local_addr()?.port();
        let listener = tokio::net::TcpListener::from_std(std_listener)?;
        let requests = Arc::new(Mutex::new(Vec::new()));
        let upstream = reqwest::Client::builder().no_proxy().build().map_err(std::io::Error::other)?;
        let recorded = requests.clone();
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (upstream, recorded) = (upstream.clone(), recorded.clone());
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |req| forward(req, upstream.clone(), recorded.clone()));
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Ok(Recorder { port, requests, task })
    }

    /// The client to inject: every request goes through this recorder.
    pub fn client(&self) -> reqwest::Result<reqwest::Client> {
        reqwest::Client::builder().proxy(reqwest::Proxy::all(format!("http://127.0.0.1:{}", self.port))?).build()
    }

    pub fn requests(&self) -> Vec<Value> {
        self.requests.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}
