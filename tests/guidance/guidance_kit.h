// Repositories that carry guidance of every kind, for the guidance tests.
#pragma once

#include <string>

#include "tests/testkit/git_fixture.h"

namespace rr::testing {

// Writes one piece of guidance of each kind, and files they are for, into `repo` (not
// committed).
inline void WriteEveryKind(const TestRepo& repo) {
  repo.Write("AGENTS.md", "Run the tests before you commit.\n");
  repo.Write("CLAUDE.md", "See AGENTS.md.\n");
  repo.Write("src/payments/AGENTS.md", "Never log card numbers.\n");
  repo.Write(".claude/rules/pricing.md",
             "---\npaths:\n  - \"src/pricing/**\"\n---\nPrices are integers, in cents.\n");
  repo.Write(".cursor/rules/style.mdc",
             "---\ndescription: Style of the web code\nglobs: web/**/*.{ts,tsx}\nalwaysApply: "
             "false\n---\nIndent with two spaces.\n");
  repo.Write(".cursor/rules/always.mdc", "---\nalwaysApply: true\nglobs: src/**\n---\nBe brief.\n");
  repo.Write(".github/instructions/python.instructions.md",
             "---\napplyTo: \"**/*.py\"\n---\nType-hint every function.\n");
  repo.Write(".github/copilot-instructions.md", "Write small commits.\n");
  repo.Write(".claude/skills/refund-flow/SKILL.md",
             "---\nname: refund-flow\ndescription: Issue a refund for one order.\n---\n"
             "# Refunds\nCall the refund API; see reference.md.\n");
  repo.Write(".claude/skills/refund-flow/reference.md", "POST /refunds {order, cents}\n");
  repo.Write("README.md", "The shop.\n");
  repo.Write("src/pricing/cart.py", "def total(items):\n    return sum(items)\n");
  repo.Write("src/payments/card.py", "def charge(card):\n    pass\n");
  repo.Write("web/app.ts", "export const app = 1;\n");
  repo.Write("web/view.tsx", "export const view = 2;\n");
}

}  // namespace rr::testing
