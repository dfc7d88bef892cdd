package io.mcpvertx.storage.redis.impl;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A Lua script the stores run atomically in Redis, loaded from the {@code .lua} resource beside this class.
 *
 * <p>It is sent by digest ({@code EVALSHA}): one small request per call. A server that does not know the script
 * (restarted, failed over, or its cache flushed) answers {@code NOSCRIPT}; the call is then sent once more with
 * the source ({@code EVAL}), which also caches it for the next calls. Immutable and thread-safe.
 */
public final class LuaScript {

  private final String name;
  private final String source;
  private final String sha;

  private LuaScript(String name, String source) {
    this.name = name;
    this.source = source;
    this.sha = sha1(source);
  }

  /** The script in resource {@code <name>.lua}. */
  public static LuaScript load(String name) {
    return new LuaScript(name, read(name));
  }

  /** The script in resource {@code <name>.lua}, after the helpers in {@code <helpers>.lua}. */
  public static LuaScript load(String helpers, String name) {
    return new LuaScript(name, read(helpers) + read(name));
  }

  private static String read(String name) {
    try (InputStream in = LuaScript.class.getResourceAsStream(name + ".lua")) {
      if (in == null) {
        throw new IllegalStateException("missing script resource " + name + ".lua");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public String name() {
    return name;
  }

  public String sha() {
    return sha;
  }

  /**
   * Runs the script with {@code keys} as KEYS and {@code args} as ARGV. Arguments are strings, numbers or
   * {@link Buffer}s (sent as they are: binary-safe).
   */
  public Future<Response> run(Redis redis, List<String> keys, Object... args) {
    return redis.send(request(Command.EVALSHA, sha, keys, args))
        .recover(failure -> isNoScript(failure)
            ? redis.send(request(Command.EVAL, source, keys, args))
            : Future.failedFuture(failure));
  }

  /** The request that runs the script by digest; for batches, which handle NOSCRIPT themselves. */
  public Request evalsha(List<String> keys, Object... args) {
    return request(Command.EVALSHA, sha, keys, args);
  }

  /** The request that runs the script by source. */
  public Request eval(List<String> keys, Object... args) {
    return request(Command.EVAL, source, keys, args);
  }

  /** Whether Redis answered that it does not know a script (batches report it inside a combined message). */
  public static boolean isNoScript(Throwable failure) {
    String message = failure.getMessage();
    return message != null && message.contains("NOSCRIPT");
  }

  private static Request request(Command command, String script, List<String> keys, Object[] args) {
    Request request = Request.cmd(command).arg(script).arg(keys.size());
    keys.forEach(request::arg);
    for (Object arg : args) {
      if (arg instanceof Buffer buffer) {
        request.arg(buffer);
      } else if (arg instanceof Long || arg instanceof Integer) {
        request.arg(((Number) arg).longValue());
      } else {
        request.arg(String.valueOf(arg));
      }
    }
    return request;
  }

  private static String sha1(String source) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is required of every Java platform", e);
    }
  }
}
