package toolnexus.conformance;

import static toolnexus.conformance.Json.deepCopy;
import static toolnexus.conformance.Json.list;
import static toolnexus.conformance.Json.map;
import static toolnexus.conformance.Json.str;

import com.fasterxml.jackson.databind.JsonNode;
import com.flipkart.zjsonpatch.JsonPatch;
import io.github.muthuishere.toolnexus.LlmClient;
import io.github.muthuishere.toolnexus.ToolResult;
import io.github.muthuishere.toolnexus.Toolkit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The client operations (client.*, store.*) over the port's LlmClient. */
final class ClientOps {
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

    static final String PLACEHOLDER_API_KEY = "conformance-placeholder-key";

    private final Session session;

    ClientOps(Session session) { this.session = session; }

    Object create(Map<String, Object> input) {
        String handle = str(input.get("handle"));
        if (session.clients.containsKey(handle)) throw new Errors.ContractError("other", "client \"" + handle + "\" already exists");
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
        session.clients.put(handle, entry);
        return Map.of();
    }

    Object run(Map<String, Object> input) throws Exception {
        return withClient(input, (e, tk) -> withCancel(input, cancel ->
                runResult(e.client.run(str(input.get("prompt")), tk, input.get("history") == null ? null : list(input.get("history")), cancel))));
    }

    Object ask(Map<String, Object> input) throws Exception {
        return withClient(input, (e, tk) -> withCancel(input, cancel -> runResult(e.client.ask(str(input.get("prompt")), tk, str(input.get("id")), cancel))));
    }

    Object stream(Map<String, Object> input) throws Exception {
        // The port's stream(...) overloads take no CancelToken (LlmClient.java stream): nothing to cancel it with.
        if (input.get("abortAfterMs") != null) throw new Errors.Unsupported("the 0.16.0 Java port's stream takes no CancelToken (only run and ask do)");
        return withClient(input, (e, tk) -> streamEvents(e, tk, input));
    }

    Object storeGet(Map<String, Object> input) {
        List<Object> messages = session.clientOf(input).client.conversationStore().get(str(input.get("id")));
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("messages", messages);
        return v;
    }

    Object storeSave(Map<String, Object> input) {
        session.clientOf(input).client.conversationStore().save(str(input.get("id")), list(input.get("messages")));
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
        ClientEntry entry = session.clientOf(input);
        Toolkit toolkit = session.toolkitFor(input);
        entry.turn.set(0); // a new call starts at turn 0
        Main.Capture capture = new Main.Capture();
        try {
            return call.call(entry, toolkit);
        } finally {
            capture.close();
            entry.warnings.addAll(capture.lines());
        }
    }

    private Object streamEvents(ClientEntry entry, Toolkit toolkit, Map<String, Object> input) {
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

    Object observations(Map<String, Object> input) {
        ClientEntry entry = session.clientOf(input);
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
}
