package toolnexus.conformance;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The `java` runner: drives the published Java port of toolnexus through the JSON-lines protocol of
 * runners/PROTOCOL.md. stdout carries protocol lines only; logs go to stderr.
 */
public final class Main {
    static final int PROTOCOL = 2;
    static final String GROUP = "io.github.muthuishere";
    static final String ARTIFACT = "toolnexus";
    static final ObjectMapper JSON = new ObjectMapper();

    /** What the 0.16.0 Java API supports (README.md lists what is left out and why). */
    static final List<String> CAPABILITIES = List.of(
            "client.run", "client.stream", "client.ask", "style.openai", "style.anthropic",
            "client.request-params", "client.body-transform", "client.hooks", "client.transport",
            "client.store-accessor", "client.retries",
            // client.cancel: run and ask take a CancelToken; stream does not and answers unsupported.
            "client.cancel",
            "toolkit.extra-tools", "toolkit.adapters",
            "mcp.stdio", "mcp.http", "mcp.sse", "mcp.cancel", "mcp.allowlist", "mcp.inventory", "mcp.config-file");

    private static PrintStream protocolOut;
    /** The real stderr; the port's warnings (System.err) are captured per operation. */
    static PrintStream stderr;

    private Main() {}

    static synchronized void write(Map<String, Object> message) {
        try {
            protocolOut.print(JSON.writeValueAsString(message) + "\n");
        } catch (Exception e) {
            Map<String, Object> crash = new LinkedHashMap<>();
            crash.put("type", "crash");
            crash.put("seq", message.get("seq"));
            crash.put("message", "cannot encode answer: " + e);
            protocolOut.print(String.valueOf(JSON.valueToTree(crash)) + "\n");
        }
        protocolOut.flush();
    }

    /**
     * The version of the port as packaged: the Maven pom.properties inside its jar, else the
     * Implementation-Version of the port's package (a source build, install-source.sh, records there
     * the `version` of the port's own build.gradle), else the resolver's own record of what it put on
     * the classpath (written into this jar by maven-dependency-plugin at build time).
     */
    static String portVersion() throws Exception {
        String path = "/META-INF/maven/" + GROUP + "/" + ARTIFACT + "/pom.properties";
        try (InputStream in = Main.class.getResourceAsStream(path)) {
            if (in != null) {
                Properties props = new Properties();
                props.load(in);
                String version = props.getProperty("version");
                if (version != null && !version.isBlank()) return version.trim();
            }
        }
        Class<?> port = Class.forName("io.github.muthuishere.toolnexus.LlmClient");
        Package pkg = port.getPackage();
        if (pkg != null && pkg.getImplementationVersion() != null && "toolnexus".equalsIgnoreCase(String.valueOf(pkg.getImplementationTitle()))) {
            return pkg.getImplementationVersion();
        }
        try (InputStream in = Main.class.getResourceAsStream("/toolnexus-runner/resolved-dependencies.txt")) {
            if (in != null) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                Matcher m = Pattern.compile(Pattern.quote(GROUP + ":" + ARTIFACT + ":jar:") + "([^:\\s]+)").matcher(text);
                if (m.find()) return m.group(1);
            }
        }
        throw new IllegalStateException("cannot find the version of " + GROUP + ":" + ARTIFACT + " on the classpath");
    }

    private static void hello(Map<String, Object> message) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", "hello");
        out.put("from", "runner");
        out.put("protocol", PROTOCOL);
        Object protocol = message.get("protocol");
        if (!(protocol instanceof Number n) || n.intValue() != PROTOCOL) {
            out.put("error", "this runner speaks protocol " + PROTOCOL);
            write(out);
            return;
        }
        try {
            Map<String, Object> implementation = new LinkedHashMap<>();
            implementation.put("name", "toolnexus");
            implementation.put("language", "java");
            implementation.put("package", GROUP + ":" + ARTIFACT);
            implementation.put("version", portVersion());
            implementation.put("capabilities", CAPABILITIES);
            out.put("implementation", implementation);
        } catch (Throwable e) {
            out.put("unavailable", String.valueOf(e));
        }
        write(out);
    }

    /** Captures what the port writes to System.err during one operation (still echoed to stderr). */
    static final class Capture implements AutoCloseable {
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

        Capture() {
            OutputStream tee = new OutputStream() {
                @Override public void write(int b) {
                    synchronized (buffer) { buffer.write(b); }
                    stderr.write(b);
                }
                @Override public void write(byte[] b, int off, int len) {
                    synchronized (buffer) { buffer.write(b, off, len); }
                    stderr.write(b, off, len);
                }
            };
            System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
        }

        List<String> lines() {
            String text;
            synchronized (buffer) { text = buffer.toString(StandardCharsets.UTF_8); }
            List<String> out = new ArrayList<>();
            for (String line : text.split("\n")) {
                if (!line.isBlank()) out.add(line.stripTrailing());
            }
            return out;
        }

        @Override public void close() {
            System.err.flush();
            System.setErr(stderr);
        }
    }

    /**
     * SLF4J (the MCP SDK's logging API; the port ships no provider) prints a one-time "No SLF4J
     * providers were found" notice on its first use. Initialized here, at start-up, that notice goes
     * to the runner's stderr instead of being captured as the first toolkit's warnings: it is about the
     * host's logging set-up, not something the port warns about. Nothing is silenced.
     */
    private static void initLogging() {
        try {
            Class.forName("org.slf4j.LoggerFactory").getMethod("getILoggerFactory").invoke(null);
        } catch (ReflectiveOperationException | LinkageError e) {
            // No SLF4J on the classpath: nothing to initialize.
        }
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        protocolOut = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        stderr = System.err;
        // Nothing but the protocol on stdout: anything printed through System.out goes to stderr.
        System.setOut(stderr);
        initLogging();
        Ops ops = new Ops();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            Map<String, Object> message;
            try {
                message = JSON.readValue(line, Map.class);
            } catch (Exception e) {
                stderr.println("java runner: ignoring a line that is not JSON: " + line.substring(0, Math.min(200, line.length())));
                continue;
            }
            if ("hello".equals(message.get("type"))) {
                hello(message);
                continue;
            }
            Object input = message.get("input");
            write(ops.answer(message.get("seq"), String.valueOf(message.get("op")),
                    input instanceof Map ? (Map<String, Object>) input : new LinkedHashMap<>()));
        }
        ops.reset();
        System.exit(0);
    }
}
