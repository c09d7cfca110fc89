package dev.llmbench.datasets;

import dev.llmbench.Workload;
import dev.llmbench.internal.load.PlanContext;
import dev.llmbench.internal.load.PromptSource;
import dev.llmbench.internal.load.WorkloadSource;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code @Dataset} as a sweep's input: its rows in order, each a one-turn conversation, read whole now so that bad
 * input never sends load. Its rows are its prompts, so it takes no other prompts and no input lengths; their
 * {@code max_tokens} may be drawn from a distribution (a row's own length still wins).
 */
final class DatasetInput implements WorkloadSource {

  private static final String REFUSAL = "@Dataset gives the prompts, so @Workload's 'prompt', 'prompts', 'inputTokens' "
      + "and 'inputLength' (or llmbench.workload.input-length) must stay unset; remove them or the @Dataset";

  private final PlanContext context;

  DatasetInput(PlanContext context) {
    this.context = context;
  }

  @Override
  public void check(List<WorkloadSource> all) {
    Workload workload = context.workload();
    if (!workload.prompt().isBlank() || !workload.prompts().equals("builtin") || workload.inputTokens().length > 0) {
      throw new IllegalArgumentException(REFUSAL);
    }
  }

  @Override
  public boolean takes(Beside beside) {
    return beside == Beside.OUTPUT_LENGTHS || beside == Beside.REQUEST_COUNT || beside == Beside.DURATION_OR_TARGET;
  }

  @Override
  public String refusal(Beside beside) {
    return REFUSAL;
  }

  /** Reads the dataset's rows now, before any request, so that bad input never sends load. */
  @Override
  public PromptSource prompts() {
    Dataset d = context.nearest(Dataset.class).orElseThrow();
    long seed = context.workload().seed();
    if (d.path().isBlank()) throw new IllegalArgumentException("@Dataset 'path' is empty; give the file, e.g. src/test/resources/sharegpt.json");
    if (d.rows() < 0) throw new IllegalArgumentException("@Dataset 'rows' must be 0 (every row) or positive, was " + d.rows());
    boolean rowLengths = d.outputLength() == Dataset.OutputLength.FROM_ROWS;
    DatasetReader reader = switch (d.format()) {
      case SHAREGPT -> new ShareGptReader(new ShareGptReader.Filter(d.minTokens(), d.maxInputTokens(), d.maxTotalTokens(),
          rowLengths));
      case OPENAI_CHAT -> new OpenAiChatReader();
      case VLLM_CUSTOM -> new VllmCustomReader();
    };
    try {
      return PromptSource.dataset(DatasetLoader.load(reader, Path.of(d.path()), d.rows(), d.sample() == Dataset.Sample.RANDOM,
          seed), rowLengths, seed);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("@Dataset(format = " + d.format() + "): " + e.getMessage(), e);
    }
  }
}
