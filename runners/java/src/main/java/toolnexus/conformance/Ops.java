package toolnexus.conformance;

import java.util.LinkedHashMap;
import java.util.Map;

/** The operations of runners/PROTOCOL.md: the op table, and one answer per request. */
final class Ops {
    interface Op { Object perform(Map<String, Object> input) throws Exception; }

    private final Session session = new Session();
    private final Map<String, Op> table = new LinkedHashMap<>();

    Ops() {
        ClientOps client = new ClientOps(session);
        ToolkitOps toolkit = new ToolkitOps(session);
        table.put("session.reset", input -> { reset(); return Map.of(); });
        table.put("runner.echo", input -> { Map<String, Object> v = new LinkedHashMap<>(); v.put("value", input.get("value")); return v; });
        table.put("client.create", client::create);
        table.put("client.run", client::run);
        table.put("client.ask", client::ask);
        table.put("client.stream", client::stream);
        table.put("client.observations", client::observations);
        table.put("store.get", client::storeGet);
        table.put("store.save", client::storeSave);
        table.put("toolkit.create", toolkit::create);
        table.put("toolkit.tools", toolkit::tools);
        table.put("toolkit.execute", toolkit::execute);
        table.put("toolkit.adapter", toolkit::adapter);
        table.put("toolkit.status", toolkit::status);
        table.put("toolkit.warnings", toolkit::warnings);
        table.put("toolkit.close", toolkit::close);
        table.put("toolkit.introspect", input -> { throw new Errors.Unsupported("the 0.16.0 Java port has no registry of open toolkits"); });
        table.put("mcp.list", toolkit::mcpList);
        table.put("mcp.parse", input -> {
            throw new Errors.Unsupported("the 0.16.0 Java port has no public config parser (McpSource.parseConfig and the "
                    + "type/enabled/timeout rules are package-private)");
        });
    }

    Map<String, Object> answer(Object seq, String op, Map<String, Object> input) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("seq", seq);
        long started = System.nanoTime();
        try {
            Object value = perform(op, input);
            out.put("type", "result");
            out.put("elapsedMs", (System.nanoTime() - started) / 1e6);
            out.put("value", value == null ? Map.of() : value);
        } catch (Errors.Unsupported e) {
            out.put("type", "error");
            out.put("elapsedMs", (System.nanoTime() - started) / 1e6);
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("kind", "unsupported");
            error.put("message", e.getMessage());
            out.put("error", error);
        } catch (Throwable e) {
            out.put("type", "error");
            out.put("elapsedMs", (System.nanoTime() - started) / 1e6);
            out.put("error", Errors.classify(op, e));
        }
        return out;
    }

    private Object perform(String op, Map<String, Object> input) throws Exception {
        Op handler = table.get(op);
        if (handler == null) throw new Errors.Unsupported("the java runner has no operation \"" + op + "\"");
        return handler.perform(input);
    }

    void reset() {
        session.reset();
    }
}
