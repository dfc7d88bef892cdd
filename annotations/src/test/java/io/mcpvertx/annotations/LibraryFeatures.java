package io.mcpvertx.annotations;

import io.mcpvertx.protocol.McpException;
import io.mcpvertx.server.RequestContext;
import io.mcpvertx.server.completion.Completion;
import io.mcpvertx.server.completion.CompletionRequest;
import io.mcpvertx.server.prompts.PromptMessage;
import io.mcpvertx.server.prompts.PromptResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/** A prompt, resources, a template and completions, as a library's MCP face might declare them. */
public class LibraryFeatures {

  static final List<String> GENRES = List.of("poetry", "prose", "plays");

  @McpPrompt(title = "Book review", description = "Asks for a review of a book")
  public PromptResult review(@McpArg(description = "The book's title") String title,
      @McpArg(description = "Literary genre") Optional<String> genre) {
    return new PromptResult("Review of " + title, List.of(
        PromptMessage.user("Review " + title + genre.map(g -> " as " + g).orElse("")),
        PromptMessage.assistant("Happy to.")));
  }

  @McpPrompt(name = "short", description = "A one-line prompt")
  public Future<String> shortPrompt(@McpArg(defaultValue = "the sea") String topic, RequestContext ctx) {
    return ctx.vertx().timer(1).map(t -> "Tell me about " + topic);
  }

  @McpResource(uri = "library://catalogue", description = "Every book", mimeType = "text/plain")
  public String catalogue(String uri) {
    return "catalogue of " + uri;
  }

  @McpResource(uri = "library://cover", mimeType = "image/png", blocking = true)
  public byte[] cover() {
    return (Context.isOnEventLoopThread() ? "on-loop" : "off-loop").getBytes(StandardCharsets.UTF_8);
  }

  @McpResourceTemplate(uriTemplate = "library://books/{genre}/{id}", name = "book", mimeType = "text/plain")
  public String book(String genre, String id, String uri) {
    if (id.equals("missing")) {
      throw new McpException(-32002, "Resource not found: " + uri);
    }
    return genre + " #" + id + " at " + uri;
  }

  @McpCompletion(prompt = "review", argument = "genre")
  public List<String> genres(String typed) {
    return Completion.matching(GENRES, typed).values();
  }

  @McpCompletion(resourceTemplate = "library://books/{genre}/{id}", argument = "id")
  public Completion ids(CompletionRequest request) {
    return Completion.of(List.of(request.context().getOrDefault("genre", "any") + "-1"));
  }
}
