// A small JSON Schema (draft 2020-12) validator for the keywords that
// schema/scenario.schema.json uses, so the test that keeps the schema and the
// loader in step needs no other dependency. A schema using any keyword this
// does not implement is rejected when compiled, never silently half-checked.
//
// Implemented: type, enum, const, minimum, maximum, exclusiveMinimum,
// exclusiveMaximum, minItems, maxItems, items, prefixItems, properties,
// required, additionalProperties, allOf, anyOf, oneOf, not, if/then/else,
// $ref (to "#" or "#/..." in the same document), $defs, boolean schemas.
// Ignored annotations: $schema, $id, $comment, title, description, default,
// examples, deprecated, readOnly, writeOnly, markdownDescription.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace stepslide {

struct SchemaIssue {
  std::string instance_path;  ///< JSON Pointer into the document ("" for the root)
  std::string schema_path;    ///< JSON Pointer into the schema, e.g. "/$defs/body/required"
  std::string message;        ///< "expected a number > 0, got -2"
};

class JsonSchema {
 public:
  using Json = nlohmann::ordered_json;

  /// Checks that every keyword in `schema` is implemented and well-formed and
  /// every $ref resolves. nullopt with `error` ("/$defs/x: unknown keyword
  /// \"pattern\"") otherwise.
  static std::optional<JsonSchema> compile(Json schema, std::string* error);

  /// Every problem with `instance`; empty when it is valid. For a failed
  /// oneOf/anyOf, the problems of the alternative that got furthest.
  std::vector<SchemaIssue> validate(const Json& instance) const;

  const Json& document() const { return schema_; }

 private:
  explicit JsonSchema(Json schema) : schema_(std::move(schema)) {}
  Json schema_;
};

/// "/world/0/shape: unknown key \"colour\"" (the root is written as "/").
std::string format_schema_issue(const SchemaIssue& issue);

}  // namespace stepslide
