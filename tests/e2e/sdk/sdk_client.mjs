// End-to-end test with a real MCP client: the official TypeScript SDK's Client and
// StdioClientTransport start the repo-reader binary in a git repository and use it as an agent's
// host would. Exits 0 when every check passes; otherwise prints each mismatch and exits 1.
//
//   node sdk_client.mjs PATH-TO-repo-reader [REPOSITORY-FOLDER]
//
// Without REPOSITORY-FOLDER it builds its own small repository with git in a temporary folder
// (removed afterwards), so the expectations below hold exactly.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const failures = [];
function check(ok, what) {
  if (!ok) failures.push(what);
  return ok;
}

function usage(message) {
  console.error(`sdk_client: ${message}\nusage: node sdk_client.mjs PATH-TO-repo-reader [REPOSITORY-FOLDER]`);
  process.exit(2);
}

// A small repository: README.md, src/app.py, docs/guide.md on main, tagged v1.0.
function buildRepository(parent) {
  const dir = join(parent, 'sdk-shop');
  const home = join(parent, 'home');
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'docs'), { recursive: true });
  mkdirSync(home, { recursive: true });
  const env = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: 'C.UTF-8',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Grace Hopper',
    GIT_AUTHOR_EMAIL: 'grace@example.com',
    GIT_COMMITTER_NAME: 'Grace Hopper',
    GIT_COMMITTER_EMAIL: 'grace@example.com',
    GIT_AUTHOR_DATE: '2026-01-01T12:00:00Z',
    GIT_COMMITTER_DATE: '2026-01-01T12:00:00Z',
  };
  const git = (...args) =>
    execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  git('init', '-q', '-b', 'main', '.');
  writeFileSync(join(dir, 'README.md'), '# SDK shop\n\nA repository for the SDK test.\n');
  writeFileSync(join(dir, 'src', 'app.py'), "print('hello from the sdk')\nprint('second line')\n");
  writeFileSync(join(dir, 'docs', 'guide.md'), '# Guide\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'Add the SDK shop');
  git('tag', 'v1.0');
  return { dir, commit: git('rev-parse', 'HEAD') };
}

function textOf(result) {
  const first = result?.content?.[0];
  return first?.type === 'text' ? first.text : '';
}

async function main() {
  const binary = process.argv[2];
  if (!binary) usage('the path of the repo-reader binary is missing');
  let scratch = null;
  let repoDir, commit = null;
  if (process.argv[3]) {
    repoDir = resolve(process.argv[3]);
  } else {
    scratch = mkdtempSync(join(tmpdir(), 'rr-sdk-'));
    ({ dir: repoDir, commit } = buildRepository(scratch));
  }
  const repo = basename(repoDir);

  const transport = new StdioClientTransport({ command: resolve(binary), args: [], cwd: repoDir, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => { stderr += chunk.toString(); });
  const client = new Client({ name: 'repo-reader-sdk-e2e', version: '1.0.0' });
  try {
    await client.connect(transport);

    // initialize
    const info = client.getServerVersion();
    check(info?.name === 'repo-reader', `serverInfo.name: ${JSON.stringify(info)}`);
    check(typeof info?.version === 'string' && info.version.length > 0, `serverInfo.version: ${JSON.stringify(info)}`);
    check(client.getServerCapabilities()?.tools !== undefined, 'capabilities.tools is missing');
    check((client.getInstructions() ?? '').includes('list_repos'), `instructions: ${client.getInstructions()}`);
    await client.ping();

    // tools/list (the SDK checks the shape against the protocol's schema)
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['list_repos', 'list_files', 'read_file', 'list_refs']) {
      check(names.includes(name), `tools/list lacks ${name}: ${names.join(', ')}`);
    }
    for (const t of tools) {
      check(t.inputSchema?.type === 'object', `${t.name}: inputSchema.type`);
      check(t.annotations?.readOnlyHint === true, `${t.name}: readOnlyHint`);
      check(t.annotations?.destructiveHint === false, `${t.name}: destructiveHint`);
      check(t.annotations?.idempotentHint === true, `${t.name}: idempotentHint`);
      check(t.annotations?.openWorldHint === false, `${t.name}: openWorldHint`);
    }

    // list_repos
    const repos = await client.callTool({ name: 'list_repos', arguments: {} });
    check(repos.isError === false, `list_repos failed: ${textOf(repos)}`);
    check(textOf(repos).includes(`## ${repo}`), `list_repos does not name ${repo}:\n${textOf(repos)}`);
    if (commit) {
      check(textOf(repos).includes(commit.slice(0, 12)), `list_repos lacks the commit ${commit}:\n${textOf(repos)}`);
    }

    // list_files
    const all = await client.callTool({ name: 'list_files', arguments: { repo, recursive: true } });
    check(all.isError === false, `list_files failed: ${textOf(all)}`);
    if (commit) {
      for (const path of ['README.md', 'src/app.py', 'docs/guide.md']) {
        check(textOf(all).split('\n').includes(path), `list_files (recursive) lacks ${path}:\n${textOf(all)}`);
      }
      check(textOf(all).includes('3 files'), `list_files (recursive) should count 3 files:\n${textOf(all)}`);
    }
    const top = await client.callTool({ name: 'list_files', arguments: { repo } });
    check(top.isError === false, `list_files failed: ${textOf(top)}`);
    if (commit) {
      const lines = textOf(top).split('\n');
      check(lines.includes('src/') && lines.includes('docs/') && lines.includes('README.md'),
        `list_files (root) should show src/, docs/ and README.md:\n${textOf(top)}`);
    }

    // read_file
    if (commit) {
      const file = await client.callTool({ name: 'read_file', arguments: { repo, path: 'src/app.py' } });
      const text = textOf(file);
      check(file.isError === false, `read_file failed: ${text}`);
      check(text.startsWith(`${repo} · main @ ${commit.slice(0, 12)}`), `read_file header:\n${text}`);
      check(text.includes("print('hello from the sdk')") && text.includes("print('second line')"),
        `read_file lacks the file's lines:\n${text}`);
      const tagged = await client.callTool({ name: 'read_file', arguments: { repo, path: 'README.md', ref: 'v1.0' } });
      check(tagged.isError === false && textOf(tagged).includes('# SDK shop'), `read_file at v1.0:\n${textOf(tagged)}`);
    }
    const missing = await client.callTool({ name: 'read_file', arguments: { repo, path: 'no/such/file.txt' } });
    check(missing.isError === true, `read_file of a missing file should be a tool error:\n${textOf(missing)}`);
    const unknownRepo = await client.callTool({ name: 'read_file', arguments: { repo: 'no-such-repo', path: 'README.md' } });
    check(unknownRepo.isError === true, `read_file in an unknown repository should be a tool error:\n${textOf(unknownRepo)}`);
    const badArg = await client.callTool({ name: 'read_file', arguments: { repo, path: 'README.md', colour: 'blue' } });
    check(badArg.isError === true, `an unknown argument should be a tool error:\n${textOf(badArg)}`);

    // an unknown tool: a protocol error
    try {
      const r = await client.callTool({ name: 'write_file', arguments: {} });
      check(false, `an unknown tool was answered: ${JSON.stringify(r)}`);
    } catch (e) {
      check(e?.code === -32602, `an unknown tool: expected error -32602, got ${e?.code}: ${e?.message}`);
    }
    await client.ping();
  } finally {
    await client.close().catch(() => {});
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
  check(stderr.includes('repo-reader') && stderr.includes('serving'), `the start-up log line is not on stderr: ${stderr}`);
}

const watchdog = setTimeout(() => {
  console.error('sdk_client: FAILED: no result within 60 s');
  process.exit(1);
}, 60000);

main().then(
  () => {
    clearTimeout(watchdog);
    if (failures.length) {
      console.error(`sdk_client: FAILED, ${failures.length} mismatch(es):`);
      for (const f of failures) console.error(`- ${f}`);
      process.exit(1);
    }
    console.log('sdk_client: OK');
    process.exit(0);
  },
  (e) => {
    clearTimeout(watchdog);
    console.error(`sdk_client: FAILED: ${e?.stack ?? e}`);
    for (const f of failures) console.error(`- ${f}`);
    process.exit(1);
  });
