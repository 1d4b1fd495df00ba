#include <Poco/Dynamic/Var.h>
#include <Poco/JSON/Array.h>

#include "core/tools/tool.h"
#include "core/util/text.h"

namespace rr {
namespace {

const char* TypeName(ArgType t) {
  switch (t) {
    case ArgType::kString:
      return "a string";
    case ArgType::kInteger:
      return "an integer";
    case ArgType::kBoolean:
      return "true or false";
    case ArgType::kStrings:
      return "a list of strings";
  }
  return "";
}

// "shop, billing" -> {"shop", "billing"}: each item without the spaces around it, empty ones
// left out.
std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> items;
  size_t at = 0;
  while (at <= text.size()) {
    size_t comma = text.find(',', at);
    if (comma == std::string::npos) comma = text.size();
    const size_t b = text.find_first_not_of(' ', at);
    if (b != std::string::npos && b < comma) {
      const size_t e = text.find_last_not_of(' ', comma - 1);
      items.push_back(text.substr(b, e - b + 1));
    }
    at = comma + 1;
  }
  return items;
}

std::string Known(const ToolSpec& spec) {
  if (spec.args.empty()) return spec.name + " takes no arguments";
  std::string s = spec.name + " takes: ";
  for (size_t i = 0; i < spec.args.size(); ++i) s += (i ? ", " : "") + spec.args[i].name;
  return s;
}

}  // namespace

bool ToolSpec::Takes(const std::string& arg) const {
  for (const auto& a : args) {
    if (a.name == arg) return true;
  }
  return false;
}

Result<Args> Args::Check(const ToolSpec& spec, const Poco::JSON::Object::Ptr& args) {
  Args out;
  if (args) {
    for (const auto& [key, value] : *args) {
      const ArgSpec* a = nullptr;
      for (const auto& s : spec.args) {
        if (s.name == key) a = &s;
      }
      if (!a) {
        return Error{"unknown argument `" + EchoArgument(key) + "`; " + Known(spec)};
      }
      if (value.isEmpty()) continue;  // null: as if not given
      const std::string expected = "argument `" + a->name + "` must be " + TypeName(a->type);
      switch (a->type) {
        case ArgType::kString: {
          if (!value.isString()) return Error{expected + " (" + a->description + ")"};
          std::string s = value.extract<std::string>();
          if (!a->one_of.empty()) {
            bool ok = false;
            std::string choices;
            for (const auto& c : a->one_of) {
              ok = ok || c == s;
              choices += (choices.empty() ? "" : ", ") + c;
            }
            if (!ok) {
              return Error{"argument `" + a->name + "` is `" + EchoArgument(s) +
                           "`; it must be one of: " + choices};
            }
          }
          out.values_[a->name] = std::move(s);
          break;
        }
        case ArgType::kInteger: {
          // Poco counts true and false as integers; an agent's boolean is not a number.
          if (!value.isInteger() || value.type() == typeid(bool)) {
            return Error{expected + " (" + a->description + ")"};
          }
          int64_t v;
          try {
            v = value.convert<int64_t>();
          } catch (...) {
            return Error{expected + " within range"};
          }
          if ((a->min && v < *a->min) || (a->max && v > *a->max)) {
            std::string range =
                a->max ? "from " + std::to_string(*a->min) + " to " + std::to_string(*a->max)
                       : std::to_string(*a->min) + " or more";
            return Error{"argument `" + a->name + "` is " + std::to_string(v) + "; it must be " +
                         range};
          }
          out.values_[a->name] = v;
          break;
        }
        case ArgType::kBoolean:
          if (!value.isBoolean()) return Error{expected};
          out.values_[a->name] = value.extract<bool>();
          break;
        case ArgType::kStrings: {
          if (a->comma_separated && value.isString()) {
            out.values_[a->name] = SplitCommas(value.extract<std::string>());
            break;
          }
          if (value.type() != typeid(Poco::JSON::Array::Ptr)) {
            return Error{expected + " ([\"a\", \"b\"]: " + a->description + ")"};
          }
          const auto array = value.extract<Poco::JSON::Array::Ptr>();
          const size_t n = array ? array->size() : 0;
          if ((a->min && n < static_cast<uint64_t>(*a->min)) ||
              (a->max && n > static_cast<uint64_t>(*a->max))) {
            std::string range = a->max ? "from " + std::to_string(a->min.value_or(0)) + " to " +
                                             std::to_string(*a->max)
                                       : std::to_string(*a->min) + " or more";
            return Error{"argument `" + a->name + "` holds " + Plural(n, "item", "items") +
                         "; it must hold " + range};
          }
          std::vector<std::string> items;
          items.reserve(n);
          for (size_t i = 0; i < n; ++i) {
            const Poco::Dynamic::Var item = array->get(static_cast<unsigned>(i));
            if (!item.isString()) {
              return Error{"argument `" + a->name + "`: item " + std::to_string(i + 1) +
                           " must be a string (" + a->description + ")"};
            }
            items.push_back(item.extract<std::string>());
          }
          out.values_[a->name] = std::move(items);
          break;
        }
      }
    }
  }
  for (const auto& a : spec.args) {
    if (a.required && !out.values_.count(a.name)) {
      return Error{"argument `" + a.name + "` is required: " + a.description};
    }
  }
  return out;
}

std::optional<std::string> Args::String(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return std::get<std::string>(it->second);
}

std::optional<int64_t> Args::Integer(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return std::get<int64_t>(it->second);
}

std::optional<std::vector<std::string>> Args::Strings(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return std::get<std::vector<std::string>>(it->second);
}

bool Args::Boolean(const std::string& name, bool fallback) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  return std::get<bool>(it->second);
}

}  // namespace rr
