package io.mcpvertx.testing;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The log lines written while it is open, from every logger that reaches the root (the runtime's, Vert.x's and
 * Netty's all log through SLF4J to logback in tests). Thread-safe: lines arrive on any event loop.
 */
public final class LogCapture implements AutoCloseable {

  /** One line as written: its level, logger, formatted message, exception (or null) and MDC at the time. */
  public record Line(String logger, Level level, String message, Throwable thrown, Map<String, String> mdc) {

    /** Whether it was written at {@code level} or above. */
    public boolean atLeast(Level level) {
      return this.level.toInt() >= level.toInt();
    }
  }

  private final List<Line> lines = new CopyOnWriteArrayList<>();
  private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
    @Override
    protected void append(ILoggingEvent event) {
      lines.add(new Line(event.getLoggerName(), Level.valueOf(event.getLevel().toString()),
          event.getFormattedMessage(), thrown(event.getThrowableProxy()), Map.copyOf(event.getMDCPropertyMap())));
    }
  };

  private LogCapture() {
  }

  /** Starts capturing at the root logger. */
  public static LogCapture start() {
    LogCapture capture = new LogCapture();
    capture.appender.setContext(context());
    capture.appender.start();
    root().addAppender(capture.appender);
    return capture;
  }

  /** The lines captured so far, in the order they were written. */
  public List<Line> lines() {
    return List.copyOf(lines);
  }

  /** The lines captured so far that carry an exception. */
  public List<Line> traces() {
    return lines.stream().filter(l -> l.thrown() != null).toList();
  }

  @Override
  public void close() {
    root().detachAppender(appender);
    appender.stop();
  }

  /**
   * Sets the level of {@code name} (null to inherit again) and returns the one it had, so a test can put it back.
   */
  public static Level setLevel(String name, Level level) {
    Logger logger = context().getLogger(name);
    ch.qos.logback.classic.Level before = logger.getLevel();
    logger.setLevel(level == null ? null : ch.qos.logback.classic.Level.toLevel(level.toString()));
    return before == null ? null : Level.valueOf(before.toString());
  }

  private static Throwable thrown(IThrowableProxy proxy) {
    return proxy instanceof ThrowableProxy real ? real.getThrowable() : null;
  }

  private static LoggerContext context() {
    return (LoggerContext) LoggerFactory.getILoggerFactory();
  }

  private static Logger root() {
    return context().getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  }
}
