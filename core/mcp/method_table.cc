#include "core/mcp/method_table.h"

#include <stdexcept>

namespace rr {

void MethodTable::Add(Method method) {
  if (Find(method.name)) throw std::logic_error("method added twice: " + method.name);
  rows_.push_back(std::move(method));
}

const Method* MethodTable::Find(const std::string& name) const {
  for (const Method& m : rows_) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::string MethodTable::NamesIn(Era era) const {
  std::string out;
  for (const Method& m : rows_) {
    if (InEra(m.eras, era)) out += (out.empty() ? "" : ", ") + m.name;
  }
  return out;
}

}  // namespace rr
