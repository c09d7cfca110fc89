package dev.llmbench.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.engine.OpenAiResponses.ErrorReplyException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The embedded engine's generation: a completion or chat request made into a {@link Sequence} for the
 * {@link BatchScheduler}, which times it by the profile, and the sequence's events followed to the client, streamed
 * or whole, each timed as the engine timed it ({@link RequestTimings}). Prompts are counted as the chat template bills
 * them, here and in {@code /tokenize}.
 */
final class Generation {

  /** The context length {@code /tokenize} reports, as vLLM's {@code max_model_len}. */
  static final int MAX_MODEL_LEN = 131_072;
  private static final int DEFAULT_MAX_TOKENS = 1024;
  private static final List<String> TEMPLATE_TOKENS = List.of("<|start|>", "<|role|>", "<|content|>", "<|end|>");

  private final PerformanceProfile profile;
  /** The profile's variant: its greedy log-probabilities, and where it drifts. */
  private final TokenLogprobs variant;
  private final int malformedAbove;
  private final BatchScheduler scheduler;
  private final PrefixCache prefixCache;
  private final RequestTimings timings;
  private final OpenAiResponses responses;
  private final FaultInjector faults;
  private final AtomicLong ids = new AtomicLong();

  /** @param prefixCache null when prefix caching is off */
  Generation(EmbeddedOptions options, BatchScheduler scheduler, PrefixCache prefixCache, RequestTimings timings,
      OpenAiResponses responses, FaultInjector faults) {
    this.profile = options.profile();
    this.variant = TokenLogprobs.of(profile.name());
    this.malformedAbove = options.malformedAbove();
    this.scheduler = scheduler;
    this.prefixCache = prefixCache;
    this.timings = timings;
    this.responses = responses;
    this.faults = faults;
  }

  /**
   * Generates the completion {@code ex} asks for and answers it.
   *
   * @param arrival when the request reached the server: an idle engine's first step starts from here
   * @param fault   the mid-stream fault drawn for it, or null
   */
  void generate(Exchange ex, boolean chat, long arrival, FaultKind fault)
      throws IOException, InterruptedException, ErrorReplyException {
    JsonNode body = OpenAiResponses.jsonBody(ex);
    if (body == null || !body.isObject()) {
      throw new ErrorReplyException(400, "request body must be a JSON object", OpenAiResponses.INVALID_REQUEST);
    }
    String prompt;
    int promptTokens;
    List<String> tokens;
    if (chat) {
      JsonNode messages = body.path("messages");
      if (!messages.isArray() || messages.isEmpty()) {
        throw new ErrorReplyException(400, "'messages' must be a non-empty array", OpenAiResponses.INVALID_REQUEST);
      }
      String last = "";
      for (JsonNode m : messages) last = m.path("content").asText("");
      prompt = last;
      tokens = chatTokens(messages);
      promptTokens = tokens.size();
    } else {
      JsonNode p = body.path("prompt");
      prompt = p.isArray() ? p.path(0).asText("") : p.asText("");
      tokens = TextModel.tokenize(prompt);
      promptTokens = tokens.size();
      if (prompt.isEmpty()) {
        throw new ErrorReplyException(400, "'prompt' must be a non-empty string", OpenAiResponses.INVALID_REQUEST);
      }
    }
    int maxTokens = body.path("max_completion_tokens").asInt(body.path("max_tokens").asInt(DEFAULT_MAX_TOKENS));
    if (maxTokens < 1) {
      throw new ErrorReplyException(400, "max_tokens must be at least 1", OpenAiResponses.INVALID_REQUEST);
    }
    boolean stream = body.path("stream").asBoolean(false);
    boolean includeUsage = body.path("stream_options").path("include_usage").asBoolean(false);
    boolean ignoreEos = body.path("ignore_eos").asBoolean(false);
    long seed = body.path("seed").asLong(0);
    long n = ids.incrementAndGet();
    String id = (chat ? "chatcmpl-" : "cmpl-") + n;
    long[] blocks = prefixCache == null ? new long[0] : PrefixCache.blockHashes(tokens);
    StructuredReplies.Reply reply = chat ? StructuredReplies.of(body).orElse(null) : null;
    // A serving bug that shows under load only: with more than so many sequences in the engine, the JSON comes out cut.
    if (reply != null && malformedAbove > 0 && scheduler.runningCount() + scheduler.waitingCount() > malformedAbove) {
      reply = reply.cut();
    }
    Sequence seq = new Sequence(arrival, promptTokens, blocks, maxTokens, ignoreEos,
        chat ? profile.reasoningTokens() : 0, reply != null ? TextModel.tokenize(reply.json())
            : variant.answer(TextModel.answer(prompt, seed, profile.accuracy())), seed ^ n);
    Integer top = variant.logprobs() && chat ? TokenLogprobs.asked(body).orElse(null) : null;
    scheduler.submit(seq);
    boolean answered = false;
    try {
      if (stream) stream(ex, seq, id, chat, includeUsage, fault, reply, top);
      else respondWhole(ex, seq, id, chat, reply, top);
      answered = true;
    } finally {
      if (!answered) seq.cancel(); // the client went away, or the server is closing: free the batch slot
    }
  }

  /**
   * A chat request's prompt tokens, as billed in {@code usage.prompt_tokens} and counted by {@code /tokenize}: the
   * messages' text with the chat template's tokens ahead of each message, as a real template puts them, so that a
   * conversation's next turn starts with every token of the turn before (but its last) and hits its cache blocks.
   */
  private static List<String> chatTokens(JsonNode messages) {
    StringBuilder all = new StringBuilder();
    int[] starts = new int[messages.size()];
    int i = 0;
    for (JsonNode m : messages) {
      starts[i++] = all.length();
      all.append(m.path("content").asText("")).append('\n');
    }
    return TextModel.tokenize(all.toString(), starts, TEMPLATE_TOKENS);
  }

  /**
   * vLLM's {@code POST /tokenize}: {@code {"messages": [...]}} (chat template applied, as the chat route bills it)
   * or {@code {"prompt": "..."}}; answers {@code {"count", "max_model_len", "tokens"}}, the ids being each token's
   * hash, so that its count is the one {@code usage.prompt_tokens} of the same request says.
   */
  void tokenize(Exchange ex) throws IOException, ErrorReplyException {
    JsonNode body = OpenAiResponses.jsonBody(ex);
    List<String> tokens;
    if (body != null && body.path("messages").isArray() && !body.get("messages").isEmpty()) {
      tokens = chatTokens(body.get("messages"));
    } else if (body != null && body.path("prompt").isTextual()) {
      tokens = TextModel.tokenize(body.get("prompt").asText());
    } else {
      throw new ErrorReplyException(400, "give 'messages' (a non-empty array) or 'prompt' (a string)",
          OpenAiResponses.INVALID_REQUEST);
    }
    OpenAiResponses.send(ex, 200, OpenAiResponses.tokenized(tokens, MAX_MODEL_LEN));
  }

  /** vLLM's dev-mode {@code /reset_prefix_cache}: forgets every cached block. */
  void resetPrefixCache() {
    if (prefixCache != null) prefixCache.clear();
  }

  private void stream(Exchange ex, Sequence seq, String id, boolean chat, boolean includeUsage, FaultKind fault,
      StructuredReplies.Reply reply, Integer top) throws IOException, InterruptedException {
    boolean firstOfCall = true;
    EventStream events = faults.stream(ex, fault, chat, seq::cancel);
    events.open();
    OpenAiResponses.Completion completion = responses.completion(id, chat, toolName(reply),
        System.currentTimeMillis() / 1000);
    RequestTimings.Request timing = timings.start(seq.arrivalNanos);
    while (true) {
      Sequence.Event e = scheduler.nextEvent(seq);
      if (!e.admitted()) timing.event(e.isEnd(), System.nanoTime(), seq.generated());
      if (e.admitted() && !chat) continue; // completions have no role chunk
      ObjectNode chunk;
      if (e.admitted()) {
        chunk = completion.roleChunk();
      } else if (e.isEnd()) {
        chunk = completion.finishChunk(e.finishReason());
      } else {
        chunk = completion.textChunk(e.text(), e.reasoning(), firstOfCall);
        if (top != null && !e.reasoning()) logprobs((com.fasterxml.jackson.databind.node.ObjectNode) chunk.withArray("choices").get(0), e.tokens(), e.position(), top);
        if (!e.reasoning()) firstOfCall = false;
      }
      if (!events.chunk(chunk, e.isEnd())) return;
      if (e.isEnd()) break;
    }
    if (includeUsage) events.chunk(completion.usageChunk(seq), false);
    events.done();
  }

  private void respondWhole(Exchange ex, Sequence seq, String id, boolean chat, StructuredReplies.Reply reply,
      Integer top) throws IOException, InterruptedException {
    StringBuilder content = new StringBuilder();
    List<String> tokens = new java.util.ArrayList<>();
    StringBuilder reasoning = new StringBuilder();
    String finish;
    RequestTimings.Request timing = timings.start(seq.arrivalNanos);
    while (true) {
      Sequence.Event e = scheduler.nextEvent(seq);
      if (!e.admitted()) timing.event(e.isEnd(), System.nanoTime(), seq.generated());
      if (e.isEnd()) {
        finish = e.finishReason();
        break;
      }
      (e.reasoning() ? reasoning : content).append(e.text());
      if (!e.reasoning()) tokens.addAll(e.tokens());
    }
    OpenAiResponses.Completion completion = responses.completion(id, chat, toolName(reply),
        System.currentTimeMillis() / 1000);
    com.fasterxml.jackson.databind.node.ObjectNode body = completion.whole(content.toString(), reasoning.toString(), finish, seq);
    if (top != null) logprobs((com.fasterxml.jackson.databind.node.ObjectNode) body.withArray("choices").get(0), tokens, 0, top);
    OpenAiResponses.send(ex, 200, body);
  }

  /** OpenAI's {@code choices[0].logprobs.content}: one entry per token, from the reply's {@code position}-th. */
  private void logprobs(com.fasterxml.jackson.databind.node.ObjectNode choice, List<String> tokens, int position, int top) {
    com.fasterxml.jackson.databind.node.ArrayNode content = choice.putObject("logprobs").putArray("content");
    for (int i = 0; i < tokens.size(); i++) variant.entry(content, tokens.get(i), position + i, top);
  }

  /** The tool a structured reply calls, or null when there is none or it is a JSON answer. */
  private static String toolName(StructuredReplies.Reply reply) {
    return reply != null && reply.isToolCall() ? reply.toolName() : null;
  }
}
