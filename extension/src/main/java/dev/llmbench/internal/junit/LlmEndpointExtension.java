package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.LlmClient;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.internal.core.Endpoint;
import dev.llmbench.internal.core.EndpointLlmClient;
import java.util.List;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Behind {@link LlmEndpoint}: makes sure the endpoint is ready before each test, and injects {@link LlmClient} and {@link EndpointInfo}. */
@API(status = INTERNAL)
public final class LlmEndpointExtension implements BeforeEachCallback, InjectingResolver {

  @Override
  public void beforeEach(ExtensionContext context) {
    RunState.endpoint(context).ensureReady();
  }

  @Override
  public List<Class<?>> injects() {
    return List.of(LlmClient.class, EndpointInfo.class);
  }

  @Override
  public Object resolve(Class<?> type, ExtensionContext context) {
    Endpoint endpoint = RunState.endpoint(context);
    EndpointInfo info = endpoint.ensureReady();
    return type == LlmClient.class
        ? new EndpointLlmClient(endpoint, info, RunState.of(context).listener())
        : info;
  }
}
