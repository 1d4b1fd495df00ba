#include "core/util/yaml_load.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <yaml.h>

#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "core/util/heap_trim.h"
#include "core/util/text.h"

namespace rr {
namespace {
struct FromLibyaml {};
}  // namespace
}  // namespace rr

// yaml-cpp builds a YAML::Node over its own node memory only from within its friends; as_if is
// one of them (any specialisation), which is the one way in that its public headers leave.
namespace YAML {
template <>
struct as_if<rr::FromLibyaml, void> {
  static Node Wrap(detail::node& node, detail::shared_memory_holder memory) {
    return Node(node, std::move(memory));
  }
};
}  // namespace YAML

namespace rr {
namespace {

YAML::Mark MarkOf(const yaml_mark_t& m) {
  YAML::Mark mark;
  mark.pos = static_cast<int>(m.index);
  mark.line = static_cast<int>(m.line);
  mark.column = static_cast<int>(m.column);
  return mark;
}

bool IsNullText(const std::string& s) {
  return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

std::string Text(const yaml_char_t* s) { return s ? reinterpret_cast<const char*>(s) : ""; }

// yaml-cpp's NodeBuilder, fed by libyaml's events: a node is pushed when it starts and joins its
// collection when it ends (a mapping takes its children as key, value, key, value...).
class Builder {
 public:
  explicit Builder(const YamlBounds& bounds)
      : memory_(std::make_shared<YAML::detail::memory_holder>()), bounds_(bounds) {}

  YAML::detail::node& Start(const yaml_mark_t& mark, const yaml_char_t* anchor,
                            size_t scalar_bytes = 0) {
    Grow(mark, 1 + scalar_bytes);
    YAML::detail::node& node = memory_->create_node();
    node.set_mark(MarkOf(mark));
    if (anchor) {
      anchors_[Text(anchor)] = &node;
      open_anchors_[&node] = expanded_ - 1 - scalar_bytes;  // the tree's size before this node
    }
    Push(node);
    return node;
  }
  void Alias(const yaml_event_t& e) {
    auto it = anchors_.find(Text(e.data.alias.anchor));
    if (it == anchors_.end()) {
      throw YAML::ParserException(MarkOf(e.start_mark), "the referenced anchor is not defined: " +
                                                            Text(e.data.alias.anchor));
    }
    if (++aliases_ > bounds_.max_aliases) {
      throw YamlBoundsExceeded(MarkOf(e.start_mark),
                               "more than " + WithCommas(bounds_.max_aliases) + " aliases (*name)");
    }
    const auto size = sizes_.find(it->second);
    if (size == sizes_.end()) {
      throw YamlBoundsExceeded(MarkOf(e.start_mark),
                               "an alias inside the node its anchor names (a tree that never "
                               "ends)");
    }
    Grow(e.start_mark, size->second);
    Push(*it->second);
    Pop();
  }
  void Scalar(const yaml_event_t& e) {
    const auto& s = e.data.scalar;
    std::string value(reinterpret_cast<const char*>(s.value), s.length);
    const bool plain = s.style == YAML_PLAIN_SCALAR_STYLE && s.plain_implicit && !s.tag;
    YAML::detail::node& node = Start(e.start_mark, s.anchor, s.length);
    if (plain && IsNullText(value)) {
      node.set_null();
    } else {
      node.set_scalar(value);
      node.set_tag(s.tag ? Text(s.tag) : plain ? "?" : "!");
    }
    Pop();
  }
  void Collection(const yaml_event_t& e, YAML::NodeType::value type) {
    const bool seq = type == YAML::NodeType::Sequence;
    const yaml_char_t* anchor = seq ? e.data.sequence_start.anchor : e.data.mapping_start.anchor;
    const yaml_char_t* tag = seq ? e.data.sequence_start.tag : e.data.mapping_start.tag;
    const bool flow = seq ? e.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
                          : e.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
    if (++depth_ > bounds_.max_depth) {
      throw YamlBoundsExceeded(MarkOf(e.start_mark), "collections nested more than " +
                                                         WithCommas(bounds_.max_depth) + " deep");
    }
    YAML::detail::node& node = Start(e.start_mark, anchor);
    node.set_tag(tag ? Text(tag) : "?");
    node.set_type(type);
    node.set_style(flow ? YAML::EmitterStyle::Flow : YAML::EmitterStyle::Block);
    if (!seq) ++map_depth_;
  }
  void End(bool map) {
    if (map) --map_depth_;
    --depth_;
    Pop();
  }
  YAML::Node Root() {
    if (!root_) return YAML::Node();
    return YAML::as_if<FromLibyaml, void>::Wrap(*root_, memory_);
  }

 private:
  void Push(YAML::detail::node& node) {
    const bool needs_key = !stack_.empty() && stack_.back()->type() == YAML::NodeType::Map &&
                           keys_.size() < map_depth_;
    stack_.push_back(&node);
    if (needs_key) keys_.emplace_back(&node, false);
  }
  // The tree, every alias written out, grows by `n`.
  void Grow(const yaml_mark_t& mark, size_t n) {
    if (n > bounds_.max_expanded || expanded_ > bounds_.max_expanded - n) {
      throw YamlBoundsExceeded(MarkOf(mark), "larger than " + WithCommas(bounds_.max_expanded) +
                                                 " bytes with every alias (*name) written out");
    }
    expanded_ += n;
  }
  void Pop() {
    if (!open_anchors_.empty()) {
      // An anchored node ends: its size, every alias within it written out, is known.
      auto it = open_anchors_.find(stack_.back());
      if (it != open_anchors_.end()) {
        sizes_[it->first] = expanded_ - it->second;
        open_anchors_.erase(it);
      }
    }
    if (stack_.size() == 1) {
      root_ = stack_[0];
      stack_.pop_back();
      return;
    }
    YAML::detail::node& node = *stack_.back();
    stack_.pop_back();
    YAML::detail::node& collection = *stack_.back();
    if (collection.type() == YAML::NodeType::Sequence) {
      collection.push_back(node, memory_);
    } else if (collection.type() == YAML::NodeType::Map) {
      auto& key = keys_.back();
      if (key.second) {
        collection.insert(*key.first, node, memory_);
        keys_.pop_back();
      } else {
        key.second = true;
      }
    }
  }

  YAML::detail::shared_memory_holder memory_;
  std::vector<YAML::detail::node*> stack_;
  std::vector<std::pair<YAML::detail::node*, bool>> keys_;  // key, whether its value came
  size_t map_depth_ = 0;
  std::map<std::string, YAML::detail::node*> anchors_;
  YAML::detail::node* root_ = nullptr;
  // The bounds, and what was read against them.
  YamlBounds bounds_;
  size_t depth_ = 0, aliases_ = 0, expanded_ = 0;
  std::map<const YAML::detail::node*, size_t> open_anchors_;  // anchored, not ended: size before
  std::map<const YAML::detail::node*, size_t> sizes_;         // anchored and ended: its size
};

class Parser {
 public:
  explicit Parser(const std::string& text) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()),
                                 text.size());
  }
  ~Parser() {
    if (has_event_) yaml_event_delete(&event_);
    yaml_parser_delete(&parser_);
  }
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  // The next event; throws on invalid YAML.
  yaml_event_t& Next() {
    if (has_event_) yaml_event_delete(&event_);
    has_event_ = false;
    if (!yaml_parser_parse(&parser_, &event_)) {
      std::string what = parser_.problem ? parser_.problem : "the text cannot be read as YAML";
      if (parser_.context) what += " " + std::string(parser_.context);
      throw YAML::ParserException(MarkOf(parser_.problem_mark), what);
    }
    has_event_ = true;
    return event_;
  }

 private:
  yaml_parser_t parser_;
  yaml_event_t event_;
  bool has_event_ = false;
};

// Text above this size makes a tree worth building and freeing on threads of its own.
constexpr size_t kAsideBytes = 256 * 1024;

class Freer {
 public:
  ~Freer() {
    std::lock_guard<std::mutex> lock(mu_);
    if (thread_.joinable()) thread_.join();
  }
  void Free(std::unique_ptr<YAML::Node> tree) {
    std::lock_guard<std::mutex> lock(mu_);
    if (thread_.joinable()) thread_.join();
    thread_ = std::thread([t = std::move(tree)]() mutable {
      // After what starts the server, not beside it.
      setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
      t.reset();
      GiveBackFreeHeap();
    });
  }

 private:
  std::mutex mu_;
  std::thread thread_;
};

}  // namespace

void FreeYaml(YAML::Node& tree, size_t text_bytes) {
  if (text_bytes < kAsideBytes) {
    tree.reset();
    return;
  }
  // The only reference left is handed to the thread: the tree is freed there, whoever ends first.
  auto held = std::make_unique<YAML::Node>();
  held->reset(tree);
  tree.reset();
  static Freer freer;
  freer.Free(std::move(held));
}

namespace {

YAML::Node Build(const std::string& text, const YamlBounds& bounds) {
  Parser parser(text);
  Builder builder(bounds);
  while (true) {
    const yaml_event_t& e = parser.Next();
    switch (e.type) {
      case YAML_STREAM_END_EVENT:
        return builder.Root();
      case YAML_DOCUMENT_END_EVENT:
        return builder.Root();  // the first document only, as YAML::Load
      case YAML_ALIAS_EVENT:
        builder.Alias(e);
        break;
      case YAML_SCALAR_EVENT:
        builder.Scalar(e);
        break;
      case YAML_SEQUENCE_START_EVENT:
        builder.Collection(e, YAML::NodeType::Sequence);
        break;
      case YAML_MAPPING_START_EVENT:
        builder.Collection(e, YAML::NodeType::Map);
        break;
      case YAML_SEQUENCE_END_EVENT:
        builder.End(false);
        break;
      case YAML_MAPPING_END_EVENT:
        builder.End(true);
        break;
      default:
        break;
    }
  }
}

}  // namespace

YAML::Node LoadYaml(const std::string& text) { return LoadYaml(text, YamlBounds()); }

YAML::Node LoadYaml(const std::string& text, const YamlBounds& bounds) {
  if (text.size() < kAsideBytes) return Build(text, bounds);
  // A large tree is built on a thread of its own. glibc gives that thread a memory arena of its
  // own, so the tree's many small blocks are not interleaved with what the caller allocates and
  // keeps meanwhile (the configuration read from it): freed, the arena's pages go back to the
  // system whole instead of staying half used in the caller's.
  YAML::Node tree;
  std::exception_ptr failure;
  std::thread([&] {
    try {
      tree = Build(text, bounds);
    } catch (...) {
      failure = std::current_exception();
    }
  }).join();
  if (failure) std::rethrow_exception(failure);
  return tree;
}

}  // namespace rr
