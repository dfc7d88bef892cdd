package io.mcpvertx.examples.conformance;

import io.mcpvertx.server.CompletionHandler;
import io.mcpvertx.server.McpServer;
import io.mcpvertx.server.completion.Completion;
import io.mcpvertx.server.content.Content;
import io.mcpvertx.server.content.ResourceContents;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.prompts.PromptArgument;
import io.mcpvertx.server.prompts.PromptMessage;
import io.mcpvertx.server.prompts.PromptResult;
import io.vertx.core.Future;
import java.util.List;

import static io.mcpvertx.examples.conformance.ConformanceFixtures.TEST_IMAGE_BASE64;

/**
 * The prompts of the {@code prompts-*} scenarios, and the completions of {@code completion-complete}. Every prompt
 * has a description, which {@code prompts-list} requires.
 */
final class ConformancePrompts {

  static final String WITH_ARGUMENTS = "test_prompt_with_arguments";

  private ConformancePrompts() {
  }

  static void register(McpServer server) {
    server.prompt(Prompt.of("test_simple_prompt", "A simple prompt without arguments")
            .withTitle("Simple Test Prompt"),
        (args, ctx) -> Future.succeededFuture(PromptResult.of(
            PromptMessage.user("This is a simple prompt for testing."))));

    server.prompt(Prompt.of(WITH_ARGUMENTS, "A prompt with required arguments",
                PromptArgument.required("arg1", "First test argument"),
                PromptArgument.required("arg2", "Second test argument"))
            .withTitle("Prompt With Arguments"),
        (args, ctx) -> Future.succeededFuture(PromptResult.of(PromptMessage.user(
            "Prompt with arguments: arg1='" + args.get("arg1") + "', arg2='" + args.get("arg2") + "'"))));

    server.prompt(Prompt.of("test_prompt_with_embedded_resource", "A prompt that includes an embedded resource",
                PromptArgument.required("resourceUri", "URI of the resource to embed"))
            .withTitle("Prompt With Embedded Resource"),
        (args, ctx) -> Future.succeededFuture(PromptResult.of(
            PromptMessage.user(Content.resource(ResourceContents.text(args.get("resourceUri"), "text/plain",
                "Embedded resource content for testing."))),
            PromptMessage.user("Please process the embedded resource above."))));

    server.prompt(Prompt.of("test_prompt_with_image", "A prompt that includes image content")
            .withTitle("Prompt With Image"),
        (args, ctx) -> Future.succeededFuture(PromptResult.of(
            PromptMessage.user(Content.image(TEST_IMAGE_BASE64, "image/png")),
            PromptMessage.user("Please analyze the image above."))));

    // completion-complete asks for arg1 of test_prompt_with_arguments and only needs a values array. Like the
    // reference server, we suggest nothing: the arguments are free text.
    CompletionHandler none = (request, ctx) -> Future.succeededFuture(Completion.of(List.of()));
    server.promptCompletion(WITH_ARGUMENTS, "arg1", none);
    server.promptCompletion(WITH_ARGUMENTS, "arg2", none);
  }
}
