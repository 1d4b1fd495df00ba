  // Outlines: a file's map without its text. For Markdown, its headings; for code, the lines that
// define something (a function, a class, a type, a module); for YAML, its top-level keys. Each
// entry carries its line number, the start_line that reads it.
//
// The rules are light on purpose: a line is judged by itself and a little state carried from
// the lines before it (a fenced block, a comment, a multi-line string, which braces are open),
// never by parsing the language. They miss what they cannot see that way (a definition a macro
// writes, a function split before its name) and never invent a line that is not in the file.
// Per kind (docs/tools.md lists the same):
//   Markdown    ATX headings (`# Title`, up to 6 `#`) and setext headings (a paragraph
//               underlined with `===` or `---`); never inside fenced or indented code, HTML
//               blocks, block quotes or a front matter block (`---` … `---` at the top).
//   C/C++       `#define NAME`; namespace, class, struct, union and enum definitions (not a
//               forward declaration); function definitions and declarations outside any
//               function body (in a namespace, a class or at the top).
//   Python      `def`, `async def` and `class` lines, at any depth (outside strings).
//   JS/TS       function and class declarations; interface, type, enum, namespace and module
//               declarations; `const`/`let`/`var` bound to a function or class; a class's
//               methods and fields bound to an arrow function.
//   Go          top-level `func` (functions and methods) and `type` (also each type of a
//               `type ( … )` group).
//   Rust        fn, struct, enum, union, trait, impl, mod, type and macro_rules! items outside
//               any function body (in a module, an impl or a trait).
//   Java        class, interface, enum, record and @interface declarations; methods and
//               constructors in a type's body.
//   Shell       `name() {` and `function name` (outside here-documents).
//   YAML        keys at the start of a line (top level), in every document of the file.
// Thread-safe: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/stop.h"

    namespace rr {

  enum class OutlineKind {
    kNone,  // no rule for this file
    kMarkdown,
    kC,  // C and C++
    kPython,
    kJavaScript,  // JavaScript and TypeScript
    kGo,
    kRust,
    kJava,
    kShell,
    kYaml,
  };

  // The kind of a file by its name ("src/app.py"), or for a script without a known extension by
  // its first line (#!/bin/sh, #!/usr/bin/env python3).
  OutlineKind OutlineKindOf(std::string_view path, std::string_view first_line);

  // For answers: "Markdown", "C/C++", "Python", "JavaScript/TypeScript", "Go", "Rust", "Java",
  // "shell", "YAML"; "" for kNone.
  const char* OutlineKindName(OutlineKind kind);

  // Whether a file is Markdown by its name (.md, .markdown, .mdown, .mkd, .mkdn, .mdx