package dev.llmbench.internal.load;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * What a workload adds to every request besides its prompt: body fields ({@code tools}, {@code tool_choice},
 * {@code response_format}, each a JSON value as text; a row's own field wins), or that its requests are
 * embeddings of {@code embeddingBatch} inputs each.
 *
 * @param bodyFields     further top-level body fields of every request
 * @param embeddingBatch inputs per embeddings request; 0 for generation requests
 */
@API(status = INTERNAL)
public record RequestExtras(Map<String, String> bodyFields, int embeddingBatch) {

  public static final RequestExtras NONE = new RequestExtras(Map.of(), 0);

  public RequestExtras {
    bodyFields = Map.copyOf(bodyFields);
    if (embeddingBatch < 0) throw new IllegalArgumentException("the embeddings batch must not be negative, was " + embeddingBatch);
  }

  /** Whether the requests go to {@code /v1/embeddings}. */
  public boolean embeddings() {
    return embeddingBatch > 0;
  }
}
