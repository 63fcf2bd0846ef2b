// The second baseline of `npm run bench`: the same request answered by Node's own http server, with
// no framework, no middleware and no body parser beyond reading the form. Next to each adapter's
// baseline it shows what the framework itself costs (started as a child like the service:
// service-process.ts; PORT and HOST from the environment).
import { createServer } from 'node:http';

const ANSWER = JSON.stringify({ status: true });

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health/ready') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  if (req.method !== 'POST' || req.url !== '/bench/baseline') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    // Parsed as the framework's body parser would, so the comparison is like for like.
    new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    res
      .writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(ANSWER) })
      .end(ANSWER);
  });
});

server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
