// Toxiproxy between the services and the servers, for the fault benchmark only (LOCAL_TOXIPROXY=1):
// each server gets a proxy on its own port, and the services are pointed at the proxies, so a
// fault is injected where networks fail (refused connections, a peer that stops answering,
// latency) instead of by signalling a server process.

/** Which server each proxy stands in front of; the names are also the benchmark's fault targets. */
export const PROXIED = ['mongo', 'redis', 'kafka', 's3', 'smtp'];

/**
 * Ports of the proxies and of toxiproxy's API, next to the servers' own (TEST_PORT_OFFSET applies
 * to them as to every test port, and they stay below 32768 at any offset the README allows).
 */
export function toxiproxyPorts(profile) {
  const t = (port) => port + (profile === 'test' ? Number(process.env.TEST_PORT_OFFSET ?? 0) : 0);
  return {
    api: Number(process.env.LOCAL_TOXIPROXY_PORT ?? (profile === 'test' ? t(28474) : 8474)),
    mongo: profile === 'test' ? t(27118) : 27018,
    redis: profile === 'test' ? t(26480) : 6380,
    kafka: profile === 'test' ? t(29194) : 9094,
    s3: profile === 'test' ? t(29101) : 9001,
    smtp: profile === 'test' ? t(21026) : 1026,
  };
}

/** A small client of toxiproxy's HTTP API (https://github.com/Shopify/toxiproxy#http-api). */
export class Toxiproxy {
  constructor(apiPort) {
    this.base = `http://127.0.0.1:${apiPort}`;
  }

  async call(method, path, body) {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok && !(method === 'DELETE' && res.status === 404)) {
      throw new Error(`toxiproxy ${method} ${path}: ${res.status} ${await res.text()}`);
    }
    return res.status === 204 ? null : res.json().catch(() => null);
  }

  createProxy(name, listenPort, upstreamPort) {
    return this.call('POST', '/proxies', {
      name,
      listen: `127.0.0.1:${listenPort}`,
      upstream: `127.0.0.1:${upstreamPort}`,
      enabled: true,
    });
  }

  /** Unreachable: toxiproxy closes the proxy's connections and refuses new ones. */
  disable(name) {
    return this.call('POST', `/proxies/${name}`, { enabled: false });
  }

  enable(name) {
    return this.call('POST', `/proxies/${name}`, { enabled: true });
  }

  /**
   * Hung: connections open and stay open, but no byte goes through in either direction
   * (a `timeout` toxic with timeout 0 holds the data until the toxic is removed).
   */
  hang(name) {
    return Promise.all([
      this.addToxic(name, { name: 'hang-down', type: 'timeout', stream: 'downstream', attributes: { timeout: 0 } }),
      this.addToxic(name, { name: 'hang-up', type: 'timeout', stream: 'upstream', attributes: { timeout: 0 } }),
    ]);
  }

  /** Every answer delayed by `ms`. */
  slow(name, ms) {
    return this.addToxic(name, {
      name: 'slow',
      type: 'latency',
      stream: 'downstream',
      attributes: { latency: ms, jitter: 0 },
    });
  }

  addToxic(proxy, toxic) {
    return this.call('POST', `/proxies/${proxy}/toxics`, { toxicity: 1, ...toxic });
  }

  /** Back to normal: every proxy enabled, every toxic removed. */
  reset() {
    return this.call('POST', '/reset');
  }
}
