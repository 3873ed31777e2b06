// The gateway's peer in bench:gateway: a bare Node http-proxy, in its own process as the gateway
// is, forwarding to the same services with the headers the gateway sets (gateway/src/proxy.ts:
// internal secret, request id, forwarded-for/proto/host, and the signed-in caller's identity).
// It knows the caller's identity beforehand (PEER_IDENTITY), so it does none of the gateway's
// other work: no session lookup, rate limit, security headers, kept answers or access line.
// Settings (environment): PORT, PEER_ROUTES (JSON: path prefix to service URL), INTERNAL_SECRET,
// PEER_IDENTITY (JSON { userId, email, role }, sent with calls that carry a bearer token).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import httpProxy from 'http-proxy';

const routes = Object.entries(JSON.parse(process.env.PEER_ROUTES ?? '{}'));
const secret = process.env.INTERNAL_SECRET ?? '';
const identity = process.env.PEER_IDENTITY ? JSON.parse(process.env.PEER_IDENTITY) : null;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000 });
const proxy = httpProxy.createProxyServer({ agent, xfwd: false, proxyTimeout: 60_000 });

const server = http.createServer((req, res) => {
  const target = routes.find(([prefix]) => req.url.startsWith(prefix))?.[1];
  if (!target) {
    res.writeHead(404).end();
    return;
  }
  const h = req.headers;
  h['x-internal-secret'] = secret;
  h['x-request-id'] = randomUUID();
  h['x-forwarded-for'] = req.socket.remoteAddress;
  h['x-forwarded-proto'] = 'http';
  h['x-forwarded-host'] = h.host;
  if (identity && h.authorization) {
    h['x-user-id'] = identity.userId;
    h['x-user-email'] = identity.email;
    h['x-user-role'] = identity.role;
  }
  proxy.web(req, res, { target }, () => {
    if (!res.headersSent) res.writeHead(503);
    res.end();
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
