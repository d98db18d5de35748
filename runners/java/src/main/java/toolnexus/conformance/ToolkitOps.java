package toolnexus.conformance;

import static toolnexus.conformance.Json.list;
import static toolnexus.conformance.Json.map;
import static toolnexus.conformance.Json.str;

import io.github.muthuishere.toolnexus.McpSource;
import io.github.muthuishere.toolnexus.NativeTool;
import io.github.muthuishere.toolnexus.Tool;
import io.github.muthuishere.toolnexus.ToolResult;
import io.github.muthuishere.toolnexus.Toolkit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The toolkit operations (toolkit.*) and the MCP inventory (mcp.list) over the port's Toolkit and McpSource. */
final class ToolkitOps {
    static final class ToolkitEntry {
        final Toolkit toolkit;
        final List<String> warnings;
        boolean closed;
        ToolkitEntry(Toolkit toolkit, List<String> warnings) { this.toolkit = toolkit; this.warnings = warnings; }
    }

    private final Session session;

    ToolkitOps(Session session) { this.session = session; }

    Object create(Map<String, Object> input) {
        String handle = str(input.get("handle"));
        if (session.toolkits.containsKey(handle)) throw new Errors.ContractError("other", "toolkit \"" + handle + "\" already exists");
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
        session.toolkits.put(handle, new ToolkitEntry(toolkit, new ArrayList<>(warnings)));
        List<String> names = new ArrayList<>();
        for (Tool t : toolkit.tools()) names.add(t.name());
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("tools", names);
        v.put("status", toolkit.mcpStatus());
        return v;
    }

    Object tools(Map<String, Object> input) {
        List<Object> tools = new ArrayList<>();
        for (Tool t : session.toolkitOf(input).toolkit.tools()) tools.add(toolInfo(t.name(), t.description(), t.inputSchema()));
        return Map.of("tools", tools);
    }

    Object execute(Map<String, Object> input) {
        ToolResult r;
        try {
            r = session.toolkitOf(input).toolkit.execute(str(input.get("name")), map(input.get("args")));
        } catch (RuntimeException e) {
            throw new Errors.ContractError("tool", String.valueOf(e.getMessage()));
        }
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("output", r.output());
        v.put("isError", r.isError());
        return v;
    }

    Object adapter(Map<String, Object> input) {
        Toolkit tk = session.toolkitOf(input).toolkit;
        String format = str(input.get("format"));
        Object value = switch (format) {
            case "openai" -> tk.toOpenAI();
            case "anthropic" -> tk.toAnthropic();
            case "gemini" -> tk.toGemini();
            default -> throw new Errors.ContractError("other", "unknown adapter format \"" + format + "\"");
        };
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("value", value);
        return v;
    }

    Object status(Map<String, Object> input) {
        return Map.of("status", session.toolkitOf(input).toolkit.mcpStatus());
    }

    Object warnings(Map<String, Object> input) {
        return Map.of("warnings", new ArrayList<>(session.toolkitOf(input).warnings));
    }

    Object close(Map<String, Object> input) {
        ToolkitEntry e = session.toolkitOf(input);
        if (!e.closed) { e.closed = true; e.toolkit.close(); }
        return Map.of();
    }

    Object mcpList(Map<String, Object> input) {
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

    /** `{file: PATH}` names a JSON config file (a path string for the port); any other object is the config. */
    static Object configInput(Object raw) {
        if (!(raw instanceof Map<?, ?> m)) return null;
        if (m.size() == 1 && m.get("file") instanceof String file) return file;
        return raw;
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

    private static Map<String, Object> toolInfo(String name, String description, Map<String, Object> schema) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("name", name);
        v.put("description", description);
        v.put("inputSchema", schema);
        return v;
    }
}
