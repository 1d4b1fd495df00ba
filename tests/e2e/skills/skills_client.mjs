// End-to-end test of the MCP Skills extension with the official client: the TypeScript SDK v2's
// SkillsClient (@modelcontextprotocol/client/ext/skills) lists the skills of the repo-reader
// binary started with a configuration, reads every file of every skill — the client checks each
// file's size and SHA-256 digest against the listing, and SKILL.md's front matter against the
// entry, and throws on any difference — and gets each skill by its URI. Prints what it saw as
// one JSON object on stdout, for the test that runs it (tests/e2e/skills_client_test.cc) to
// check; exits 1 when the client refused anything.
//
//   node skills_client.mjs PATH-TO-repo-reader CONFIG.yaml [URI-TO-PROBE ...]
//
// Each URI to probe is read with a plain resources/read; the report says whether it answered.
import { resolve } from 'node:path';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';

async function main() {
  const [binary, config, ...probes] = process.argv.slice(2);
  if (!binary || !config) {
    console.error('usage: node skills_client.mjs PATH-TO-repo-reader CONFIG.yaml [URI ...]');
    process.exit(2);
  }
  const transport = new StdioClientTransport({
    command: resolve(binary),
    args: ['--config', resolve(config)],
    stderr: 'pipe',
  });
  const client = new Client({ name: 'repo-reader-skills-e2e', version: '1.0.0' });
  await client.connect(transport);
  const report = { supported: false, skills: [], probes: [] };
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
        report.probes.push({ uri, answered: false, error: String(e?.message ?? e) });
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
