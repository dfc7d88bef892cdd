package io.mcpvertx.annotations.impl;

import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.completion.CompletionRequest;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The parameters of a prompt, resource, template or completion method, all of which receive strings: named
 * arguments or variables, the URI read, the text being completed; plus the injected context and request.
 */
final class StringParams {

  /** What one call offers the parameters. */
  record Inputs(Map<String, String> values, String uri, CompletionRequest completion, RequestContext ctx) {
  }

  /** Where string parameters that are not the context come from. */
  enum Role { NAMED, URI, TYPED }

  private final List<Function<Inputs, Object>> binders;
  private final List<ParamInfo> named;

  private StringParams(List<Function<Inputs, Object>> binders, List<ParamInfo> named) {
    this.binders = binders;
    this.named = named;
  }

  /**
   * Reads the parameters. {@code variables} are the names a NAMED parameter may take (null: any); a String
   * parameter named {@code uri} outside them is the URI when {@code uriAllowed}; every other String parameter
   * takes {@code plain}.
   */
  static StringParams of(Method method, Role plain, Set<String> variables, boolean uriAllowed) {
    List<Function<Inputs, Object>> binders = new ArrayList<>();
    List<ParamInfo> named = new ArrayList<>();
    for (Parameter parameter : method.getParameters()) {
      Class<?> type = parameter.getType();
      if (type == RequestContext.class) {
        binders.add(Inputs::ctx);
      } else if (type == CompletionRequest.class && plain == Role.TYPED) {
        binders.add(Inputs::completion);
      } else if (type == String.class && plain != Role.NAMED) {
        binders.add(plain == Role.URI ? Inputs::uri : in -> in.completion().value());
      } else if (type == String.class || isOptionalString(parameter)) {
        ParamInfo info = ParamInfo.of(method, parameter);
        if (variables != null && !variables.contains(info.name())) {
          if (uriAllowed && info.name().equals("uri") && type == String.class) {
            binders.add(Inputs::uri);
            continue;
          }
          throw Where.problem(method, "parameter '" + info.name() + "' is no variable of the template " + variables);
        }
        named.add(info);
        String name = info.name();
        String absent = info.defaultText();
        binders.add(info.optional() ? in -> Optional.ofNullable(in.values().getOrDefault(name, absent))
            : in -> in.values().getOrDefault(name, absent));
      } else {
        throw Where.problem(method, "parameter " + parameter.getName() + " of type " + type.getSimpleName()
            + " cannot be bound here: only String, Optional<String>, RequestContext"
            + (plain == Role.TYPED ? " and CompletionRequest" : ""));
      }
    }
    return new StringParams(List.copyOf(binders), List.copyOf(named));
  }

  private static boolean isOptionalString(Parameter parameter) {
    return parameter.getType() == Optional.class && parameter.getParameterizedType() instanceof ParameterizedType p
        && p.getActualTypeArguments()[0] == String.class;
  }

  /** The named parameters: a prompt's arguments. */
  List<ParamInfo> named() {
    return named;
  }

  Object[] bind(Inputs inputs) {
    Object[] values = new Object[binders.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = binders.get(i).apply(inputs);
    }
    return values;
  }
}
