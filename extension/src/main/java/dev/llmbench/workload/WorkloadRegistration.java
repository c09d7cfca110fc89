package dev.llmbench.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.SweepLevelResult;
import dev.llmbench.internal.core.EndpointRoute;
import dev.llmbench.internal.core.ReplyJudge;
import dev.llmbench.internal.core.SweepFeature;
import dev.llmbench.internal.junit.Annotations;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.WorkloadSource;
import dev.llmbench.internal.spi.Feature;
import dev.llmbench.internal.spi.LevelReading;
import dev.llmbench.internal.spi.SweepSetup;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The request shapes in the registry: checked replies ({@link StructuredOutput}, {@link ToolCalls}) and
 * {@link Embeddings} are said of every level that has them, and {@link ExactInputTokens}' alignment in every report of
 * a level.
 */
@API(status = INTERNAL)
public final class WorkloadRegistration implements Feature {

  @Override
  public String key() {
    return "workload";
  }

  /** The replies after the quality, before the sessions and the trace, as before the registry. */
  @Override
  public int sectionOrder() {
    return 500;
  }

  /** An {@link Embeddings} benchmark sends its load to {@code /v1/embeddings}. */
  @Override
  public Optional<EndpointRoute> route(Method method, Class<?> testClass) {
    return Annotations.nearest(Optional.of(method), Optional.of(testClass), Embeddings.class).map(e -> EndpointRoute.EMBEDDINGS);
  }

  /** Every sweep and search: the replies' feature says nothing of a level without checked replies or embeddings. */
  @Override
  public List<SweepFeature> sweep(SweepSetup setup) {
    return List.of(new ReplyFeature());
  }

  /** {@link ToolCalls} and {@link StructuredOutput} replies checked against the request's tools and schema. */
  @Override
  public Optional<ReplyJudge> replyJudge() {
    ReplyCheck.Cache checks = new ReplyCheck.Cache();
    return Optional.of(fields -> Optional.of(checks.of(fields)).filter(ReplyCheck::checks).map(c -> c::judge));
  }

  @Override
  public List<LevelReading> readings() {
    return List.of(new Alignment());
  }

  /** {@code llmbench.input_alignment}, the console's {@code input:} line and the page's input length. */
  private static final class Alignment implements LevelReading {
    @Override
    public Place place() {
      return Place.WORKLOAD;
    }

    @Override
    public String field() {
      return "input_alignment";
    }

    @Override
    public Optional<JsonNode> json(SweepLevelResult level) {
      return level.inputAlignment().map(a -> {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("requested_tokens", a.requestedTokens());
        n.put("method", a.method());
        n.put("template_tokens", a.templateTokens());
        n.put("planned_deviation", a.plannedDeviation());
        if (a.largestDeviation().isPresent()) n.put("largest_deviation", a.largestDeviation().getAsInt());
        else n.putNull("largest_deviation");
        n.put("checked_requests", a.checkedRequests());
        return n;
      });
    }

    @Override
    public Optional<String> console(SweepLevelResult level) {
      return level.inputAlignment().map(a -> "input: " + a.describe());
    }

    @Override
    public List<Row> html(SweepLevelResult level) {
      return level.inputAlignment().map(a -> List.of(new Row("input length", a.describe()))).orElse(List.of());
    }
  }


  /** Every sweep's: a dataset row's own tools and schemas are checked even when none of these is declared. */
  @Override
  public Optional<WorkloadSource> workload(PlanContext context) {
    return Optional.of(new WorkloadInput(context));
  }
}
