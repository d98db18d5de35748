package toolnexus.conformance;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * The injected HTTP client of `transport: "recording"`: records {method, url, body} of every request,
 * then hands it to a real {@link HttpClient}.
 */
final class RecordingHttpClient extends HttpClient {
    private final HttpClient real = HttpClient.newHttpClient();
    private final List<Object> requests;

    RecordingHttpClient(List<Object> requests) {
        this.requests = requests;
    }

    private void record(HttpRequest request) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("method", request.method());
        entry.put("url", request.uri().toString());
        entry.put("body", request.bodyPublisher().map(RecordingHttpClient::decode).orElse(null));
        requests.add(entry);
    }

    /** Reads a body publisher's bytes (publishers of the JDK are replayable) and decodes JSON. */
    private static Object decode(HttpRequest.BodyPublisher publisher) {
        List<ByteBuffer> parts = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        publisher.subscribe(new Flow.Subscriber<>() {
            @Override public void onSubscribe(Flow.Subscription s) { s.request(Long.MAX_VALUE); }
            @Override public void onNext(ByteBuffer item) { parts.add(item.duplicate()); }
            @Override public void onError(Throwable t) { done.countDown(); }
            @Override public void onComplete() { done.countDown(); }
        });
        try {
            done.await(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int size = parts.stream().mapToInt(ByteBuffer::remaining).sum();
        ByteBuffer all = ByteBuffer.allocate(size);
        parts.forEach(all::put);
        String text = new String(all.array(), StandardCharsets.UTF_8);
        try {
            return Main.JSON.readValue(text, Object.class);
        } catch (Exception e) {
            return text;
        }
    }

    @Override public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException, InterruptedException {
        record(request);
        return real.send(request, handler);
    }

    @Override public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        record(request);
        return real.sendAsync(request, handler);
    }

    @Override public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
                                                                       HttpResponse.PushPromiseHandler<T> push) {
        record(request);
        return real.sendAsync(request, handler, push);
    }

    @Override public Optional<CookieHandler> cookieHandler() { return real.cookieHandler(); }
    @Override public Optional<Duration> connectTimeout() { return real.connectTimeout(); }
    @Override public Redirect followRedirects() { return real.followRedirects(); }
    @Override public Optional<ProxySelector> proxy() { return real.proxy(); }
    @Override public SSLContext sslContext() { return real.sslContext(); }
    @Override public SSLParameters sslParameters() { return real.sslParameters(); }
    @Override public Optional<Authenticator> authenticator() { return real.authenticator(); }
    @Override public Version version() { return real.version(); }
    @Override public Optional<Executor> executor() { return real.executor(); }
}
