package io.mcpvertx.annotations.impl;

import io.mcpvertx.server.RequestContext;
import io.vertx.core.Future;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Calls one annotated method on its object: directly, on the caller's thread (the event loop), or through
 * {@link RequestContext#executeBlocking} when the method declared it blocks; a returned {@code Future} is followed.
 */
final class Invoker {

  private final Object target;
  private final Method method;
  private final boolean blocking;
  private final boolean async;

  Invoker(Object target, Method method, boolean blocking, boolean async) {
    if (Modifier.isStatic(method.getModifiers())) {
      throw Where.problem(method, "annotated methods are called on the registered object, so they cannot be static");
    }
    if (blocking && async) {
      throw Where.problem(method, "a blocking method returns its value; a method returning a Future runs on the "
          + "event loop and must not declare blocking");
    }
    if (!method.trySetAccessible()) {
      throw Where.problem(method, "not accessible: make the class and the method public, or open the package");
    }
    this.target = target;
    this.method = method;
    this.blocking = blocking;
    this.async = async;
  }

  boolean blocking() {
    return blocking;
  }

  /** Calls the method on this thread and returns its value; the method's own exception is thrown as it is. */
  Object invoke(Object[] arguments) throws Exception {
    try {
      return method.invoke(target, arguments);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception exception) {
        throw exception;
      }
      throw (Error) cause;
    }
  }

  /** Calls the method where it declared it runs; the future holds its value (a returned Future's, when async). */
  Future<Object> call(Object[] arguments, RequestContext ctx) {
    if (blocking) {
      return ctx.executeBlocking(() -> invoke(arguments));
    }
    Object value;
    try {
      value = invoke(arguments);
    } catch (Exception e) {
      return Future.failedFuture(e);
    }
    if (!async) {
      return Future.succeededFuture(value);
    }
    if (value == null) {
      return Future.failedFuture(new IllegalStateException(Where.of(method) + " returned a null Future"));
    }
    @SuppressWarnings("unchecked")
    Future<Object> future = (Future<Object>) value;
    return future;
  }
}
