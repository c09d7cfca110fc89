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
    // A level measured on deployments readies its own deployment's endpoint: the class's own must not start (a
    // launched candidate's port, a GPU's memory, are the candidates').
    if (context.getTestMethod().filter(EndpointRoutes::sendsLoad).isPresent()
        && !SweepExtension.deployments(context).isEmpty()) {
      return;
    }
    Endpoint endpoint = RunState.endpoint(context);
    endpoint.ensureReady(EndpointRoutes.ofClass(context));
    // A level checks its own route before its load; a plain test fails here when the server refused its route.
    context.getTestMethod().filter(m -> !EndpointRoutes.sendsLoad(m))
        .ifPresent(m -> EndpointRoutes.of(m, context.getRequiredTestClass()).forEach(endpoint::require));
  }

  @Override
  public List<Class<?>> injects() {
    return List.of(LlmClient.class, EndpointInfo.class);
  }

  @Override
  public Object resolve(Class<?> type, ExtensionContext context) {
    Endpoint endpoint = RunState.endpoint(context);
    EndpointInfo info = endpoint.ensureReady(EndpointRoutes.ofClass(context));
    return type == LlmClient.class
        ? new EndpointLlmClient(endpoint, info, RunState.of(context).listener())
        : info;
  }
}
