// Test kit: Node.js and the npm packages the end-to-end tests run on (the official MCP SDK
// clients and conformance suite, installed by `npm ci --prefix tests/e2e/sdk`, with Node.js 22
// as the npm package node@22).
#pragma once

#include <string>

namespace rr::testing {

// `node`: the one installed in `sdk_dir`'s node_modules, else the first on this process's PATH,
// else "".
std::string FindNode(const std::string& sdk_dir);

// Why a test that needs Node.js and `package` (a folder under `sdk_dir`/node_modules, such as
// "@modelcontextprotocol/conformance") cannot run here, or "" when it can.
std::string WhyNoNode(const std::string& sdk_dir, const std::string& package);

}  // namespace rr::testing
