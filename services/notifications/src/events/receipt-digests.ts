import { randomUUID } from 'node:crypto';
import { type Logger, SweepLoop } from '@homereport/kit';
import { type DigestDeps, type DigestPass, HOUR_MS, sendDueDigests } from '../domain/receipt-digest.js';

export interface ReceiptDigestOptions {
  /** How often due digests are looked for: a digest goes out at most this long after its hour's grace. */
  sweepIntervalMs?: number;
  /** The clock (tests move it past an hour). */
  now?: () => Date;
}

/**
 * Sends the hourly receipt digests when they fall due, on every replica: each digest is taken by
 * one of them (ReceiptWindows.takeDue), so running two sends each once. Windows older than two
 * hours with nothing left to send are pruned now and then.
 */
export class ReceiptDigestSender {
  private readonly owner = randomUUID();
  private readonly loop: SweepLoop;
  private readonly now: () => Date;
  private prunedAt = 0;

  constructor(
    private readonly deps: DigestDeps,
    private readonly logger: Logger,
    options: ReceiptDigestOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.loop = new SweepLoop(
      async () => {
        const pass = await this.sendDue();
        return { due: pass.due, failed: pass.failed, published: pass.sent };
      },
      logger,
      {
        sweepFailed: 'receipt digest sweep failed; will retry',
        failing: 'receipt digests cannot be sent; retrying',
        recovered: 'receipt digests are sent again',
      },
      { sweepIntervalMs: options.sweepIntervalMs ?? 15_000 },
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass: the digests due now, then (every ten minutes) the pruning of old windows. */
  async sendDue(): Promise<DigestPass> {
    const pass = await sendDueDigests(this.deps, this.owner, this.now);
    if (pass.sent > 0) this.logger.info({ kind: 'request-receipt-digest', digests: pass.sent }, 'email sent');
    const now = this.now().getTime();
    if (now - this.prunedAt >= 10 * 60 * 1000) {
      this.prunedAt = now;
      const pruned = await this.deps.windows.prune(new Date(now - 2 * HOUR_MS));
      if (pruned > 0) this.logger.debug({ pruned }, 'old receipt windows pruned');
    }
    return pass;
  }
}
