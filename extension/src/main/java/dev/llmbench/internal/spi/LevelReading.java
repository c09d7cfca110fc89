package dev.llmbench.internal.spi;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import dev.llmbench.SweepLevelResult;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a {@link Feature} reads off a level (its GPUs' telemetry, how close its inputs came to the asked length), for
 * every report of a level: its JSON (the level's document and each level of the sweep's), its console line and its
 * rows of the level's page. Unlike a {@code SweepFeature}'s sections it needs no sweep: it is a function of the level
 * alone, so a level read back from files shows it too.
 */
@API(status = INTERNAL)
public interface LevelReading {

  /** Where the reading sits among the machinery's own, in each report. */
  enum Place {
    /**
     * With the level's workload: in JSON after {@code prefix_cache}, on the page after the workload's row, on the
     * console in a block of its own after the workload lines.
     */
    WORKLOAD,
    /**
     * With the level's deployment: in JSON after {@code deployment_facts}, on the page after the deployment's row,
     * on the console beside the level's workload line, before it.
     */
    DEPLOYMENT
  }

  /** A row of the level's page: a name, and its text (not yet escaped). */
  record Row(String name, String text) {}

  Place place();

  /** The reading's field under the level's {@code llmbench} (and in the sweep document's level). */
  String field();

  /** The field's value; empty when the level has no such reading. */
  Optional<JsonNode> json(SweepLevelResult level);

  /** The console's line for the level, after its label and {@code " | "}; empty for none. */
  Optional<String> console(SweepLevelResult level);

  /** The rows of the level's page. */
  List<Row> html(SweepLevelResult level);
}
