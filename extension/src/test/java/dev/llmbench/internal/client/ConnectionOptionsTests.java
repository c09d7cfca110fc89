package dev.llmbench.internal.client;

import static dev.llmbench.internal.client.ScriptedServer.chunk;
import static dev.llmbench.internal.client.ScriptedServer.headers;
import static dev.llmbench.internal.client.ScriptedServer.lastChunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.config.SettingKeys;
import dev.llmbench.internal.config.Settings;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One set of connection options for both HTTP stacks: headers, credentials, proxies; no secret ever shown. */
class ConnectionOptionsTests {

  static final Duration CONNECT = Duration.ofSeconds(5);
  static final String STREAM = "data: {\"choices\":[{\"delta\":{\"content\":\"a\"},\"finish_reason\":\"stop\"}]}\n\n"
      + "data: [DONE]\n\n";

  static ConnectionSettings settings(String headers, ConnectionSettings.ProxySetting proxy) {
    return new ConnectionSettings(headers.isEmpty() ? List.of() : ConnectionSettings.parseHeaders(headers), Optional.empty(),
        "", proxy);
  }

  @Test
  void headersReadTheEnvironmentAndAnExplicitAuthorizationReplacesTheKey() {
    Map<String, String> env = Map.of("GW_KEY", "gw-secret-value");
    ConnectionOptions o = ConnectionOptions.of(URI.create("https://gw.example/v1/"), "sk-key-123",
        settings("api-key=${GW_KEY},X-Team=bench", ConnectionSettings.ProxySetting.NONE), env::get, CONNECT);
    assertThat(o.headers()).containsExactly(Map.entry("Authorization", "Bearer sk-key-123"),
        Map.entry("api-key", "gw-secret-value"), Map.entry("X-Team", "bench"));
    assertThat(o.baseUrl()).isEqualTo(URI.create("https://gw.example/"));
    ConnectionOptions own = ConnectionOptions.of(URI.create("https://gw.example"), "sk-key-123",
        settings("Authorization=Token abc", ConnectionSettings.ProxySetting.NONE), env::get, CONNECT);
    assertThat(own.headers()).containsExactly(Map.entry("Authorization", "Token abc"));
    assertThat(o.toString()).doesNotContain("gw-secret-value").doesNotContain("sk-key-123").contains("api-key");
  }

  @Test
  void anUnsetVariableNamesTheHeaderAndTheVariable() {
    assertThatThrownBy(() -> ConnectionOptions.of(URI.create("http://h"), null,
        settings("api-key=${NOT_SET_HERE}", ConnectionSettings.ProxySetting.NONE), k -> null, CONNECT))
        .hasMessageContaining("header api-key reads the environment variable NOT_SET_HERE, which is not set");
  }

  @Test
  void badHeaderSettingsNameTheHeaderNeverItsValue() {
    assertThatThrownBy(() -> ConnectionSettings.parseHeaders("X-Ok=1,no-value-secret")).hasMessageContaining("has no value");
    assertThatThrownBy(() -> ConnectionSettings.parseHeaders("Content-Type=text/plain")).hasMessageContaining("set by LLMBench");
    assertThatThrownBy(() -> ConnectionSettings.parseHeaders("a b=secret-1")).hasMessageContaining("not a header name")
        .hasMessageNotContaining("secret-1");
    Settings settings = new Settings(k -> k.equals("llmbench.headers") ? Optional.of("X=1,bad name=sk-hidden") : Optional.empty(),
        Map.of());
    assertThatThrownBy(() -> settings.get(SettingKeys.HEADERS)).hasMessageContaining("llmbench.headers (values hidden)")
        .hasMessageNotContaining("sk-hidden");
    Settings url = new Settings(k -> k.equals("llmbench.base-url") ? Optional.of("http://u:pw-hidden@h:99999") : Optional.empty(),
        Map.of());
    assertThatThrownBy(() -> url.get(SettingKeys.BASE_URL)).hasMessageContaining("port 99999 is outside 1-65535")
        .hasMessageNotContaining("pw-hidden");
  }

  @Test
  void credentialsInTheUrlGoAsBasicAndAreMaskedInAnyText() {
    ConnectionOptions o = ConnectionOptions.of(URI.create("http://bench:p%40ss-word-9@127.0.0.1:8000/v1"), null,
        ConnectionSettings.DEFAULT, k -> null, CONNECT);
    assertThat(o.baseUrl()).isEqualTo(URI.create("http://127.0.0.1:8000/"));
    String basic = Base64.getEncoder().encodeToString("bench:p@ss-word-9".getBytes(StandardCharsets.UTF_8));
    assertThat(o.headers()).containsExactly(Map.entry("Authorization", "Basic " + basic));
    assertThat(o.redact("server said: bad password p@ss-word-9 for http://bench:p%40ss-word-9@127.0.0.1:8000/"))
        .isEqualTo("server said: bad password *** for http://***@127.0.0.1:8000/");
    assertThatThrownBy(() -> ConnectionOptions.of(URI.create("http://u:p@h"), "sk-1", ConnectionSettings.DEFAULT, k -> null,
        CONNECT)).hasMessageContaining("both would be the Authorization header");
  }

  @Test
  void proxiesComeFromTheEnvironmentAsCurlReadsThemAndNeverForLoopback() {
    Map<String, String> env = Map.of("HTTPS_PROXY", "http://u:proxy-pw@proxy.corp:3128", "http_proxy", "proxy.corp:8080",
        "NO_PROXY", "internal.corp,.svc:8443,10.0.0.7");
    ProxyRoute route = new ProxyRoute(ConnectionSettings.ProxySetting.ENV, env::get);
    assertThat(route.proxyFor(URI.create("https://api.example.com/v1"))).hasValueSatisfying(p -> {
      assertThat(p.host()).isEqualTo("proxy.corp");
      assertThat(p.port()).isEqualTo(3128);
      assertThat(p.user()).contains("u");
      assertThat(p.toString()).isEqualTo("http://***@proxy.corp:3128");
    });
    assertThat(route.proxyFor(URI.create("http://api.example.com"))).hasValueSatisfying(p -> assertThat(p.port()).isEqualTo(8080));
    assertThat(route.proxyFor(URI.create("https://gpu.internal.corp:8000"))).isEmpty();
    assertThat(route.proxyFor(URI.create("https://vllm.ns.svc:8443"))).isEmpty();
    assertThat(route.proxyFor(URI.create("https://vllm.ns.svc:9443"))).isPresent();
    assertThat(route.proxyFor(URI.create("http://10.0.0.7:8000"))).isEmpty();
    assertThat(route.proxyFor(URI.create("http://127.0.0.1:8000"))).isEmpty();
    assertThat(route.proxyFor(URI.create("http://localhost:8000"))).isEmpty();
    assertThat(route.proxyFor(URI.create("http://[::1]:8000"))).isEmpty();
    assertThat(new ProxyRoute(ConnectionSettings.ProxySetting.ENV, Map.of("NO_PROXY", "*", "HTTPS_PROXY", "p:1")::get)
        .proxyFor(URI.create("https://x"))).isEmpty();
    assertThat(new ProxyRoute(ConnectionSettings.ProxySetting.NONE, env::get).proxyFor(URI.create("https://x"))).isEmpty();
    assertThatThrownBy(() -> ConnectionSettings.ProxySetting.parse("https://proxy:443"))
        .hasMessageContaining("LLMBench speaks to proxies in plain HTTP");
    ConnectionOptions o = ConnectionOptions.of(URI.create("https://api.example.com"), null,
        ConnectionSettings.DEFAULT, env::get, CONNECT);
    assertThat(o.redact("tunnel refused for proxy-pw")).isEqualTo("tunnel refused for ***");
  }

  @Test
  void aTrustStoreNamesItsPasswordVariableWhenItIsUnset() {
    ConnectionSettings s = new ConnectionSettings(List.of(), Optional.of(Path.of("src/test/resources/tls/ca-truststore.p12")),
        "TRUST_PW", ConnectionSettings.ProxySetting.NONE);
    assertThatThrownBy(() -> ConnectionOptions.of(URI.create("https://h"), null, s, k -> null, CONNECT))
        .hasMessageContaining("llmbench.tls.trust-password-env names TRUST_PW, which is not set");
    assertThat(ConnectionOptions.of(URI.create("https://h"), null, s, Map.of("TRUST_PW", "trustpass")::get, CONNECT)
        .trustManager().getAcceptedIssuers()).hasSize(1);
    ConnectionSettings pem = new ConnectionSettings(List.of(), Optional.of(Path.of("src/test/resources/tls/ca.pem")), "",
        ConnectionSettings.ProxySetting.NONE);
    assertThat(ConnectionOptions.of(URI.create("https://h"), null, pem, k -> null, CONNECT).trustManager()
        .getAcceptedIssuers()[0].getSubjectX500Principal().getName()).contains("LLMBench test CA");
    ConnectionSettings missing = new ConnectionSettings(List.of(), Optional.of(Path.of("no/such/ca.pem")), "",
        ConnectionSettings.ProxySetting.NONE);
    assertThatThrownBy(() -> ConnectionOptions.of(URI.create("https://h"), null, missing, k -> null, CONNECT))
        .hasMessageContaining("llmbench.tls.trust names no/such/ca.pem, which is not a readable file");
  }

  /** A plain-HTTP server through a proxy: the request goes to the proxy in absolute form, with its credentials. */
  @Test
  void anHttpRequestThroughAProxyIsInAbsoluteFormWithProxyAuthorization() throws Exception {
    try (ScriptedServer proxy = new ScriptedServer((r, s, out, i) -> {
      headers(out, 200, "text/event-stream", -1);
      chunk(out, STREAM);
      lastChunk(out);
      return true;
    })) {
      ConnectionSettings viaProxy = settings("X-Team=bench", ConnectionSettings.ProxySetting.parse(
          "http://bench:proxy-secret@127.0.0.1:" + proxy.port()));
      ConnectionOptions o = ConnectionOptions.of(URI.create("http://upstream.llmbench.test:8000"), "sk-abc-123", viaProxy,
          k -> null, CONNECT);
      try (OpenAiClient client = new OpenAiClient(o, Timeouts.of(Duration.ofSeconds(10), Duration.ofSeconds(10)), 1)) {
        RequestTrace t = client.send(ApiStyle.CHAT, "m", CompletionRequest.of("hi"));
        assertThat(t.succeeded()).as("%s", t).isTrue();
      }
      ScriptedServer.Received r = proxy.received().get(0);
      assertThat(r.path()).isEqualTo("http://upstream.llmbench.test:8000/v1/chat/completions");
      assertThat(r.headers()).containsEntry("proxy-authorization", "Basic " + Base64.getEncoder()
          .encodeToString("bench:proxy-secret".getBytes(StandardCharsets.UTF_8)))
          .containsEntry("authorization", "Bearer sk-abc-123").containsEntry("x-team", "bench")
          .containsEntry("host", "upstream.llmbench.test:8000");
    }
  }
}
