// The outline rules, one language at a time: what each takes as a definition (or a heading), with
// its line number, and the look-alikes it must pass over — a heading inside a code fence, a
// `def` inside a string, a call inside a function body, a forward declaration.
#include "core/outline/outline.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace rr {
namespace outline_test {
namespace {

// "line: text" for each entry (Markdown: "line: ## text"), for one comparison per file.
std::vector<std::string> Entries(const std::string& text, OutlineKind kind) {
  std::vector<std::string> out;
  for (const auto& e : Outline(text, kind, StopToken())) {
    std::string s = std::to_string(e.line) + ": ";
    if (e.level > 0) s += std::string(static_cast<size_t>(e.level), '#') + " ";
    out.push_back(s + e.text);
  }
  return out;
}

using V = std::vector<std::string>;

TEST(Outline, KindsAreToldByNameAndByAScriptsFirstLine) {
  EXPECT_EQ(OutlineKindOf("docs/guide.md", ""), OutlineKind::kMarkdown);
  EXPECT_EQ(OutlineKindOf("README.MARKDOWN", ""), OutlineKind::kMarkdown);
  EXPECT_EQ(OutlineKindOf("src/a.cc", ""), OutlineKind::kC);
  EXPECT_EQ(OutlineKindOf("include/a.h", ""), OutlineKind::kC);
  EXPECT_EQ(OutlineKindOf("a.hpp", ""), OutlineKind::kC);
  EXPECT_EQ(OutlineKindOf("app.py", ""), OutlineKind::kPython);
  EXPECT_EQ(OutlineKindOf("web/x.tsx", ""), OutlineKind::kJavaScript);
  EXPECT_EQ(OutlineKindOf("web/x.mjs", ""), OutlineKind::kJavaScript);
  EXPECT_EQ(OutlineKindOf("main.go", ""), OutlineKind::kGo);
  EXPECT_EQ(OutlineKindOf("lib.rs", ""), OutlineKind::kRust);
  EXPECT_EQ(OutlineKindOf("A.java", ""), OutlineKind::kJava);
  EXPECT_EQ(OutlineKindOf("run.sh", ""), OutlineKind::kShell);
  EXPECT_EQ(OutlineKindOf("ci.yml", ""), OutlineKind::kYaml);
  EXPECT_EQ(OutlineKindOf("k8s/app.yaml", ""), OutlineKind::kYaml);
  EXPECT_EQ(OutlineKindOf("bin/deploy", "#!/bin/bash"), OutlineKind::kShell);
  EXPECT_EQ(OutlineKindOf("bin/tool", "#!/usr/bin/env -S python3 -u"), OutlineKind::kPython);
  EXPECT_EQ(OutlineKindOf("bin/serve", "#!/usr/bin/env node"), OutlineKind::kJavaScript);
  EXPECT_EQ(OutlineKindOf("notes.txt", "# not a script"), OutlineKind::kNone);
  EXPECT_EQ(OutlineKindOf("data.json", ""), OutlineKind::kNone);
  EXPECT_TRUE(Entries("anything\n", OutlineKind::kNone).empty());
  EXPECT_STREQ(OutlineKindName(OutlineKind::kC), "C/C++");
}

TEST(Outline, MarkdownHeadingsOfEveryStyleAndNoneInsideCode) {
  const std::string md =
      "---\n"                           // 1  front matter: its closing --- is no underline
      "title: Guide\n"                  // 2
      "---\n"                           // 3
      "# Guide #\n"                     // 4  ATX, closing sequence dropped
      "Intro text.\n"                   // 5
      "\n"                              // 6
      "Setext One\n"                    // 7
      "==========\n"                    // 8
      "\n"                              // 9
      "Two lines of\n"                  // 10
      "a setext heading\n"              // 11
      "---\n"                           // 12
      "```sh\n"                         // 13
      "# a shell comment\n"             // 14 not a heading
      "Not setext\n"                    // 15
      "---\n"                           // 16
      "```\n"                           // 17
      "~~~~\n"                          // 18
      "## inside tildes\n"              // 19
      "```\n"                           // 20 a shorter, other fence does not close it
      "~~~~\n"                          // 21
      "    # indented code\n"           // 22
      "\n"                              // 23
      "###### Six\n"                    // 24
      "####### seven is text\n"         // 25
      "#hashtag\n"                      // 26
      "\n"                              // 27
      "> # quoted\n"                    // 28
      "\n"                              // 29
      "<div>\n"                         // 30
      "# in html\n"                     // 31
      "</div>\n"                        // 32
      "\n"                              // 33
      "- a list item\n"                 // 34
      "---\n"                           // 35 a thematic break after a list, not a heading
      "   ### Indented three ###   \n"  // 36
      "***\n"                           // 37
      "##\n";                           // 38 an empty heading
  EXPECT_EQ(Entries(md, OutlineKind::kMarkdown),
            (V{"4: # Guide", "7: # Setext One", "10: ## Two lines of a setext heading",
               "24: ###### Six", "36: ### Indented three", "38: ## "}));
}

TEST(Outline, MarkdownWithoutFrontMatterAndAnUnclosedFence) {
  // A first line of --- with no closing line is a thematic break, not front matter.
  EXPECT_EQ(Entries("---\n# One\nText\n===\n```\n# not\n", OutlineKind::kMarkdown),
            (V{"2: # One", "3: # Text"}));
  // Lines ending in \r\n.
  EXPECT_EQ(Entries("Title\r\n=====\r\n## Sub\r\n", OutlineKind::kMarkdown),
            (V{"1: # Title", "3: ## Sub"}));
}

TEST(Outline, CAndCpp) {
  const std::string cc =
      "#include <string>\n"                                    // 1
      "#define MAX_ITEMS 10\n"                                 // 2
      "namespace shop {\n"                                     // 3
      "class Cart;\n"                                          // 4 forward declaration
      "struct Item {\n"                                        // 5
      "  std::string name;\n"                                  // 6
      "  int Price() const;\n"                                 // 7 member declaration
      "};\n"                                                   // 8
      "enum class Kind : int { kA, kB };\n"                    // 9
      "static int Helper(int x) {\n"                           // 10
      "  int y = Compute(x);\n"                                // 11 body: not judged
      "  if (y) { return Other(y); }\n"                        // 12
      "  std::string s(3, 'x');\n"                             // 13
      "  return y;\n"                                          // 14
      "}\n"                                                    // 15
      "const char* kRaw = R\"(\n"                              // 16 raw string over lines
      "int NotAFunction() {\n"                                 // 17
      ")\";\n"                                                 // 18
      "/* a comment\n"                                         // 19
      "void Commented() {}\n"                                  // 20
      "*/\n"                                                   // 21
      "std::vector<int> Cart::Totals(const Item& a,\n"         // 22
      "                              int b) const {\n"         // 23 continuation
      "  return {};\n"                                         // 24
      "}\n"                                                    // 25
      "bool operator==(const Item& a, const Item& b);\n"       // 26
      "template <typename T> T Max(T a, T b) { return a; }\n"  // 27
      "TEST(Cart, AddsItems) {\n"                              // 28 a test macro's body
      "  EXPECT_EQ(1, 1);\n"                                   // 29
      "}\n"                                                    // 30
      "REGISTER_THING(Cart);\n"                                // 31 a macro's call
      "struct stat st = {0};\n"                                // 32 a variable
      "namespace {\n"                                          // 33 anonymous
      "int Hidden() { return 1; }\n"                           // 34
      "}  // namespace\n"                                      // 35
      "}  // namespace shop\n"                                 // 36
      "static int\n"                                           // 37 GNU style
      "gnu_style (int x)\n"                                    // 38
      "{\n"                                                    // 39
      "  return x;\n"                                          // 40
      "}\n"                                                    // 41
      "class Widget\n"                                         // 42 body on the next line
      "    : public Base {\n"                                  // 43
      " public:\n"                                             // 44
      "  explicit Widget(int size) : size_(size) {}\n"         // 45
      "  char c = '{';\n"                                      // 46 a brace in a literal
      "  virtual ~Widget();\n"                                 // 47
      "};\n"                                                   // 48
      "int main(int argc, char** argv) { return 0; }\n";       // 49
  EXPECT_EQ(
      Entries(cc, OutlineKind::kC),
      (V{"2: #define MAX_ITEMS 10", "3: namespace shop {", "5: struct Item {",
         "7:   int Price() const;", "9: enum class Kind : int { kA, kB };",
         "10: static int Helper(int x) {", "22: std::vector<int> Cart::Totals(const Item& a,",
         "26: bool operator==(const Item& a, const Item& b);",
         "27: template <typename T> T Max(T a, T b) { return a; }", "28: TEST(Cart, AddsItems) {",
         "34: int Hidden() { return 1; }", "38: gnu_style (int x)", "42: class Widget",
         "45:   explicit Widget(int size) : size_(size) {}", "47:   virtual ~Widget();",
         "49: int main(int argc, char** argv) { return 0; }"}));
}

TEST(Outline, Python) {
  const std::string py =
      "import os\n"                           // 1
      "\n"                                    // 2
      "class Cart(Base):\n"                   // 3
      "    \"\"\"A cart.\n"                   // 4
      "    def not_a_method(self):\n"         // 5 inside the docstring
      "    \"\"\"\n"                          // 6
      "    def total(self):\n"                // 7
      "        return sum(\n"                 // 8
      "            x for x in self.items)\n"  // 9
      "\n"                                    // 10
      "    async def fetch(self):\n"          // 11
      "        pass\n"                        // 12
      "text = '''\n"                          // 13
      "class NotAClass:\n"                    // 14
      "'''\n"                                 // 15
      "def main():  # the entry point\n"      // 16
      "    print('def x():')\n";              // 17
  EXPECT_EQ(Entries(py, OutlineKind::kPython),
            (V{"3: class Cart(Base):", "7:     def total(self):", "11:     async def fetch(self):",
               "16: def main():  # the entry point"}));
}

TEST(Outline, JavaScriptAndTypeScript) {
  const std::string ts =
      "import { x } from './x';\n"                   // 1
      "export function load(path: string) {\n"       // 2
      "  const inner = () => 1;\n"                   // 3 in a body
      "}\n"                                          // 4
      "export default async function () {}\n"        // 5
      "export const handler = async (event) => {\n"  // 6
      "  return event;\n"                            // 7
      "};\n"                                         // 8
      "const limit = 10;\n"                          // 9 a constant, no function
      "const double = x => x * 2;\n"                 // 10
      "export interface Options {\n"                 // 11
      "  load(path: string): void;\n"                // 12 a member of an interface
      "}\n"                                          // 13
      "export type Id = string;\n"                   // 14
      "enum Color { Red, Green }\n"                  // 15
      "const template = `\n"                         // 16 a template over lines
      "function notAFunction() {}\n"                 // 17
      "`;\n"                                         // 18
      "export class Cart extends Base {\n"           // 19
      "  private items: Item[] = [];\n"              // 20 a field
      "  constructor(items) {\n"                     // 21
      "    super();\n"                               // 22
      "    if (items) { this.add(items); }\n"        // 23
      "  }\n"                                        // 24
      "  static async create() {}\n"                 // 25
      "  get(key) { return key; }\n"                 // 26 a method named get
      "  get size() { return 0; }\n"                 // 27 a getter
      "  onClick = (e) => {};\n"                     // 28
      "  #secret() {}\n"                             // 29
      "}\n"                                          // 30
      "module.exports = function legacy() {};\n"     // 31
      "describe('cart', () => {\n"                   // 32 a call
      "  it('adds', () => {});\n"                    // 33
      "});\n"                                        // 34
      "namespace Shop {\n"                           // 35
      "  export function inShop() {}\n"              // 36
      "}\n";                                         // 37
  EXPECT_EQ(Entries(ts, OutlineKind::kJavaScript),
            (V{"2: export function load(path: string) {", "5: export default async function () {}",
               "6: export const handler = async (event) => {", "10: const double = x => x * 2;",
               "11: export interface Options {", "14: export type Id = string;",
               "15: enum Color { Red, Green }", "19: export class Cart extends Base {",
               "21:   constructor(items) {", "25:   static async create() {}",
               "26:   get(key) { return key; }", "27:   get size() { return 0; }",
               "28:   onClick = (e) => {};", "29:   #secret() {}",
               "31: module.exports = function legacy() {};", "35: namespace Shop {",
               "36:   export function inShop() {}"}));
}

TEST(Outline, Go) {
  const std::string go =
      "package shop\n"                    // 1
      "\n"                                // 2
      "type Cart struct {\n"              // 3
      "\tItems []Item\n"                  // 4
      "}\n"                               // 5
      "type (\n"                          // 6
      "\tID string\n"                     // 7
      "\t// a comment\n"                  // 8
      "\tPrice int64\n"                   // 9
      ")\n"                               // 10
      "func (c *Cart) Total() int64 {\n"  // 11
      "\tfunc() {}()\n"                   // 12
      "\treturn 0\n"                      // 13
      "}\n"                               // 14
      "var usage = `\n"                   // 15 a raw string over lines
      "func NotAFunction() {}\n"          // 16
      "`\n"                               // 17
      "/*\n"                              // 18
      "func Commented() {}\n"             // 19
      "*/\n"                              // 20
      "func main() {\n"                   // 21
      "}\n";                              // 22
  EXPECT_EQ(Entries(go, OutlineKind::kGo),
            (V{"3: type Cart struct {", "7: \tID string", "9: \tPrice int64",
               "11: func (c *Cart) Total() int64 {", "21: func main() {"}));
}

TEST(Outline, Rust) {
  const std::string rs =
      "use std::fmt;\n"                             // 1
      "#[derive(Debug)]\n"                          // 2
      "pub struct Cart<'a> {\n"                     // 3
      "    items: Vec<&'a str>,\n"                  // 4
      "}\n"                                         // 5
      "impl<'a> Cart<'a> {\n"                       // 6
      "    pub fn new() -> Self {\n"                // 7
      "        let c = '{';\n"                      // 8 a brace in a char
      "        fn nested() {}\n"                    // 9 in a body
      "        Cart { items: vec![] }\n"            // 10
      "    }\n"                                     // 11
      "    pub(crate) async fn load(&self) {}\n"    // 12
      "    const LIMIT: usize = 3;\n"               // 13
      "}\n"                                         // 14
      "pub trait Priced {\n"                        // 15
      "    fn price(&self) -> u32;\n"               // 16
      "}\n"                                         // 17
      "enum Kind { A, B }\n"                        // 18
      "static TEXT: &str = r#\"\n"                  // 19 a raw string over lines
      "fn not_a_function() {}\n"                    // 20
      "\"#;\n"                                      // 21
      "mod tests {\n"                               // 22
      "    #[test]\n"                               // 23
      "    fn adds() {}\n"                          // 24
      "}\n"                                         // 25
      "macro_rules! square {\n"                     // 26
      "    ($x:expr) => { $x * $x };\n"             // 27
      "}\n"                                         // 28
      "pub unsafe extern \"C\" fn exported() {}\n"  // 29
      "type Id = u64;\n";                           // 30
  EXPECT_EQ(
      Entries(rs, OutlineKind::kRust),
      (V{"3: pub struct Cart<'a> {", "6: impl<'a> Cart<'a> {", "7:     pub fn new() -> Self {",
         "12:     pub(crate) async fn load(&self) {}", "13:     const LIMIT: usize = 3;",
         "15: pub trait Priced {", "16:     fn price(&self) -> u32;", "18: enum Kind { A, B }",
         "22: mod tests {", "24:     fn adds() {}", "26: macro_rules! square {",
         "29: pub unsafe extern \"C\" fn exported() {}", "30: type Id = u64;"}));
}

TEST(Outline, Java) {
  const std::string java =
      "package shop;\n"                                            // 1
      "import java.util.List;\n"                                   // 2
      "@Entity\n"                                                  // 3
      "public final class Cart extends Base {\n"                   // 4
      "  private final List<Item> items = new ArrayList<>();\n"    // 5 a field
      "  Cart() {\n"                                               // 6 a constructor
      "    this(List.of());\n"                                     // 7
      "  }\n"                                                      // 8
      "  @Override\n"                                              // 9
      "  public int total() {\n"                                   // 10
      "    Runnable r = new Runnable() {\n"                        // 11
      "      public void run() {}\n"                               // 12 in a body
      "    };\n"                                                   // 13
      "    return compute(items);\n"                               // 14
      "  }\n"                                                      // 15
      "  public static <T> List<T> copy(List<? extends T> a) {\n"  // 16
      "    return a;\n"                                            // 17
      "  }\n"                                                      // 18
      "  abstract void pay(int amount);\n"                         // 19
      "  enum State { OPEN, PAID }\n"                              // 20
      "  record Line(String sku, int qty) {}\n"                    // 21
      "}\n"                                                        // 22
      "interface Priced {\n"                                       // 23
      "  int price();\n"                                           // 24
      "}\n"                                                        // 25
      "@interface Audited {}\n";                                   // 26
  EXPECT_EQ(
      Entries(java, OutlineKind::kJava),
      (V{"4: public final class Cart extends Base {", "6:   Cart() {", "10:   public int total() {",
         "16:   public static <T> List<T> copy(List<? extends T> a) {",
         "19:   abstract void pay(int amount);", "20:   enum State { OPEN, PAID }",
         "21:   record Line(String sku, int qty) {}", "23: interface Priced {",
         "24:   int price();", "26: @interface Audited {}"}));
}

TEST(Outline, Shell) {
  const std::string sh =
      "#!/bin/sh\n"                // 1
      "set -e\n"                   // 2
      "usage() {\n"                // 3
      "  cat <<EOF\n"              // 4
      "fake() {\n"                 // 5 inside a here-document
      "EOF\n"                      // 6
      "}\n"                        // 7
      "function deploy {\n"        // 8
      "  echo \"x << y\"\n"        // 9 not a here-document
      "}\n"                        // 10
      "build_all () {\n"           // 11
      "  echo $(( 1 << 2 ))\n"     // 12 a shift, not a here-document
      "}\n"                        // 13
      "# commented() {\n"          // 14
      "arr=(a b)\n"                // 15
      "  indented_fn() { :; }\n";  // 16
  EXPECT_EQ(Entries(sh, OutlineKind::kShell),
            (V{"3: usage() {", "8: function deploy {", "11: build_all () {",
               "16:   indented_fn() { :; }"}));
}

TEST(Outline, YamlTopLevelKeys) {
  const std::string yml =
      "# CI\n"                     // 1
      "name: CI\n"                 // 2
      "on:\n"                      // 3
      "  push:\n"                  // 4 not top level
      "    branches: [main]\n"     // 5
      "jobs:\n"                    // 6
      "  build:\n"                 // 7
      "    run: |\n"               // 8
      "      key: not a key\n"     // 9
      "\"quoted key\": 1\n"        // 10
      "url: http://example.com\n"  // 11
      "---\n"                      // 12 a second document
      "- item\n"                   // 13
      "second: doc\n"              // 14
      "plain text line\n";         // 15
  EXPECT_EQ(Entries(yml, OutlineKind::kYaml),
            (V{"2: name: CI", "3: on:", "6: jobs:", "10: \"quoted key\": 1",
               "11: url: http://example.com", "14: second: doc"}));
}

TEST(Outline, AStoppedCallReturnsWhatItFound) {
  std::string many;
  for (int i = 0; i < 10000; ++i) many += "# H" + std::to_string(i) + "\n";
  auto cancelled = std::make_shared<std::atomic<bool>>(true);
  StopToken stopped(cancelled, std::chrono::hours(1));
  const auto some = Outline(many, OutlineKind::kMarkdown, stopped);
  EXPECT_LT(some.size(), 10000u);
  EXPECT_EQ(Outline(many, OutlineKind::kMarkdown, StopToken()).size(), 10000u);
}

}  // namespace
}  // namespace outline_test
}  // namespace rr
