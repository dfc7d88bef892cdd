package io.mcpvertx.annotations.impl;

import io.mcpvertx.annotations.McpResourceTemplate;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.ResourceTemplateHandler;
import io.mcpvertx.server.resources.ResourceTemplate;
import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A resource template method with its definition; its String parameters receive the template's variables. */
record TemplateBinding(ResourceTemplate template, ResourceTemplateHandler handler, Set<String> variables,
    String where) {

  /** An RFC 6570 expression: an optional operator, then variables separated by commas. */
  private static final Pattern EXPRESSION = Pattern.compile("\\{[+#./;?&]?([^}]*)}");

  static TemplateBinding of(Object target, Method method, McpResourceTemplate annotation) {
    String name = annotation.name().isEmpty() ? method.getName() : annotation.name();
    Set<String> variables = variables(annotation.uriTemplate());
    if (variables.isEmpty()) {
      throw Where.problem(method, "the URI template " + annotation.uriTemplate() + " has no variable: declare a "
          + "@McpResource instead");
    }
    StringParams params = StringParams.of(method, StringParams.Role.NAMED, variables, true);
    ReturnType returns = ReturnType.of(method);
    ResourceReturn conversion = ResourceReturn.of(method, returns, annotation.mimeType());
    Invoker invoker = new Invoker(target, method, annotation.blocking(), returns.async());
    ResourceTemplate template = new ResourceTemplate(annotation.uriTemplate(), name,
        annotation.title().isEmpty() ? null : annotation.title(),
        annotation.description().isEmpty() ? null : annotation.description(),
        annotation.mimeType().isEmpty() ? null : annotation.mimeType(), null, null);
    ResourceTemplateHandler handler = (uri, values, ctx) -> invoker.call(params.bind(new StringParams.Inputs(values,
        uri, null, ctx)), ctx).map(value -> conversion.convert(uri, value));
    return new TemplateBinding(template, handler, variables, Where.of(method));
  }

  static Set<String> variables(String uriTemplate) {
    Set<String> names = new LinkedHashSet<>();
    Matcher matcher = EXPRESSION.matcher(uriTemplate);
    while (matcher.find()) {
      for (String spec : matcher.group(1).split(",")) {
        String variable = spec.replaceAll("(\\*|:\\d+)$", "").trim();
        if (!variable.isEmpty()) {
          names.add(variable);
        }
      }
    }
    return names;
  }

  void registerOn(McpServer server) {
    server.resourceTemplate(template, handler);
  }
}
