package io.mcpvertx.server;

import io.mcpvertx.jsonrpc.JsonRpcCodecOptions;
import io.vertx.core.json.JsonObject;
import java.util.Objects;

/** Options for an {@link McpServer}: who it is, and the limits every session enforces. */
public class McpServerOptions {

  public static final String DEFAULT_NAME = "mcp-vertx";
  public static final String DEFAULT_VERSION = "0.1.0";
  public static final int DEFAULT_PAGE_SIZE = 100;
  public static final long DEFAULT_SERVER_REQUEST_TIMEOUT_MS = 60_000;
  public static final int DEFAULT_MAX_PENDING_SERVER_REQUESTS = 32;
  public static final int DEFAULT_MAX_CONCURRENT_REQUESTS = 128;
  public static final BlockingExecution DEFAULT_BLOCKING_EXECUTION = BlockingExecution.WORKER;

  private ServerInfo serverInfo;
  private String instructions;
  private int pageSize;
  private long serverRequestTimeoutMs;
  private int maxPendingServerRequests;
  private int maxConcurrentRequests;
  private BlockingExecution blockingExecution;
  private JsonRpcCodecOptions codecOptions;
  private StatelessOptions statelessOptions;
  private TaskOptions taskOptions;

  public McpServerOptions() {
    serverInfo = ServerInfo.of(DEFAULT_NAME, DEFAULT_VERSION);
    pageSize = DEFAULT_PAGE_SIZE;
    serverRequestTimeoutMs = DEFAULT_SERVER_REQUEST_TIMEOUT_MS;
    maxPendingServerRequests = DEFAULT_MAX_PENDING_SERVER_REQUESTS;
    maxConcurrentRequests = DEFAULT_MAX_CONCURRENT_REQUESTS;
    blockingExecution = DEFAULT_BLOCKING_EXECUTION;
    codecOptions = new JsonRpcCodecOptions();
    statelessOptions = new StatelessOptions();
    taskOptions = new TaskOptions();
  }

  public McpServerOptions(McpServerOptions other) {
    this(other.toJson());
  }

  /** Reads what {@link #toJson()} writes: an absent key keeps its default, and every value goes through its setter. */
  public McpServerOptions(JsonObject json) {
    this();
    JsonObject info = json.getJsonObject("serverInfo");
    if (info != null) {
      setServerInfo(ServerInfo.fromJson(info));
    }
    setInstructions(json.getString("instructions", instructions));
    setPageSize(json.getInteger("pageSize", pageSize));
    setServerRequestTimeoutMs(json.getLong("serverRequestTimeoutMs", serverRequestTimeoutMs));
    setMaxPendingServerRequests(json.getInteger("maxPendingServerRequests", maxPendingServerRequests));
    setMaxConcurrentRequests(json.getInteger("maxConcurrentRequests", maxConcurrentRequests));
    setBlockingExecution(BlockingExecution.valueOf(json.getString("blockingExecution", blockingExecution.name())));
    setCodecOptions(new JsonRpcCodecOptions(json.getJsonObject("codec", new JsonObject())));
    setStatelessOptions(new StatelessOptions(json.getJsonObject("stateless", new JsonObject())));
    setTaskOptions(new TaskOptions(json.getJsonObject("tasks", new JsonObject())));
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject()
        .put("serverInfo", serverInfo.toJson())
        .put("pageSize", pageSize)
        .put("serverRequestTimeoutMs", serverRequestTimeoutMs)
        .put("maxPendingServerRequests", maxPendingServerRequests)
        .put("maxConcurrentRequests", maxConcurrentRequests)
        .put("blockingExecution", blockingExecution.name())
        .put("codec", codecOptions.toJson())
        .put("stateless", statelessOptions.toJson())
        .put("tasks", taskOptions.toJson());
    if (instructions != null) {
      json.put("instructions", instructions);
    }
    return json;
  }

  public ServerInfo getServerInfo() {
    return serverInfo;
  }

  public McpServerOptions setServerInfo(ServerInfo serverInfo) {
    this.serverInfo = Objects.requireNonNull(serverInfo, "serverInfo");
    return this;
  }

  public String getInstructions() {
    return instructions;
  }

  /** Text the client may show its model about how to use this server. */
  public McpServerOptions setInstructions(String instructions) {
    this.instructions = instructions;
    return this;
  }

  public int getPageSize() {
    return pageSize;
  }

  /** Items per page in list results. */
  public McpServerOptions setPageSize(int pageSize) {
    if (pageSize < 1) {
      throw new IllegalArgumentException("pageSize must be positive");
    }
    this.pageSize = pageSize;
    return this;
  }

  public long getServerRequestTimeoutMs() {
    return serverRequestTimeoutMs;
  }

  /** How long a server-to-client request (elicitation, sampling, roots) waits for its answer. */
  public McpServerOptions setServerRequestTimeoutMs(long serverRequestTimeoutMs) {
    if (serverRequestTimeoutMs < 1) {
      throw new IllegalArgumentException("serverRequestTimeoutMs must be positive");
    }
    this.serverRequestTimeoutMs = serverRequestTimeoutMs;
    return this;
  }

  public int getMaxPendingServerRequests() {
    return maxPendingServerRequests;
  }

  /** Server-to-client requests a session may have unanswered at once; more fail immediately. */
  public McpServerOptions setMaxPendingServerRequests(int maxPendingServerRequests) {
    if (maxPendingServerRequests < 1) {
      throw new IllegalArgumentException("maxPendingServerRequests must be positive");
    }
    this.maxPendingServerRequests = maxPendingServerRequests;
    return this;
  }

  public int getMaxConcurrentRequests() {
    return maxConcurrentRequests;
  }

  /** Client requests a session serves at once; more are answered with an overload error. */
  public McpServerOptions setMaxConcurrentRequests(int maxConcurrentRequests) {
    if (maxConcurrentRequests < 1) {
      throw new IllegalArgumentException("maxConcurrentRequests must be positive");
    }
    this.maxConcurrentRequests = maxConcurrentRequests;
    return this;
  }

  public BlockingExecution getBlockingExecution() {
    return blockingExecution;
  }

  public McpServerOptions setBlockingExecution(BlockingExecution blockingExecution) {
    this.blockingExecution = Objects.requireNonNull(blockingExecution, "blockingExecution");
    return this;
  }

  public JsonRpcCodecOptions getCodecOptions() {
    return codecOptions;
  }

  public McpServerOptions setCodecOptions(JsonRpcCodecOptions codecOptions) {
    this.codecOptions = Objects.requireNonNull(codecOptions, "codecOptions");
    return this;
  }

  public StatelessOptions getStatelessOptions() {
    return statelessOptions;
  }

  /** Options of the stateless (2026-07-28) generation. */
  public McpServerOptions setStatelessOptions(StatelessOptions statelessOptions) {
    this.statelessOptions = Objects.requireNonNull(statelessOptions, "statelessOptions");
    return this;
  }

  public TaskOptions getTaskOptions() {
    return taskOptions;
  }

  /** Options of durable tasks (both task wires). */
  public McpServerOptions setTaskOptions(TaskOptions taskOptions) {
    this.taskOptions = Objects.requireNonNull(taskOptions, "taskOptions");
    return this;
  }
}
