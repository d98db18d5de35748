package toolnexus.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.flipkart.zjsonpatch.JsonPatch;
import io.github.muthuishere.toolnexus.LlmClient;
import io.github.muthuishere.toolnexus.McpSource;
import io.github.muthuishere.toolnexus.NativeTool;
import io.github.muthuishere.toolnexus.Tool;
import io.github.muthuishere.toolnexus.ToolResult;
import io.github.muthuishere.toolnexus.Toolkit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The operations of runners/PROTOCOL.md over the Java port's public API. */
final class Ops {
    /** The op or option has no counterpart in the port: answered as error kind `unsupported`. */
    static final class Unsupported extends RuntimeException {
        Unsupported(String reason) { super(reason); }
    }

    /** A failure the runner itself detects (unknown handle...), with its protocol kind. */
    static final class ContractError extends RuntimeException {
        final String kind;
        ContractError(String kind, String message) { super(message); this.kind = kind; }
    }

    static final class ClientEntry {
        LlmClient client;
        LlmClient.ConversationStore provided;
        final List<String> warnings = Collections.synchronizedList(new ArrayList<>());
        final List<Object> transformInputs = Collections.synchronizedList(new ArrayList<>());
        final List<Object> hookCalls = Collections.synchronizedList(new ArrayList<>());
        final List<Object> transportRequests = Collections.synchronizedList(new ArrayList<>());
        /** Body transform calls in the current run/ask/stream: the turn (it runs once per LLM request). */
        final java.util.concurrent.atomic.AtomicInteger turn = new java.util.concurrent.atomic.AtomicInteger();
    }

    static final class ToolkitEntry {
        final Toolkit toolkit;
        final List<String> warnings;
        boolean closed;
        ToolkitEntry(Toolkit toolkit, List<String> warnings) { this.toolkit = toolkit; this.warnings = warnings; }
    }

    static final String PLACEHOLDER_API_KEY = "conformance-placeholder-key";

    private Map<String, ClientEntry> clients = new LinkedHashMap<>();
    private Map<String, ToolkitEntry> toolkits = new LinkedHashMap<>();
    private Toolkit empty;

    // ------------------------------------------------------------------ dispatch

    Map<String, Object> answer(Object seq, String op, Map<String, Object> input) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("seq", seq);
        long started = System.nanoTime();
        try {
            Object value = perform(op, input);
            out.put("type", "result");
            out.put("elapsedMs", (System.nanoTime() - started) / 1e6);
            out.put("value", value == null ? Map.of() : value);
        } catch (Unsupported e) {
            out.put("type", "error");
            out.put("elapsedMs", (System.nanoTime() - started) / 1e6);
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("kind", "unsupported");
            error.put("message", e.getMessage());
            out.put("error", error);
        } catch (Throwable e) {
            out.put("type", "error");
            out.put("elapsedMs", (System.nanoTime() - started) / 1e6);
            out.put("error", classify(op, e));
        }
        return out;
    }

    private Object perform(String op, Map<String, Object> input) throws Exception {
        switch (op) {
            case "session.reset": reset(); return Map.of();
            case "runner.echo": { Map<String, Object> v = new LinkedHashMap<>(); v.put("value", input.get("value")); return v; }
            case "client.create": return clientCreate(input);
            case "client.run": return withClient(input, (e, tk) -> withCancel(input, cancel ->
                    runResult(e.client.run(str(input.get("prompt")), tk, input.get("history") == null ? null : list(input.get("history")), cancel))));
            case "client.ask": return withClient(input, (e, tk) -> withCancel(input, cancel -> runResult(e.client.ask(str(input.get("prompt")), tk, str(input.get("id")), cancel))));
            case "client.stream":
                // The port's stream(...) overloads take no CancelToken (LlmClient.java stream): nothing to cancel it with.
                if (input.get("abortAfterMs") != null) throw new Unsupported("the 0.16.0 Java port's stream takes no CancelToken (only run and ask do)");
                return withClient(input, (e, tk) -> stream(e, tk, input));
            case "client.observations": return observations(input);
            case "store.get": {
                List<Object> messages = clientOf(input).client.conversationStore().get(str(input.get("id")));
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("messages", messages);
                return v;
            }
            case "store.save":
                clientOf(input).client.conversationStore().save(str(input.get("id")), list(input.get("messages")));
                return Map.of();
            case "toolkit.create": return toolkitCreate(input);
            case "toolkit.tools": {
                List<Object> tools = new ArrayList<>();
                for (Tool t : toolkitOf(input).toolkit.tools()) tools.add(toolInfo(t.name(), t.description(), t.inputSchema()));
                return Map.of("tools", tools);
            }
            case "toolkit.execute": {
                ToolResult r;
                try {
                    r = toolkitOf(input).toolkit.execute(str(input.get("name")), map(input.get("args")));
                } catch (RuntimeException e) {
                    throw new ContractError("tool", String.valueOf(e.getMessage()));
                }
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("output", r.output());
                v.put("isError", r.isError());
                return v;
            }
            case "toolkit.adapter": {
                Toolkit tk = toolkitOf(input).toolkit;
                String format = str(input.get("format"));
                Object value = switch (format) {
                    case "openai" -> tk.toOpenAI();
                    case "anthropic" -> tk.toAnthropic();
                    case "gemini" -> tk.toGemini();
                    default -> throw new ContractError("other", "unknown adapter format \"" + format + "\"");
                };
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("value", value);
                return v;
            }
            case "toolkit.status": return Map.of("status", toolkitOf(input).toolkit.mcpStatus());
            case "toolkit.warnings": return Map.of("warnings", new ArrayList<>(toolkitOf(input).warnings));
            case "toolkit.close": {
                ToolkitEntry e = toolkitOf(input);
                if (!e.closed) { e.closed = true; e.toolkit.close(); }
                return Map.of();
            }
            case "toolkit.introspect": throw new Unsupported("the 0.16.0 Java port has no registry of open toolkits");
            case "mcp.list": return mcpList(input);
            case "mcp.parse":
                throw new Unsupported("the 0.16.0 Java port has no public config parser (McpSource.parseConfig and the "
                        + "type/enabled/timeout rules are package-private)");
            default: throw new Unsupported("the java runner has no operation \"" + op + "\"");
        }
    }

    void reset() {
        for (ToolkitEntry e : toolkits.values()) {
            if (!e.closed) {
                e.closed = true;
                try { e.toolkit.close(); } catch (Exception ignored) { /* best effort */ }
            }
        }
        if (empty != null) empty.close();
        empty = null;
        clients = new LinkedHashMap<>();
        toolkits = new LinkedHashMap<>();
    }

    // ------------------------------------------------------------------ errors

    /** The 0.16.0 port raises a plain RuntimeException("LLM <status>: <body>") for a non-2xx answer. */
    private static final Pattern HTTP_ERROR = Pattern.compile("(?s)^LLM (\\d{3}): (.*)$");

    static Map<String, Object> classify(String op, Throwable error) {
        Map<String, Object> out = new LinkedHashMap<>();
        String kind = "other";
        String message = String.valueOf(error.getMessage());
        if (error instanceof ContractError c) {
            kind = c.kind;
        } else if (error instanceof LlmClient.TimeoutException) {
            kind = "deadline";
        } else if (error instanceof LlmClient.CancelledException || error instanceof CancellationException) {
            // McpSource's CancelSignal cannot tell a cancel from a deadline: cancelled (PROTOCOL.md).
            kind = "cancelled";
        } else {
            Matcher m = HTTP_ERROR.matcher(message);
            if (m.matches()) {
                kind = "http";
                String body = m.group(2);
                out.put("details", Map.of("status", Integer.parseInt(m.group(1)),
                        "bodyExcerpt", body.length() > 500 ? body.substring(0, 500) : body));
            } else if ((op.equals("toolkit.create") || op.startsWith("mcp.")) && message.startsWith("Cannot read MCP config")) {
                kind = "config";
            }
        }
        out.put("kind", kind);
        out.put("type", error.getClass().getName());
        out.put("message", message);
        return out;
    }

    // ------------------------------------------------------------------ client

    private Object clientCreate(Map<String, Object> input) {
        String handle = str(input.get("handle"));
        if (clients.containsKey(handle)) throw new ContractError("other", "client \"" + handle + "\" already exists");
        ClientEntry entry = new ClientEntry();
        LlmClient.Options opts = new LlmClient.Options()
                .baseUrl(str(input.get("baseUrl")))
                .style(str(input.get("style")))
                .model(str(input.get("model")));
        // The port refuses to run without an API key and otherwise reads OPENROUTER_API_KEY /
        // OPENAI_API_KEY / ANTHROPIC_API_KEY (LlmClient.resolveKey). The fixtures' mock LLM needs none
        // and a developer's real key must never reach a fixture's request log: a client created
        // without `apiKey` gets a placeholder (as the python runner does).
        String apiKey = str(input.get("apiKey"));
        opts.apiKey(apiKey.isEmpty() ? PLACEHOLDER_API_KEY : apiKey);
        if (input.get("headers") instanceof Map<?, ?> h) {
            Map<String, String> headers = new LinkedHashMap<>();
            h.forEach((k, v) -> headers.put(String.valueOf(k), String.valueOf(v)));
            opts.headers(headers);
        }
        if (input.get("systemPrompt") != null) opts.systemPrompt(str(input.get("systemPrompt")));
        if (input.get("maxTurns") instanceof Number n) opts.maxTurns(n.intValue());
        if (input.get("retries") instanceof Number n) opts.retries(n.intValue());
        if (input.get("retryBaseMs") instanceof Number n) opts.retryBaseMs(n.intValue());
        if (input.get("timeoutMs") instanceof Number n) opts.timeoutMs(n.longValue());
        if (input.get("requestParams") != null) opts.requestParams(map(input.get("requestParams")));
        if (input.get("bodyTransform") != null) opts.bodyTransform(bodyTransform(map(input.get("bodyTransform")), entry));
        if (input.get("hooks") != null) opts.hooks(hooks(map(input.get("hooks")), entry));
        if ("recording".equals(input.get("transport"))) opts.httpClient(new RecordingHttpClient(entry.transportRequests));
        if ("provided".equals(input.get("store"))) {
            entry.provided = new LlmClient.InMemoryConversationStore();
            opts.store(entry.provided);
        }
        entry.client = LlmClient.create(opts);
        clients.put(handle, entry);
        return Map.of();
    }

    /** bodyTransform as data: record a deep copy of the body, then return null or the RFC 6902-patched body. */
    @SuppressWarnings("unchecked")
    private static java.util.function.Function<Map<String, Object>, Map<String, Object>> bodyTransform(Map<String, Object> data, ClientEntry entry) {
        boolean returnNull = Boolean.TRUE.equals(data.get("returnNull"));
        boolean inPlace = Boolean.TRUE.equals(data.get("inPlace"));
        JsonNode patch = data.containsKey("patch") ? Main.JSON.valueToTree(data.get("patch")) : null;
        List<Object> onTurns = data.get("onTurns") instanceof List<?> l ? (List<Object>) l : null;
        return body -> {
            entry.transformInputs.add(deepCopy(body));
            int turn = entry.turn.getAndIncrement();
            // Not on this turn: the body goes out as built.
            if (onTurns != null && onTurns.stream().noneMatch(t -> t instanceof Number n && n.intValue() == turn)) return body;
            if (inPlace && patch != null) {
                // inPlace: the patched document's keys replace the received map's own, so the edit lives in it.
                Map<String, Object> edited = Main.JSON.convertValue(JsonPatch.apply(patch, Main.JSON.valueToTree(body)), Map.class);
                body.clear();
                body.putAll(edited);
            }
            if (returnNull) return null;
            if (patch == null || inPlace) return body;
            JsonNode patched = JsonPatch.apply(patch, Main.JSON.valueToTree(body));
            return Main.JSON.convertValue(patched, Map.class);
        };
    }

    @SuppressWarnings("unchecked")
    private static LlmClient.Hooks hooks(Map<String, Object> data, ClientEntry entry) {
        LlmClient.Hooks hooks = new LlmClient.Hooks();
        if (data.get("beforeLLM") instanceof Map<?, ?> raw) {
            Map<String, Object> before = (Map<String, Object>) raw;
            Object setTools = before.get("setTools");
            List<Object> onTurns = before.get("onTurns") instanceof List<?> l ? (List<Object>) l : null;
            hooks.beforeLLM(ev -> {
                Map<String, Object> in = new LinkedHashMap<>();
                in.put("turn", ev.turn());
                in.put("messageCount", ev.messages() == null ? 0 : ev.messages().size());
                in.put("toolCount", ev.tools() == null ? 0 : ev.tools().size());
                entry.hookCalls.add(Map.of("hook", "beforeLLM", "input", in));
                boolean onThisTurn = onTurns == null || onTurns.stream().anyMatch(t -> t instanceof Number n && n.intValue() == ev.turn());
                if (!(setTools instanceof List<?>) || !onThisTurn) return null;
                List<Map<String, Object>> tools = (List<Map<String, Object>>) deepCopy(setTools);
                return new LlmClient.LLMOverride(null, tools);
            });
        }
        if (data.get("beforeTool") instanceof Map<?, ?> raw) {
            Map<String, Object> before = (Map<String, Object>) raw;
            hooks.beforeTool(ev -> {
                Map<String, Object> in = new LinkedHashMap<>();
                in.put("name", ev.name());
                in.put("args", deepCopy(ev.args() == null ? Map.of() : ev.args()));
                entry.hookCalls.add(Map.of("hook", "beforeTool", "input", in));
                if (before.get("result") instanceof Map<?, ?> r) {
                    return LlmClient.ToolOverride.withResult(new ToolResult(String.valueOf(r.get("output")), Boolean.TRUE.equals(r.get("isError")), null));
                }
                if (before.get("args") instanceof Map<?, ?> a) {
                    return LlmClient.ToolOverride.withArgs((Map<String, Object>) deepCopy(a));
                }
                return null;
            });
        }
        return hooks;
    }

    interface ClientCall { Object call(ClientEntry entry, Toolkit toolkit) throws Exception; }

    /** One client call, with what the port writes to System.err captured as the client's warnings. */
    private Object withClient(Map<String, Object> input, ClientCall call) throws Exception {
        ClientEntry entry = clientOf(input);
        Toolkit toolkit = toolkitFor(input);
        entry.turn.set(0); // a new call starts at turn 0
        Main.Capture capture = new Main.Capture();
        try {
            return call.call(entry, toolkit);
        } finally {
            capture.close();
            entry.warnings.addAll(capture.lines());
        }
    }

    private Object stream(ClientEntry entry, Toolkit toolkit, Map<String, Object> input) {
        List<Object> events = new ArrayList<>();
        boolean[] sawUsage = {false};
        String id = input.get("id") == null ? null : str(input.get("id"));
        LlmClient.RunResult result = entry.client.stream(str(input.get("prompt")), toolkit, ev -> {
            Map<String, Object> e = new LinkedHashMap<>();
            switch (ev.type()) {
                case TEXT -> { e.put("type", "text"); e.put("delta", ev.delta()); }
                case TOOL_CALL -> { e.put("type", "tool_call"); e.put("id", ev.id()); e.put("name", ev.name()); e.put("args", ev.args() == null ? Map.of() : ev.args()); }
                case TOOL_RESULT -> { e.put("type", "tool_result"); e.put("id", ev.id()); e.put("name", ev.name()); e.put("output", ev.output()); e.put("isError", ev.isError()); }
                case USAGE -> sawUsage[0] = true; // reported once, with the call's totals, below
                default -> { }
            }
            if (!e.isEmpty()) events.add(deepCopy(e));
        }, id);
        if (sawUsage[0]) {
            Map<String, Object> usage = new LinkedHashMap<>();
            usage.put("type", "usage");
            usage.put("input", result.usage.promptTokens);
            usage.put("output", result.usage.completionTokens);
            events.add(usage);
        }
        events.add(Map.of("type", "done"));
        Map<String, Object> value = runResult(result);
        value.put("events", events);
        return value;
    }

    private Object observations(Map<String, Object> input) {
        ClientEntry entry = clientOf(input);
        LlmClient.ConversationStore accessor = entry.client.conversationStore();
        String storeAccessor = entry.provided != null
                ? (accessor == entry.provided ? "provided" : "missing")
                : (accessor != null ? "default" : "missing");
        Map<String, Object> v = new LinkedHashMap<>();
        synchronized (entry.transformInputs) { v.put("transformInputs", deepCopy(entry.transformInputs)); }
        synchronized (entry.hookCalls) { v.put("hookCalls", deepCopy(entry.hookCalls)); }
        synchronized (entry.warnings) { v.put("warnings", new ArrayList<>(entry.warnings)); }
        synchronized (entry.transportRequests) { v.put("transportRequests", deepCopy(entry.transportRequests)); }
        v.put("storeAccessor", storeAccessor);
        return v;
    }

    private static Map<String, Object> runResult(LlmClient.RunResult r) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("text", r.text);
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("input", r.usage.promptTokens);
        usage.put("output", r.usage.completionTokens);
        v.put("usage", usage);
        v.put("messages", r.messages == null ? List.of() : r.messages);
        return v;
    }

    // ------------------------------------------------------------------ toolkit / mcp

    /** `{file: PATH}` names a JSON config file (a path string for the port); any other object is the config. */
    static Object configInput(Object raw) {
        if (!(raw instanceof Map<?, ?> m)) return null;
        if (m.size() == 1 && m.get("file") instanceof String file) return file;
        return raw;
    }

    private static final java.util.concurrent.ScheduledExecutorService CANCELLER = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "abortAfterMs");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * abortAfterMs (client.cancel) on run/ask: the port's CancelToken, cancelled that many ms in (it
     * interrupts the run's thread); null without abortAfterMs, which the port reads as "no token".
     */
    private static Object withCancel(Map<String, Object> input, java.util.function.Function<LlmClient.CancelToken, Object> call) {
        if (!(input.get("abortAfterMs") instanceof Number after)) return call.apply(null);
        LlmClient.CancelToken token = new LlmClient.CancelToken();
        java.util.concurrent.ScheduledFuture<?> timer = CANCELLER.schedule(token::cancel, after.longValue(), java.util.concurrent.TimeUnit.MILLISECONDS);
        try {
            return call.apply(token);
        } finally {
            timer.cancel(false);
        }
    }

    /**
     * The caller's cancellation: abortAfterMs / deadlineMs as the port's CancelSignal, which turns
     * true that many ms after the load starts (the Java port has no separate deadline type).
     */
    static McpSource.CancelSignal cancelSignal(Map<String, Object> input) {
        Object after = input.get("deadlineMs") != null ? input.get("deadlineMs") : input.get("abortAfterMs");
        if (!(after instanceof Number n)) return null;
        long at = System.nanoTime() + n.longValue() * 1_000_000L;
        return () -> System.nanoTime() - at >= 0;
    }

    private static Tool extraTool(Map<String, Object> data) {
        Object result = data.get("result");
        // `throws`: the tool fails the Java way, a thrown RuntimeException with exactly that message.
        String throwsMessage = data.get("throws") == null ? null : str(data.get("throws"));
        Map<String, Object> schema = data.get("inputSchema") instanceof Map<?, ?> ? map(data.get("inputSchema")) : null;
        String description = data.get("description") == null ? "" : str(data.get("description"));
        return NativeTool.of(str(data.get("name")), description, schema, (Map<String, Object> args) -> {
            if (throwsMessage != null) throw new RuntimeException(throwsMessage);
            if (result instanceof Map<?, ?> r) {
                return new ToolResult(String.valueOf(r.get("output")), Boolean.TRUE.equals(r.get("isError")), null);
            }
            try {
                return Main.JSON.writeValueAsString(args);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
    }

    private Object toolkitCreate(Map<String, Object> input) {
        String handle = str(input.get("handle"));
        if (toolkits.containsKey(handle)) throw new ContractError("other", "toolkit \"" + handle + "\" already exists");
        Toolkit.Options opts = new Toolkit.Options().builtins(false);
        Object config = configInput(input.get("mcpConfig"));
        if (config != null) opts.mcpConfig(config);
        List<Tool> extras = new ArrayList<>();
        for (Object raw : list(input.get("extraTools"))) extras.add(extraTool(map(raw)));
        opts.extraTools(extras);
        if (input.get("disableTools") != null) {
            List<String> names = new ArrayList<>();
            for (Object n : list(input.get("disableTools"))) names.add(String.valueOf(n));
            opts.disableTools(names);
        }
        McpSource.CancelSignal signal = cancelSignal(input);
        if (signal != null) opts.cancelSignal(signal);
        Toolkit toolkit;
        List<String> warnings;
        try (Main.Capture capture = new Main.Capture()) {
            toolkit = Toolkit.create(opts);
            System.err.flush();
            warnings = capture.lines();
        }
        toolkits.put(handle, new ToolkitEntry(toolkit, new ArrayList<>(warnings)));
        List<String> names = new ArrayList<>();
        for (Tool t : toolkit.tools()) names.add(t.name());
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("tools", names);
        v.put("status", toolkit.mcpStatus());
        return v;
    }

    private Object mcpList(Map<String, Object> input) {
        McpSource.McpInventory inventory = McpSource.listMcpTools(configInput(input.get("config")), cancelSignal(input));
        Map<String, Object> tools = new LinkedHashMap<>();
        inventory.tools().forEach((server, infos) -> {
            List<Object> list = new ArrayList<>();
            for (McpSource.ToolInfo info : infos) list.add(toolInfo(info.name(), info.description(), info.inputSchema()));
            tools.put(server, list);
        });
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("tools", tools);
        v.put("status", inventory.status());
        return v;
    }

    // ------------------------------------------------------------------ handles and helpers

    private ClientEntry clientOf(Map<String, Object> input) {
        ClientEntry e = clients.get(str(input.get("client")));
        if (e == null) throw new ContractError("other", "no client named \"" + str(input.get("client")) + "\" in this session");
        return e;
    }

    private ToolkitEntry toolkitOf(Map<String, Object> input) {
        ToolkitEntry e = toolkits.get(str(input.get("toolkit")));
        if (e == null) throw new ContractError("other", "no toolkit named \"" + str(input.get("toolkit")) + "\" in this session");
        return e;
    }

    /** The named toolkit, else an empty one (builtins off) for client calls that name none. */
    private Toolkit toolkitFor(Map<String, Object> input) {
        if (input.containsKey("toolkit")) {
            ToolkitEntry e = toolkits.get(str(input.get("toolkit")));
            if (e == null) throw new ContractError("other", "no toolkit named \"" + str(input.get("toolkit")) + "\" in this session");
            return e.toolkit;
        }
        if (empty == null) empty = Toolkit.create(new Toolkit.Options().builtins(false));
        return empty;
    }

    private static Map<String, Object> toolInfo(String name, String description, Map<String, Object> schema) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", name);
        v.put("description", description);
        v.put("inputSchema", schema);
        return v;
    }

    static Object deepCopy(Object value) {
        return Main.JSON.convertValue(Main.JSON.valueToTree(value), Object.class);
    }

    static String str(Object value) { return value == null ? "" : String.valueOf(value); }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> ? (Map<String, Object>) value : new LinkedHashMap<>();
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object value) {
        return value instanceof List<?> ? (List<Object>) value : new ArrayList<>();
    }
}
