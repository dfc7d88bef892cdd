package io.mcpvertx.storage.redis.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLSocketFactory;

/**
 * A blocking RESP2 connection for test administration: readiness checks, key clean-up, inspection, script
 * flushes. Deliberately independent of the client under test, so a bug there cannot hide behind the harness.
 *
 * <p>Replies map to {@code String} (simple and bulk strings, UTF-8), {@code Long}, {@code List<Object>} or null;
 * an error reply throws {@link RespConnection.ErrorReply}. Not thread-safe: one test thread at a time.
 */
public final class RespConnection implements AutoCloseable {

  /** An error reply from the server. */
  public static final class ErrorReply extends RuntimeException {
    ErrorReply(String message) {
      super(message, null, false, false);
    }
  }

  private static final int MAX_BULK_BYTES = 64 * 1024 * 1024;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  private RespConnection(Socket socket) throws IOException {
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream());
    this.out = socket.getOutputStream();
  }

  /**
   * Connects to {@code redis://} or {@code rediss://} URL, authenticating and selecting the database the URL
   * names. Reads time out after {@code timeoutMs}.
   */
  public static RespConnection open(String url, int timeoutMs) throws IOException {
    URI uri = URI.create(url);
    boolean tls = "rediss".equals(uri.getScheme());
    int port = uri.getPort() == -1 ? 6379 : uri.getPort();
    Socket socket = tls ? SSLSocketFactory.getDefault().createSocket() : new Socket();
    try {
      socket.connect(new InetSocketAddress(uri.getHost(), port), timeoutMs);
      socket.setSoTimeout(timeoutMs);
      RespConnection connection = new RespConnection(socket);
      String userInfo = uri.getUserInfo();
      if (userInfo != null && !userInfo.isEmpty()) {
        int colon = userInfo.indexOf(':');
        if (colon < 0) {
          connection.call("AUTH", userInfo);
        } else if (colon == 0) {
          connection.call("AUTH", userInfo.substring(1));
        } else {
          connection.call("AUTH", userInfo.substring(0, colon), userInfo.substring(colon + 1));
        }
      }
      String path = uri.getPath();
      if (path != null && path.length() > 1) {
        connection.call("SELECT", path.substring(1));
      }
      return connection;
    } catch (IOException | RuntimeException e) {
      socket.close();
      throw e;
    }
  }

  /** Sends one command and reads its reply. */
  public Object call(String... args) throws IOException {
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    request.write(('*' + Integer.toString(args.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    for (String arg : args) {
      byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
      request.write(('$' + Integer.toString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      request.write(bytes);
      request.write('\r');
      request.write('\n');
    }
    out.write(request.toByteArray());
    out.flush();
    return read();
  }

  private Object read() throws IOException {
    int type = in.read();
    if (type == -1) {
      throw new EOFException("connection closed by the server");
    }
    String line = line();
    switch (type) {
      case '+':
        return line;
      case '-':
        throw new ErrorReply(line);
      case ':':
        return Long.parseLong(line);
      case '$': {
        int length = Integer.parseInt(line);
        if (length < 0) {
          return null;
        }
        if (length > MAX_BULK_BYTES) {
          throw new IOException("bulk reply too large: " + length);
        }
        byte[] bytes = in.readNBytes(length);
        if (bytes.length != length || in.read() != '\r' || in.read() != '\n') {
          throw new EOFException("truncated bulk reply");
        }
        return new String(bytes, StandardCharsets.UTF_8);
      }
      case '*': {
        int count = Integer.parseInt(line);
        if (count < 0) {
          return null;
        }
        List<Object> items = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
          items.add(read());
        }
        return items;
      }
      default:
        throw new IOException("unexpected reply type: " + (char) type);
    }
  }

  private String line() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) != '\r') {
      if (b == -1) {
        throw new EOFException("connection closed by the server");
      }
      line.write(b);
    }
    if (in.read() != '\n') {
      throw new IOException("malformed reply line");
    }
    return line.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
