package toolnexus.conformance;

import static toolnexus.conformance.Json.str;

import io.github.muthuishere.toolnexus.Toolkit;
import java.util.LinkedHashMap;
import java.util.Map;

/** The handles of one session: the clients and toolkits created since the last session.reset. */
final class Session {
    Map<String, ClientOps.ClientEntry> clients = new LinkedHashMap<>();
    Map<String, ToolkitOps.ToolkitEntry> toolkits = new LinkedHashMap<>();
    /** The toolkit of client calls that name none. */
    private Toolkit empty;

    ClientOps.ClientEntry clientOf(Map<String, Object> input) {
        ClientOps.ClientEntry e = clients.get(str(input.get("client")));
        if (e == null) throw new Errors.ContractError("other", "no client named \"" + str(input.get("client")) + "\" in this session");
        return e;
    }

    ToolkitOps.ToolkitEntry toolkitOf(Map<String, Object> input) {
        ToolkitOps.ToolkitEntry e = toolkits.get(str(input.get("toolkit")));
        if (e == null) throw new Errors.ContractError("other", "no toolkit named \"" + str(input.get("toolkit")) + "\" in this session");
        return e;
    }

    /** The named toolkit, else an empty one (builtins off) for client calls that name none. */
    Toolkit toolkitFor(Map<String, Object> input) {
        if (input.containsKey("toolkit")) {
            ToolkitOps.ToolkitEntry e = toolkits.get(str(input.get("toolkit")));
            if (e == null) throw new Errors.ContractError("other", "no toolkit named \"" + str(input.get("toolkit")) + "\" in this session");
            return e.toolkit;
        }
        if (empty == null) empty = Toolkit.create(new Toolkit.Options().builtins(false));
        return empty;
    }

    /** Closes every toolkit (best effort) and drops every handle. */
    void reset() {
        for (ToolkitOps.ToolkitEntry e : toolkits.values()) {
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
}
