package dev.llmbench.internal.tokens;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.client.ApiStyle;
import dev.llmbench.client.ChatMessage;
import dev.llmbench.client.CompletionRequest;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.format.Excerpt;
import java.io.IOException;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The server's own tokenizer through its tokenize route, chat template included, in either shape:
 * <ul>
 *   <li>vLLM and SGLang: {@code POST /tokenize} with {@code {"model", "messages", "add_generation_prompt": true}}
 *       (the chat API: vLLM applies the chat template as its chat route does) or {@code {"model", "prompt"}}
 *       (completions); the answer {@code {"count": n, "tokens": [...], "max_model_len": ...}}. SGLang's takes
 *       {@code prompt} only and answers a chat request 422, so on its chat API the route is not used;</li>
 *   <li>llama-server: {@code POST /apply-template} with {@code {"messages"}} answers {@code {"prompt"}}, the
 *       templated text, which {@code POST /tokenize} with {@code {"content", "add_special": true}} turns into
 *       {@code {"tokens": [...]}}: its chat route tokenizes with BOS added and special tokens parsed, and the
 *       route's own default is {@code add_special: false}.</li>
 * </ul>
 */
@API(status = INTERNAL)
public final class TokenizeRoute implements TokenCounter {

  static final String TOKENIZE = "/tokenize";
  static final String APPLY_TEMPLATE = "/apply-template";
  private static final ObjectMapper JSON = new ObjectMapper();

  enum Shape { VLLM, LLAMA_SERVER }

  private final OpenAiClient client;
  private final ApiStyle api;
  private final String model;
  private final Shape shape;

  private TokenizeRoute(OpenAiClient client, ApiStyle api, String model, Shape shape) {
    this.client = client;
    this.api = api;
    this.model = model;
    this.shape = shape;
  }

  /**
   * The server's tokenize route, when it has one: empty when it answers 404, 405 or (SGLang's, which takes no
   * {@code messages}) a 4xx to a chat request, and for the chat API on a llama-server without {@code /apply-template}.
   *
   * @throws TokenCountException when the route answers 200 with something that is not a token count
   */
  public static Optional<TokenizeRoute> detect(OpenAiClient client, ApiStyle api, String model) {
    CompletionRequest probe = CompletionRequest.ofMessages(java.util.List.of(ChatMessage.user("Hello")));
    JsonNode answer;
    try {
      Optional<JsonNode> a = post(client, TOKENIZE, vllmBody(api, model, probe));
      if (a.isEmpty()) return Optional.empty();
      answer = a.get();
    } catch (IOException e) {
      throw new TokenCountException("POST " + TOKENIZE + " could not be sent (" + e.getMessage() + ")", e);
    }
    Shape shape;
    if (answer.path("count").isInt()) {
      shape = Shape.VLLM;
    } else if (answer.path("tokens").isArray()) {
      shape = Shape.LLAMA_SERVER; // llama-server reads "content" only, and answers {"tokens": []} without it
    } else {
      throw garbage(TOKENIZE, answer.toString());
    }
    if (shape == Shape.LLAMA_SERVER && api == ApiStyle.CHAT) {
      // A llama-server from before /apply-template cannot say what its template adds: probes can.
      try {
        ObjectNode body = JSON.createObjectNode();
        messages(body, probe);
        if (post(client, APPLY_TEMPLATE, JSON.writeValueAsBytes(body)).isEmpty()) return Optional.empty();
      } catch (IOException e) {
        throw new TokenCountException("POST " + APPLY_TEMPLATE + " could not be sent (" + e.getMessage() + ")", e);
      }
    }
    TokenizeRoute route = new TokenizeRoute(client, api, model, shape);
    route.count(probe); // the whole path once, /apply-template included, so a broken one fails here
    return Optional.of(route);
  }

  @Override
  public int count(CompletionRequest request) {
    try {
      if (shape == Shape.VLLM) {
        JsonNode a = required(TOKENIZE, vllmBody(api, model, request));
        if (!a.path("count").isInt()) throw garbage(TOKENIZE, a.toString());
        return a.get("count").asInt();
      }
      String text = request.prompt();
      if (api == ApiStyle.CHAT) {
        ObjectNode body = JSON.createObjectNode();
        messages(body, request);
        JsonNode t = required(APPLY_TEMPLATE, JSON.writeValueAsBytes(body));
        if (!t.path("prompt").isTextual()) throw garbage(APPLY_TEMPLATE, t.toString());
        text = t.get("prompt").asText();
      }
      ObjectNode body = JSON.createObjectNode().put("content", text).put("add_special", true).put("parse_special", true);
      JsonNode a = required(TOKENIZE, JSON.writeValueAsBytes(body));
      if (!a.path("tokens").isArray()) throw garbage(TOKENIZE, a.toString());
      return a.get("tokens").size();
    } catch (IOException e) {
      throw new TokenCountException("the tokenize route of " + client.baseUrl() + " could not be read (" + e.getMessage()
          + ")", e);
    }
  }

  @Override
  public String method() {
    return shape == Shape.VLLM ? "POST /tokenize (vLLM / SGLang)"
        : api == ApiStyle.CHAT ? "llama-server POST /apply-template + POST /tokenize" : "llama-server POST /tokenize";
  }

  private static byte[] vllmBody(ApiStyle api, String model, CompletionRequest request) throws IOException {
    ObjectNode body = JSON.createObjectNode();
    if (model != null) body.put("model", model);
    if (api == ApiStyle.CHAT) {
      messages(body, request);
      body.put("add_generation_prompt", true);
    } else {
      body.put("prompt", request.prompt());
    }
    return JSON.writeValueAsBytes(body);
  }

  private static void messages(ObjectNode body, CompletionRequest request) {
    ArrayNode messages = body.putArray("messages");
    request.messages().forEach(m -> messages.addObject().put("role", m.role()).put("content", m.content()));
  }

  /** The answer's JSON; empty for a route the server does not have (404, 405, or a 4xx to the request's shape). */
  private static Optional<JsonNode> post(OpenAiClient client, String path, byte[] body) throws IOException {
    OpenAiClient.HttpAnswer a = client.post(path, body).orElseThrow();
    if (a.status() >= 400 && a.status() < 500) return Optional.empty();
    if (a.status() != 200) throw new TokenCountException("POST " + path + " answered " + a.status() + " "
        + Excerpt.of(a.body(), 200) + "; " + FIX);
    try {
      return Optional.of(JSON.readTree(a.body()));
    } catch (IOException e) {
      throw garbage(path, a.body());
    }
  }

  private JsonNode required(String path, byte[] body) throws IOException {
    return post(client, path, body).orElseThrow(() -> new TokenCountException("POST " + path + " of " + client.baseUrl()
        + " stopped answering 200 after it was found; " + FIX));
  }

  private static final String FIX = "set @ExactInputTokens(method = USAGE_PROBES) to align against the usage.prompt_tokens "
      + "of probe requests instead, or TOKENIZER_JSON with the model's tokenizer.json";

  private static TokenCountException garbage(String path, String body) {
    return new TokenCountException("POST " + path + " answered 200 with " + Excerpt.of(body, 200) + ", which is not a token "
        + "count (expected {\"count\": n} from vLLM or SGLang, {\"tokens\": [...]} from llama-server, {\"prompt\": ...} from "
        + "llama-server's /apply-template); " + FIX);
  }
}
