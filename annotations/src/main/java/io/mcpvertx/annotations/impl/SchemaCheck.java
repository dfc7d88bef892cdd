package io.mcpvertx.annotations.impl;

import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import io.vertx.core.json.JsonObject;
import java.lang.reflect.Method;

/**
 * Compiles a generated schema with the validator the runtime uses, at registration: a schema that does not compile
 * fails there, naming the method, on a server and in a verticle alike (whose schemas are compiled by the servers
 * that pick them up, too late to name anything).
 */
final class SchemaCheck {

  private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

  private SchemaCheck() {
  }

  static void compiles(Method method, String which, JsonObject schema) {
    try {
      JsonSchema compiled = FACTORY.getSchema(JsonMapping.toNode(schema));
      compiled.initializeValidators();
    } catch (RuntimeException e) {
      throw Where.problem(method, "the generated " + which + " does not compile: " + e.getMessage());
    }
  }
}
