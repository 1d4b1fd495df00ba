// End-to-end test with the official TypeScript SDK v2 client (@modelcontextprotocol/client),
// pinned to protocol revision 2026-07-28: no initialize handshake, server/discover first, every
// request with its _meta. Over stdio it starts the repo-reader binary in a repository; over HTTP
// it talks to a running server. Exits 0 when every check passes; otherwise prints each mismatch
// and exits 1.
//
//   node sdk_client_v2.mjs stdio PATH-TO-repo-reader REPOSITORY-FOLDER
//   node sdk_client_v2.mjs http URL REPOSITORY-NAME [CALLS]
//
// Over HTTP the bearer token, when one is needed, comes from RR_TEST_TOKEN.
import { basename, resolve } from 'node:path';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const failures = [];
function check(ok, what) {
  if (!ok) failures.push(what);
  return ok;
}

function textOf(result) {
  const first = result?.content?.[0];
  return first?.type === 'text' ? first.text : '';
}

async function main() {
  const [mode, target, third, fourth] = process.argv.slice(2);
  if (!mode || !target || !third) {
    console.error('usage: node sdk_client_v2.mjs stdio BINARY REPOSITORY-FOLDER | http URL REPOSITORY-NAME [CALLS]');
    process.exit(2);
  }
  let transport, repo;
  if (mode === 'stdio') {
    repo = basename(resolve(third));
    transport = new StdioClientTransport({ command: resolve(target), args: [], cwd: resolve(third), stderr: 'ignore' });
  } else {
    repo = third;
    const headers = process.env.RR_TEST_TOKEN ? { Authorization: `Bearer ${process.env.RR_TEST_TOKEN}` } : {};
    transport = new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers } });
  }
  const calls = Number(fourth ?? '3');
  const client = new Client(
    { name: 'repo-reader-sdk-v2-e2e', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  check(client.getNegotiatedProtocolVersion() === '2026-07-28',
    `negotiated ${client.getNegotiatedProtocolVersion()}, expected 2026-07-28`);
  check(client.getServerVersion()?.name === 'repo-reader', `server name ${client.getServerVersion()?.name}`);
  check(client.getServerCapabilities()?.tools !== undefined, 'no tools capability');

  const listed = await client.listTools();
  const names = listed.tools.map((t) => t.name);
  for (const name of ['list_repos', 'list_files', 'read_file', 'search']) {
    check(names.includes(name), `tools/list lacks ${name}: ${names.join(', ')}`);
  }

  for (let i = 0; i < calls; ++i) {
    const read = await client.callTool({ name: 'read_file', arguments: { repo, path: 'README.md' } });
    check(read.isError !== true, `read_file failed: ${textOf(read).slice(0, 200)}`);
    check(textOf(read).includes('README.md'), `read_file answer: ${textOf(read).slice(0, 200)}`);
    const list = await client.callTool({ name: 'list_files', arguments: { repo } });
    check(list.isError !== true && textOf(list).includes('README.md'), `list_files answer: ${textOf(list).slice(0, 200)}`);
  }

  const missing = await client.callTool({ name: 'read_file', arguments: { repo, path: 'no/such/file' } });
  check(missing.isError === true, 'reading a missing file was not an error');

  await client.close();
  if (failures.length) {
    for (const f of failures) console.log(`sdk_client_v2: FAIL ${f}`);
    process.exit(1);
  }
  console.log(`sdk_client_v2: OK (${mode})`);
}

main().catch((e) => {
  console.log(`sdk_client_v2: FAIL ${e?.stack ?? e}`);
  process.exit(1);
});
