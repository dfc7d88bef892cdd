package io.mcpvertx.server.impl.features;

import com.networknt.schema.JsonSchema;
import io.mcpvertx.server.CompletionHandler;
import io.mcpvertx.server.PromptHandler;
import io.mcpvertx.server.ResourceHandler;
import io.mcpvertx.server.ResourceTemplateHandler;
import io.mcpvertx.server.ToolHandler;
import io.mcpvertx.server.prompts.Prompt;
import io.mcpvertx.server.resources.Resource;
import io.mcpvertx.server.resources.ResourceTemplate;
import io.mcpvertx.server.tools.Tool;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Everything a server offers, shared by all its sessions on every event loop.
 *
 * <p>Readers take an immutable {@link Snapshot} without locking; writers replace the snapshot by compare-and-set
 * (registration is rare, reads are per request). Lists keep registration order, so pages are deterministic.
 */
public final class FeatureRegistry {

  public record RegisteredTool(Tool tool, ToolHandler handler, JsonSchema input, JsonSchema output) {
  }

  public record RegisteredResource(Resource resource, ResourceHandler handler) {
  }

  public record RegisteredTemplate(ResourceTemplate template, UriTemplate matcher, ResourceTemplateHandler handler) {
  }

  public record RegisteredPrompt(Prompt prompt, PromptHandler handler) {
  }

  /** What changed, for sessions to turn into notifications. */
  public enum Change { TOOLS, RESOURCES, PROMPTS }

  /** Receives changes; called on the registering thread, so implementations hop to their own context. */
  public interface Listener {
    void changed(Change change);

    public void resourceUpdated(String uri);
  }

  public record Snapshot(Map<String, RegisteredTool> tools, Map<String, RegisteredResource> resources,
      Map<String, RegisteredTemplate> templates, Map<String, RegisteredPrompt> prompts,
      Map<String, CompletionHandler> completions) {

    static final Snapshot EMPTY = new Snapshot(Map.of(), Map.of(), Map.of(), Map.of(), Map.of());

    public boolean hasResources() {
      return !resources.isEmpty() || !templates.isEmpty();
    }
  }

  private final AtomicReference<Snapshot> current = new AtomicReference<>(Snapshot.EMPTY);
  private final CopyOnWriteArrayList<Listener> listeners = new CopyOnWriteArrayList<>();

  public Snapshot snapshot() {
    return current.get();
  }

  public static String promptCompletionKey(String prompt, String argument) {
    return "prompt\u0000" + prompt + "\u0000" + argument;
  }

  public static String templateCompletionKey(String uriTemplate, String variable) {
    return "resource\u0000" + uriTemplate + "\u0000" + variable;
  }

  public void putTool(RegisteredTool tool) {
    update(s -> new Snapshot(with(s.tools(), tool.tool().name(), tool), s.resources(), s.templates(), s.prompts(),
        s.completions()));
    fire(Change.TOOLS);
  }

  public boolean removeTool(String name) {
    boolean removed = remove(s -> s.tools().containsKey(name),
        s -> new Snapshot(without(s.tools(), name), s.resources(), s.templates(), s.prompts(), s.completions()));
    if (removed) {
      fire(Change.TOOLS);
    }
    return removed;
  }

  public void putResource(RegisteredResource resource) {
    update(s -> new Snapshot(s.tools(), with(s.resources(), resource.resource().uri(), resource), s.templates(),
        s.prompts(), s.completions()));
    fire(Change.RESOURCES);
  }

  public boolean removeResource(String uri) {
    boolean removed = remove(s -> s.resources().containsKey(uri),
        s -> new Snapshot(s.tools(), without(s.resources(), uri), s.templates(), s.prompts(), s.completions()));
    if (removed) {
      fire(Change.RESOURCES);
    }
    return removed;
  }

  public void putTemplate(RegisteredTemplate template) {
    update(s -> new Snapshot(s.tools(), s.resources(), with(s.templates(), template.template().uriTemplate(), template),
        s.prompts(), s.completions()));
    fire(Change.RESOURCES);
  }

  public boolean removeTemplate(String uriTemplate) {
    boolean removed = remove(s -> s.templates().containsKey(uriTemplate),
        s -> new Snapshot(s.tools(), s.resources(), without(s.templates(), uriTemplate), s.prompts(), s.completions()));
    if (removed) {
      fire(Change.RESOURCES);
    }
    return removed;
  }

  public void putPrompt(RegisteredPrompt prompt) {
    update(s -> new Snapshot(s.tools(), s.resources(), s.templates(), with(s.prompts(), prompt.prompt().name(), prompt),
        s.completions()));
    fire(Change.PROMPTS);
  }

  public boolean removePrompt(String name) {
    boolean removed = remove(s -> s.prompts().containsKey(name),
        s -> new Snapshot(s.tools(), s.resources(), s.templates(), without(s.prompts(), name), s.completions()));
    if (removed) {
      fire(Change.PROMPTS);
    }
    return removed;
  }

  public void putCompletion(String key, CompletionHandler handler) {
    update(s -> new Snapshot(s.tools(), s.resources(), s.templates(), s.prompts(), with(s.completions(), key, handler)));
  }

  public void resourceUpdated(String uri) {
    for (Listener listener : listeners) {
      listener.resourceUpdated(uri);
    }
  }

  /** Adds a listener; the returned action removes it. */
  public Runnable addListener(Listener listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  public int listenerCount() {
    return listeners.size();
  }

  private void fire(Change change) {
    for (Listener listener : listeners) {
      listener.changed(change);
    }
  }

  private void update(UnaryOperator<Snapshot> change) {
    current.updateAndGet(change);
  }

  private boolean remove(Predicate<Snapshot> present, UnaryOperator<Snapshot> change) {
    while (true) {
      Snapshot before = current.get();
      if (!present.test(before)) {
        return false;
      }
      if (current.compareAndSet(before, change.apply(before))) {
        return true;
      }
    }
  }

  private static <V> Map<String, V> with(Map<String, V> map, String key, V value) {
    LinkedHashMap<String, V> copy = new LinkedHashMap<>(map);
    copy.put(key, value);
    return Collections.unmodifiableMap(copy);
  }

  private static <V> Map<String, V> without(Map<String, V> map, String key) {
    LinkedHashMap<String, V> copy = new LinkedHashMap<>(map);
    copy.remove(key);
    return Collections.unmodifiableMap(copy);
  }
}
