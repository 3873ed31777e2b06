import type { Logger, Redis } from '@homereport/kit';

/**
 * The Redis channels this gateway listens on, through one subscriber connection: what the
 * gateway keeps in memory (public answers, resolved sessions) is dropped when a service announces
 * a change. While the connection is down announcements can go unheard, so `live` is false and
 * whoever keeps something asks Redis instead; once subscribed again, `resubscribed` listeners run
 * first (they forget everything kept, as a change may have been missed).
 */
export interface Announcements {
  readonly live: boolean;
  on(channel: string, listener: (message: string) => void): void;
  onResubscribed(listener: () => void): void;
  close(): void;
}

export function listenToAnnouncements(redis: Redis, channels: string[], logger: Logger): Announcements {
  const listeners = new Map<string, ((message: string) => void)[]>(channels.map((c) => [c, []]));
  const resubscribed: (() => void)[] = [];
  let live = false;
  const subscriber = redis.duplicate();
  subscriber.on('message', (channel: string, message: string) => {
    for (const listener of listeners.get(channel) ?? []) listener(message);
  });
  subscriber.on('close', () => {
    live = false;
  });
  subscriber.on('ready', () => {
    subscriber
      .subscribe(...channels)
      .then(() => {
        for (const listener of resubscribed) listener();
        live = true;
      })
      .catch((err: unknown) => logger.warn({ err }, 'could not subscribe to announcements'));
  });
  // ioredis would otherwise print an unhandled 'error' event for every failed reconnect.
  subscriber.on('error', (err: Error) => logger.debug({ err }, 'announcement subscriber error'));
  subscriber.connect().catch(() => {});
  return {
    get live() {
      return live;
    },
    on(channel, listener) {
      const list = listeners.get(channel);
      if (!list) throw new Error(`not subscribed to ${channel}`);
      list.push(listener);
    },
    onResubscribed(listener) {
      resubscribed.push(listener);
    },
    close() {
      subscriber.disconnect();
    },
  };
}
