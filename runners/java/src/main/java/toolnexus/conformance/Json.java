package toolnexus.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reading the protocol's decoded JSON (maps, lists, strings) and copying values the port may still change. */
final class Json {
    private Json() {}

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
