// Many tool calls over Streamable HTTP with one of the official TypeScript SDK's clients: v1
// (@modelcontextprotocol/sdk, the 2025-11-25 revision: initialize first) or v2
// (@modelcontextprotocol/client pinned to 2026-07-28: no handshake). Each call reads README.md
// of REPOSITORY or lists its root, alternately, and checks the answer. Exits 0 when every call
// was answered as expected; otherwise prints each mismatch and exits 1.
//
//   node many_calls.mjs v1|v2 URL REPOSITORY CALLS
//
// The bearer token, when one is needed, comes from RR_TEST_TOKEN.
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';

const [generation, url, repo, count] = process.argv.slice(2);
if (!['v1', 'v2'].includes(generation) || !url || !repo || !count) {
  console.error('usage: node many_calls.mjs v1|v2 URL REPOSITORY CALLS');
  process.exit(2);
}
const name = `many_calls ${generation}`;
const failures = [];
const textOf = (result) => (result?.content?.[0]?.type === 'text' ? result.content[0].text : '');

async function main() {
  const requestInit = process.env.RR_TEST_TOKEN
    ? { headers: { Authorization: `Bearer ${process.env.RR_TEST_TOKEN}` } }
    : {};
  let client, transport;
  if (generation === 'v1') {
    transport = new TransportV1(new URL(url), { requestInit });
    client = new ClientV1({ name: 'repo-reader-many-calls-v1', version: '1.0.0' });
  } else {
    transport = new TransportV2(new URL(url), { requestInit });
    client = new ClientV2({ name: 'repo-reader-many-calls-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  }
  await client.connect(transport);
  const version = generation === 'v1' ? transport.protocolVersion : client.getNegotiatedProtocolVersion();
  const expected = generation === 'v1' ? '2025-11-25' : '2026-07-28';
  if (version !== expected) failures.push(`protocol version ${version}, expected ${expected}`);
  for (let i = 0; i < Number(count); ++i) {
    const read = i % 2 === 0;
    const result = read
      ? await client.callTool({ name: 'read_file', arguments: { repo, path: 'README.md' } })
      : await client.callTool({ name: 'list_files', arguments: { repo } });
    const text = textOf(result);
    if (result.isError || !text.startsWith(`${repo} · `) || !text.includes('README.md')) {
      failures.push(`call ${i} (${read ? 'read_file' : 'list_files'}): ${text.slice(0, 200)}`);
      if (failures.length > 20) break;
    }
  }
  await client.close();
}

const watchdog = setTimeout(() => {
  console.log(`${name}: FAIL no result within 60 s`);
  process.exit(1);
}, 60000);
main().then(
  () => {
    clearTimeout(watchdog);
    if (failures.length) {
      for (const f of failures) console.log(`${name}: FAIL ${f}`);
      process.exit(1);
    }
    console.log(`${name}: OK (${count} calls)`);
  },
  (e) => {
    clearTimeout(watchdog);
    console.log(`${name}: FAIL ${e?.stack ?? e}`);
    process.exit(1);
  });
