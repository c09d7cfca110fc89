package dev.llmbench.internal.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.llmbench.internal.client.OpenAiClient;
import dev.llmbench.internal.format.Excerpt;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Without a configured model, the server lists one on {@code /v1/models}: the first is the one sent for. */
final class ModelProbe implements ReadinessProbe {

  private final OpenAiClient probe;
  private final ReadinessRules rules;

  ModelProbe(OpenAiClient probe, ReadinessRules rules) {
    this.probe = probe;
    this.rules = rules;
  }

  @Override
  public boolean passes(ReadinessState state) throws IOException {
    ReadinessLog log = state.log;
    if (state.model == null) {
      Optional<OpenAiClient.HttpAnswer> list = state.healthRoute.equals("/v1/models") ? state.health
          : probe.get("/v1/models");
      if (list.isPresent() && list.get().status() == 404) {
        log.saw("GET /v1/models answered 404");
        throw new CannotBecomeReadyException("GET " + state.healthRoute + " answered 200 but GET /v1/models answered 404, so the "
            + "server lists no model to send requests for; set llmbench.model to the model id it serves", null);
      }
      if (!rules.answeredOk(log, "GET /v1/models", list)) return false;
      List<String> ids = modelIds(list.get().body());
      if (ids.isEmpty()) {
        log.saw("/v1/models lists no model yet");
        return false;
      }
      state.model = ids.get(0);
    }
    return true;
  }

  /** The ids of an OpenAI model list; a 200 whose body is not one is no OpenAI-compatible server, nor will become one. */
  private static List<String> modelIds(String body) {
    JsonNode data;
    try {
      data = new ObjectMapper().readTree(body).path("data");
    } catch (IOException e) {
      data = null;
    }
    if (data == null || !data.isArray()) {
      throw new CannotBecomeReadyException("GET /v1/models answered 200 with " + Excerpt.of(body, 120) + ", which is not an "
          + "OpenAI model list ({\"data\": [{\"id\": ...}]}), so no OpenAI-compatible server is at this address; set "
          + "llmbench.base-url to the server's root, e.g. http://host:8000", null);
    }
    List<String> ids = new ArrayList<>();
    data.forEach(m -> ids.add(m.path("id").asText()));
    return ids;
  }
}
