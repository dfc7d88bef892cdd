package io.mcpvertx.annotations.impl;

import io.mcpvertx.annotations.HandlerDefinitionException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.stream.Collectors;

/** Names a method the way registration errors do: {@code WeatherTools.forecast(String, int)}. */
final class Where {

  private Where() {
  }

  static String of(Method method) {
    return method.getDeclaringClass().getSimpleName() + "." + method.getName()
        + Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
        .collect(Collectors.joining(", ", "(", ")"));
  }

  static HandlerDefinitionException problem(Method method, String problem) {
    return new HandlerDefinitionException(method.getDeclaringClass().getName() + ": " + of(method) + ": " + problem);
  }
}
