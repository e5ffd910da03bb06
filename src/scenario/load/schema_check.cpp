#include "scenario/load/schema_check.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "scenario/json/reader.h"

namespace stepslide {

namespace {

using Json = JsonSchema::Json;

const std::set<std::string> kAnnotations = {"$schema", "$id",       "$comment", "title",    "description",
                                            "default", "examples",  "deprecated", "readOnly", "writeOnly",
                                            "markdownDescription"};
const std::set<std::string> kTypes = {"null", "boolean", "object", "array", "number", "string", "integer"};
/// $ref chains deeper than this are a loop in the schema.
constexpr int kMaxDepth = 256;

std::string child(const std::string& path, const std::string& key) {
  return path + "/" + strict_json::pointer_token(key);
}
std::string child(const std::string& path, std::size_t index) { return path + "/" + std::to_string(index); }

/// The schema a "$ref" names: "#" or "#/json/pointer" within the same document.
const Json* resolve(const Json& root, const Json& ref) {
  if (!ref.is_string()) return nullptr;
  const std::string& text = ref.get_ref<const std::string&>();
  if (text == "#") return &root;
  if (text.rfind("#/", 0) != 0) return nullptr;
  try {
    const Json::json_pointer pointer(text.substr(1));
    return root.contains(pointer) ? &root.at(pointer) : nullptr;
  } catch (const std::exception&) {
    return nullptr;
  }
}

bool is_integer(const Json& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  const double d = v.get<double>();
  return std::isfinite(d) && std::floor(d) == d;
}

bool has_type(const Json& v, const std::string& type) {
  if (type == "null") return v.is_null();
  if (type == "boolean") return v.is_boolean();
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "number") return v.is_number();
  if (type == "string") return v.is_string();
  if (type == "integer") return is_integer(v);
  return false;
}

std::string article(const std::string& type) {
  if (type == "integer" || type == "object" || type == "array") return "an " + type;
  if (type == "null") return "null";
  return "a " + type;
}

// ---------------------------------------------------------------------------
// compile: every keyword known, every value of the right kind.

class Compiler {
 public:
  explicit Compiler(const Json& root) : root_(root) {}

  bool schema(const Json& s, const std::string& path) {
    if (s.is_boolean()) return true;
    if (!s.is_object()) return fail(path, "expected a schema (an object or a boolean)");
    for (auto it = s.begin(); it != s.end(); ++it) {
      if (!keyword(it.key(), it.value(), child(path, it.key()))) return false;
    }
    return true;
  }

  const std::string& error() const { return error_; }

 private:
  bool fail(const std::string& path, const std::string& message) {
    error_ = (path.empty() ? "/" : path) + ": " + message;
    return false;
  }

  bool schema_array(const Json& v, const std::string& path, bool allow_empty) {
    if (!v.is_array() || (!allow_empty && v.empty())) return fail(path, "expected a non-empty array of schemas");
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (!schema(v[i], child(path, i))) return false;
    }
    return true;
  }

  bool schema_map(const Json& v, const std::string& path) {
    if (!v.is_object()) return fail(path, "expected an object of schemas");
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (!schema(it.value(), child(path, it.key()))) return false;
    }
    return true;
  }

  bool keyword(const std::string& key, const Json& v, const std::string& path) {
    if (kAnnotations.count(key)) return true;
    if (key == "type") return type_keyword(v, path);
    if (key == "enum") return v.is_array() && !v.empty() ? true : fail(path, "expected a non-empty array");
    if (key == "const") return true;
    if (key == "minimum" || key == "maximum" || key == "exclusiveMinimum" || key == "exclusiveMaximum") {
      return v.is_number() ? true : fail(path, "expected a number");
    }
    if (key == "minItems" || key == "maxItems") {
      return is_integer(v) && v.get<double>() >= 0 ? true : fail(path, "expected an integer >= 0");
    }
    if (key == "items" || key == "additionalProperties" || key == "not" || key == "if" || key == "then" ||
        key == "else") {
      return schema(v, path);
    }
    if (key == "prefixItems") return schema_array(v, path, false);
    if (key == "allOf" || key == "anyOf" || key == "oneOf") return schema_array(v, path, false);
    if (key == "properties" || key == "$defs") return schema_map(v, path);
    if (key == "required") {
      const bool ok = v.is_array() && std::all_of(v.begin(), v.end(), [](const Json& e) { return e.is_string(); });
      return ok ? true : fail(path, "expected an array of strings");
    }
    if (key == "$ref") return resolve(root_, v) ? true : fail(path, "cannot resolve " + v.dump());
    return fail(path, "unknown keyword " + quote_text(key) + " (not implemented by this validator)");
  }

  bool type_keyword(const Json& v, const std::string& path) {
    auto known = [](const Json& t) { return t.is_string() && kTypes.count(t.get<std::string>()) > 0; };
    if (known(v)) return true;
    if (v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), known)) return true;
    return fail(path, "expected a type name or an array of them");
  }

  static std::string quote_text(const std::string& text) { return "\"" + text + "\""; }

  const Json& root_;
  std::string error_;
};

// ---------------------------------------------------------------------------
// validate

/// An issue, and whether it came from a const or enum: a failed
/// discriminator says the alternative was the wrong one, not a near miss.
struct Found {
  SchemaIssue issue;
  bool discriminator = false;
};

std::size_t depth_of(const std::string& pointer) { return static_cast<std::size_t>(std::count(pointer.begin(), pointer.end(), '/')); }

class Validator {
 public:
  explicit Validator(const Json& root) : root_(root) {}

  void check(const Json& s, const std::string& schema_path, const Json& v, const std::string& path,
             std::vector<Found>& out, int depth) const {
    if (s.is_boolean()) {
      if (!s.get<bool>()) add(out, path, schema_path, "no value is allowed here");
      return;
    }
    if (depth > kMaxDepth) {
      add(out, path, schema_path, "the schema refers to itself without end");
      return;
    }
    if (const auto ref = s.find("$ref"); ref != s.end()) {
      check(*resolve(root_, *ref), ref->get<std::string>().substr(1), v, path, out, depth + 1);
    }
    type(s, schema_path, v, path, out);
    constant(s, schema_path, v, path, out);
    if (v.is_number()) range(s, schema_path, v, path, out);
    if (v.is_array()) array(s, schema_path, v, path, out, depth);
    if (v.is_object()) object(s, schema_path, v, path, out, depth);
    combinations(s, schema_path, v, path, out, depth);
  }

 private:
  static void add(std::vector<Found>& out, const std::string& path, const std::string& schema_path,
                  std::string message, bool discriminator = false) {
    out.push_back(Found{SchemaIssue{path, schema_path, std::move(message)}, discriminator});
  }

  bool passes(const Json& s, const std::string& schema_path, const Json& v, const std::string& path, int depth,
              std::vector<Found>* issues = nullptr) const {
    std::vector<Found> local;
    check(s, schema_path, v, path, local, depth + 1);
    const bool ok = local.empty();
    if (issues) *issues = std::move(local);
    return ok;
  }

  void type(const Json& s, const std::string& sp, const Json& v, const std::string& path, std::vector<Found>& out) const {
    const auto t = s.find("type");
    if (t == s.end()) return;
    std::vector<std::string> types;
    if (t->is_string()) {
      types.push_back(t->get<std::string>());
    } else {
      for (const Json& e : *t) types.push_back(e.get<std::string>());
    }
    if (std::any_of(types.begin(), types.end(), [&](const std::string& name) { return has_type(v, name); })) return;
    std::string expected;
    for (std::size_t i = 0; i < types.size(); ++i) {
      expected += (i == 0 ? "" : i + 1 == types.size() ? " or " : ", ") + article(types[i]);
    }
    add(out, path, sp + "/type", "expected " + expected + ", got " + strict_json::describe(v));
  }

  void constant(const Json& s, const std::string& sp, const Json& v, const std::string& path,
                std::vector<Found>& out) const {
    if (const auto c = s.find("const"); c != s.end() && *c != v) {
      add(out, path, sp + "/const", "expected " + c->dump() + ", got " + strict_json::describe(v), true);
    }
    if (const auto e = s.find("enum"); e != s.end() && std::find(e->begin(), e->end(), v) == e->end()) {
      std::string names;
      for (std::size_t i = 0; i < e->size(); ++i) names += (i == 0 ? "" : ", ") + (*e)[i].dump();
      add(out, path, sp + "/enum", "expected one of " + names + ", got " + strict_json::describe(v), true);
    }
  }

  void range(const Json& s, const std::string& sp, const Json& v, const std::string& path, std::vector<Found>& out) const {
    const double x = v.get<double>();
    struct Bound {
      const char* keyword;
      const char* relation;
      bool (*ok)(double, double);
    };
    static const Bound bounds[] = {
        {"minimum", ">=", [](double a, double b) { return a >= b; }},
        {"maximum", "<=", [](double a, double b) { return a <= b; }},
        {"exclusiveMinimum", ">", [](double a, double b) { return a > b; }},
        {"exclusiveMaximum", "<", [](double a, double b) { return a < b; }},
    };
    for (const Bound& b : bounds) {
      const auto limit = s.find(b.keyword);
      if (limit == s.end() || b.ok(x, limit->get<double>())) continue;
      add(out, path, sp + "/" + b.keyword,
          std::string("expected a number ") + b.relation + " " + strict_json::number_text(limit->get<double>()) +
              ", got " + strict_json::describe(v));
    }
  }

  void array(const Json& s, const std::string& sp, const Json& v, const std::string& path, std::vector<Found>& out,
             int depth) const {
    const std::size_t n = v.size();
    if (const auto m = s.find("minItems"); m != s.end() && n < m->get<std::size_t>()) {
      add(out, path, sp + "/minItems",
          "expected at least " + std::to_string(m->get<std::size_t>()) + " items, got " + std::to_string(n));
    }
    if (const auto m = s.find("maxItems"); m != s.end() && n > m->get<std::size_t>()) {
      add(out, path, sp + "/maxItems",
          "expected at most " + std::to_string(m->get<std::size_t>()) + " items, got " + std::to_string(n));
    }
    std::size_t first_rest = 0;
    if (const auto prefix = s.find("prefixItems"); prefix != s.end()) {
      first_rest = std::min(prefix->size(), n);
      for (std::size_t i = 0; i < first_rest; ++i) {
        check((*prefix)[i], child(sp + "/prefixItems", i), v[i], child(path, i), out, depth + 1);
      }
    }
    if (const auto items = s.find("items"); items != s.end()) {
      for (std::size_t i = first_rest; i < n; ++i) check(*items, sp + "/items", v[i], child(path, i), out, depth + 1);
    }
  }

  void object(const Json& s, const std::string& sp, const Json& v, const std::string& path, std::vector<Found>& out,
              int depth) const {
    if (const auto required = s.find("required"); required != s.end()) {
      for (const Json& key : *required) {
        if (!v.contains(key.get<std::string>())) {
          add(out, path, sp + "/required", "missing required key \"" + key.get<std::string>() + "\"");
        }
      }
    }
    const auto properties = s.find("properties");
    const auto additional = s.find("additionalProperties");
    for (auto it = v.begin(); it != v.end(); ++it) {
      const std::string member = child(path, it.key());
      if (properties != s.end() && properties->contains(it.key())) {
        check((*properties)[it.key()], child(sp + "/properties", it.key()), it.value(), member, out, depth + 1);
      } else if (additional != s.end()) {
        if (additional->is_boolean() && !additional->get<bool>()) {
          add(out, member, sp + "/additionalProperties", "unknown key \"" + it.key() + "\"");
        } else {
          check(*additional, sp + "/additionalProperties", it.value(), member, out, depth + 1);
        }
      }
    }
  }

  /// The issues of the alternative that came closest: one whose const/enum
  /// matched, then the one whose problems lie deepest, then the fewest.
  static std::vector<Found> closest(std::vector<std::vector<Found>> tries) {
    auto score = [](const std::vector<Found>& issues) {
      const bool wrong_kind = std::any_of(issues.begin(), issues.end(), [](const Found& f) { return f.discriminator; });
      std::size_t deepest = 0;
      for (const Found& f : issues) deepest = std::max(deepest, depth_of(f.issue.instance_path));
      return std::make_tuple(wrong_kind ? 1 : 0, -static_cast<long>(deepest), issues.size());
    };
    std::size_t best = 0;
    for (std::size_t i = 1; i < tries.size(); ++i) {
      if (score(tries[i]) < score(tries[best])) best = i;
    }
    return tries.empty() ? std::vector<Found>{} : std::move(tries[best]);
  }

  void combinations(const Json& s, const std::string& sp, const Json& v, const std::string& path,
                    std::vector<Found>& out, int depth) const {
    if (const auto all = s.find("allOf"); all != s.end()) {
      for (std::size_t i = 0; i < all->size(); ++i) check((*all)[i], child(sp + "/allOf", i), v, path, out, depth + 1);
    }
    for (const char* keyword : {"anyOf", "oneOf"}) {
      const auto options = s.find(keyword);
      if (options == s.end()) continue;
      std::vector<std::vector<Found>> tries(options->size());
      std::size_t matched = 0;
      for (std::size_t i = 0; i < options->size(); ++i) {
        matched += passes((*options)[i], child(sp + "/" + keyword, i), v, path, depth, &tries[i]) ? 1 : 0;
      }
      if (matched == 0) {
        for (Found& f : closest(std::move(tries))) out.push_back(std::move(f));
      } else if (matched > 1 && std::string(keyword) == "oneOf") {
        add(out, path, sp + "/oneOf", "matches " + std::to_string(matched) + " alternatives, expected exactly one");
      }
    }
    if (const auto negated = s.find("not"); negated != s.end() && passes(*negated, sp + "/not", v, path, depth)) {
      const auto why = negated->is_object() ? negated->find("description") : negated->end();
      const auto own = s.find("description");
      std::string message = "must not match the schema at " + sp + "/not";
      if (negated->is_object() && why != negated->end()) {
        message = why->get<std::string>();
      } else if (own != s.end() && own->is_string()) {
        message = own->get<std::string>();
      }
      add(out, path, sp + "/not", message);
    }
    if (const auto condition = s.find("if"); condition != s.end()) {
      const bool holds = passes(*condition, sp + "/if", v, path, depth);
      const char* branch = holds ? "then" : "else";
      if (const auto next = s.find(branch); next != s.end()) check(*next, sp + "/" + branch, v, path, out, depth + 1);
    }
  }

  const Json& root_;
};

}  // namespace

std::optional<JsonSchema> JsonSchema::compile(Json schema, std::string* error) {
  Compiler compiler(schema);
  if (!compiler.schema(schema, "")) {
    if (error) *error = compiler.error();
    return std::nullopt;
  }
  return JsonSchema(std::move(schema));
}

std::vector<SchemaIssue> JsonSchema::validate(const Json& instance) const {
  std::vector<Found> found;
  Validator(schema_).check(schema_, "", instance, "", found, 0);
  std::vector<SchemaIssue> issues;
  for (Found& f : found) issues.push_back(std::move(f.issue));
  return issues;
}

std::string format_schema_issue(const SchemaIssue& issue) {
  return (issue.instance_path.empty() ? "/" : issue.instance_path) + ": " + issue.message;
}

}  // namespace stepslide
