package dev.llmbench.internal.junit;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.LlmClient;
import dev.llmbench.LlmEndpoint;
import dev.llmbench.internal.core.Endpoint;
import dev.llmbench.internal.core.EndpointLlmClient;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** Behind {@link LlmEndpoint}: makes sure the endpoint is ready before each test, and injects {@link LlmClient} and {@link EndpointInfo}. */
@API(status = INTERNAL)
public final class LlmEndpointExtension implements BeforeEachCallback, ParameterResolver {

  @Override
  public void beforeEach(ExtensionContext context) {
    RunState.endpoint(context).ensureReady();
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == LlmClient.class || type == EndpointInfo.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Endpoint endpoint = RunState.endpoint(context);
    EndpointInfo info = endpoint.ensureReady();
    return parameter.getParameter().getType() == LlmClient.class
        ? new EndpointLlmClient(endpoint, info, RunState.of(context).listener())
        : info;
  }
}
