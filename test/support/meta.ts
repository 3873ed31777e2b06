// Meta Lead Ads in the test stack: the leads service's settings (the global setup passes them to
// the stack), and a local stand-in for the Graph API's lead endpoint that a test starts on the
// port those settings name.
import { createHmac, randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { stackPorts } from '../../infra/local/stack.mjs';

export interface MetaTestEnv {
  appSecret: string;
  verifyToken: string;
  pageAccessToken: string;
  /** The webhook key Meta leads are stored under. */
  keyName: string;
  /** Where the stand-in must listen (127.0.0.1), and the Graph version path the service calls under. */
  graphPort: number;
  graphVersion: string;
}

/**
 * How long the leads service waits for one Graph read in tests: short, so the "slow Graph" case
 * ends soon, and still far above what a local answer takes on a loaded machine.
 */
export const TEST_GRAPH_TIMEOUT_MS = 3000;

/**
 * The stand-in's port: 50 above the leads service's own test port, moved with the run's offset
 * like every test port, and clear of the replicas stack (which uses the offset + 100).
 */
function graphPort(): number {
  const leads = stackPorts('test').services.leads;
  if (leads === undefined) throw new Error('the test stack has no leads service port');
  return leads + 50;
}

export function metaTestSettings(): { settings: Record<string, string>; env: MetaTestEnv } {
  const env: MetaTestEnv = {
    appSecret: randomBytes(16).toString('hex'),
    verifyToken: `verify-${randomBytes(8).toString('hex')}`,
    pageAccessToken: `page-${randomBytes(16).toString('hex')}`,
    keyName: 'Meta Lead Ads',
    graphPort: graphPort(),
    graphVersion: 'v21.0',
  };
  return {
    env,
    settings: {
      META_APP_SECRET: env.appSecret,
      META_VERIFY_TOKEN: env.verifyToken,
      META_PAGE_ACCESS_TOKEN: env.pageAccessToken,
      META_GRAPH_URL: `http://127.0.0.1:${env.graphPort}/${env.graphVersion}`,
      META_GRAPH_TIMEOUT_MS: String(TEST_GRAPH_TIMEOUT_MS),
      META_WEBHOOK_KEY_NAME: env.keyName,
    },
  };
}

/** `X-Hub-Signature-256` of these exact bytes, as Meta computes it. */
export const metaSignature = (body: string | Buffer, secret: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** How the stand-in answers GET /<version>/<leadgen_id>. */
export type GraphBehaviour =
  | { kind: 'lead'; fieldData: { name: string; values: string[] }[] }
  /** Graph's error shape, `{ error: { message, type, code } }`, with this status. */
  | { kind: 'error'; status: number; code: number; message: string; type?: string }
  /** Holds the request open without answering until the stand-in stops (beyond any deadline). */
  | { kind: 'hang' };

/** Graph's answer for a lead that was deleted (or never was). */
export const deletedLead = (leadgenId: string): GraphBehaviour => ({
  kind: 'error',
  status: 400,
  code: 100,
  type: 'GraphMethodException',
  message: `Unsupported get request. Object with ID '${leadgenId}' does not exist`,
});

export interface GraphCall {
  leadgenId: string;
  accessToken: string | null;
  version: string;
}

/**
 * The Graph API's lead endpoint, answering each leadgen_id as told (`answer`), and an unknown id
 * as Graph does for a deleted lead. It records every call (id, token, version) in `calls`.
 */
export class GraphStandIn {
  readonly calls: GraphCall[] = [];
  private readonly behaviours = new Map<string, GraphBehaviour>();
  private readonly hanging = new Set<ServerResponse>();
  private server: Server | null = null;

  answer(leadgenId: string, behaviour: GraphBehaviour): void {
    this.behaviours.set(leadgenId, behaviour);
  }

  callsFor(leadgenId: string): GraphCall[] {
    return this.calls.filter((c) => c.leadgenId === leadgenId);
  }

  async start(port: number): Promise<void> {
    const server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://graph.invalid');
    const [version = '', leadgenId = ''] = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    this.calls.push({ leadgenId, accessToken: url.searchParams.get('access_token'), version });
    const behaviour = this.behaviours.get(leadgenId) ?? deletedLead(leadgenId);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      res.end(JSON.stringify(body));
    };
    switch (behaviour.kind) {
      case 'lead':
        json(200, { created_time: '2026-11-25T12:00:00+0000', id: leadgenId, field_data: behaviour.fieldData });
        return;
      case 'error':
        json(behaviour.status, {
          error: {
            message: behaviour.message,
            type: behaviour.type ?? 'OAuthException',
            code: behaviour.code,
            fbtrace_id: 'AbCdEf123',
          },
        });
        return;
      case 'hang':
        this.hanging.add(res);
        res.on('close', () => this.hanging.delete(res));
        return;
    }
  }
}
