// End-to-end test of the MCP Skills extension with the official client: the TypeScript SDK v2's
// SkillsClient (@modelcontextprotocol/client/ext/skills) lists the skills of the repo-reader
// binary (started with a configuration, over stdio, or running over HTTP), reads every file of
// every skill — the client checks each file's size and SHA-256 digest against the listing, and
// SKILL.md's front matter against the entry, and throws on any difference — and gets each skill
// by its URI. Prints what it saw as one JSON object on stdout, for the test that runs it
// (tests/e2e/skills_client_test.cc) to check; exits 1 when the client refused anything.
//
//   node skills_client.mjs [--pin VERSION] PATH-TO-repo-reader CONFIG.yaml [URI-TO-PROBE ...]
//   node skills_client.mjs [--pin VERSION] --http URL [URI-TO-PROBE ...]
//
// Without --pin the client negotiates as the SDK does by default (initialize: the 2025
// revisions); with --pin 2026-07-28 it speaks that revision (server/discover, _meta on every
// request, no handshake). Over HTTP the bearer token, when one is needed, comes from
// RR_TEST_TOKEN. Each URI to probe is read with a plain resources/read; the report says whether
// it answered, and the error's code when it did not.
import { resolve } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';

async function main() {
  const args = process.argv.slice(2);
  let pin;
  if (args[0] === '--pin') {
    pin = args[1];
    args.splice(0, 2);
  }
  let transport, probes;
  if (args[0] === '--http') {
    const headers = process.env.RR_TEST_TOKEN ? { Authorization: `Bearer ${process.env.RR_TEST_TOKEN}` } : {};
    transport = new StreamableHTTPClientTransport(new URL(args[1]), { requestInit: { headers } });
    probes = args.slice(2);
  } else {
    const [binary, config, ...rest] = args;
    if (!binary || !config) {
      console.error('usage: node skills_client.mjs [--pin VERSION] BINARY CONFIG.yaml [URI ...] | [--pin VERSION] --http URL [URI ...]');
      process.exit(2);
    }
    transport = new StdioClientTransport({
      command: resolve(binary),
      args: ['--config', resolve(config)],
      stderr: 'pipe',
    });
    probes = rest;
  }
  const client = new Client(
    { name: 'repo-reader-skills-e2e', version: '1.0.0' },
    pin ? { versionNegotiation: { mode: { pin } } } : {},
  );
  await client.connect(transport);
  const report = { negotiated: client.getNegotiatedProtocolVersion(), supported: false, skills: [], probes: [] };
  try {
    const skills = new SkillsClient(client);
    report.supported = skills.supported;
    const listing = await skills.list();  // throws on any entry the extension refuses
    report.ttlMs = listing.ttlMs;
    report.cacheScope = listing.cacheScope;
    for (const skill of listing.skills) {
      const seen = { uri: skill.uri, frontmatter: skill.frontmatter, files: [] };
      for (const resource of skill.resources) {
        const file = await skills.read(skill, resource.uri);  // size, digest, front matter checked
        seen.files.push({ uri: resource.uri, size: resource.size, verified: file.verified, text: file.text });
      }
      const got = await skills.get(skill.uri);
      seen.get_matches = JSON.stringify(got.skill) === JSON.stringify(skill);
      report.skills.push(seen);
    }
    for (const uri of probes) {
      try {
        const r = await client.readResource({ uri });
        report.probes.push({ uri, answered: true, text: r.contents?.[0]?.text ?? null });
      } catch (e) {
        report.probes.push({ uri, answered: false, code: e?.code ?? null, error: String(e?.message ?? e) });
      }
    }
  } finally {
    await client.close().catch(() => {});
  }
  console.log(JSON.stringify(report));
}

const watchdog = setTimeout(() => {
  console.error('skills_client: FAILED: no result within 60 s');
  process.exit(1);
}, 60000);

main().then(
  () => {
    clearTimeout(watchdog);
    process.exit(0);
  },
  (e) => {
    clearTimeout(watchdog);
    console.error(`skills_client: FAILED: ${e?.stack ?? e}`);
    process.exit(1);
  });
