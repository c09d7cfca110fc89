package dev.llmbench;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/** Makes sure the endpoint is ready before each test, and injects {@link LlmClient} and {@link EndpointInfo}. */
final class LlmEndpointExtension implements BeforeEachCallback, ParameterResolver {

  @Override
  public void beforeEach(ExtensionContext context) {
    LiveEndpoint.of(context).ensureReady();
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == LlmClient.class || type == EndpointInfo.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    LiveEndpoint endpoint = LiveEndpoint.of(context);
    EndpointInfo info = endpoint.ensureReady();
    return parameter.getParameter().getType() == LlmClient.class ? new LlmClient(endpoint, info) : info;
  }
}
