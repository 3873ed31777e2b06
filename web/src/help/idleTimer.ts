/**
 * Decides when the floating help button shows. Kept free of React and of the real clock so
 * tests can drive it with fake timers.
 *
 * Behaviour (spec sections 2, 4 and 9):
 * - the button becomes visible once 10 minutes have passed since the last activity, as seen
 *   by a check that runs every 30 seconds;
 * - activity (mouse, keyboard, scroll, touch, click) records a new last-activity time in
 *   local storage, shared by every tab, so the countdown starts again;
 * - once visible the button stays until dismissed: the person coming back after a pause is
 *   exactly who it is for, and their first mouse move must not hide it from them;
 * - dismissing hides it for the rest of the browser session (session storage).
 */

export const IDLE_THRESHOLD_MS = 600_000;
export const CHECK_INTERVAL_MS = 30_000;
export const LAST_ACTIVITY_KEY = 'lastActivity';
export const DISMISSED_KEY = 'helpButtonDismissed';
export const ACTIVITY_EVENTS = ['mousedown', 'mousemove', 'keypress', 'scroll', 'touchstart', 'click'] as const;

/** Writes to storage at most this often; mousemove fires many times a second. */
const ACTIVITY_WRITE_INTERVAL_MS = 1_000;

export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

export type IdleTimerOptions = {
  /** Where the last-activity time lives (local storage in the browser). */
  activityStore?: KeyValueStore;
  /** Where the dismissed flag lives (session storage in the browser). */
  dismissStore?: KeyValueStore;
  now?: () => number;
  setInterval?: (callback: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
  onVisibilityChange?: (visible: boolean) => void;
};

export type IdleTimer = {
  start(): void;
  stop(): void;
  recordActivity(): void;
  dismiss(): void;
  isVisible(): boolean;
  isDismissed(): boolean;
};

export function isIdle(lastActivity: number, now: number): boolean {
  return now - lastActivity >= IDLE_THRESHOLD_MS;
}

function safeGet(store: KeyValueStore | undefined, key: string): string | null {
  try {
    return store?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function safeSet(store: KeyValueStore | undefined, key: string, value: string): void {
  try {
    store?.setItem(key, value);
  } catch {
    // Storage can be full or disabled; the timer still works within this page.
  }
}

export function createIdleTimer(options: IdleTimerOptions = {}): IdleTimer {
  const now = options.now ?? (() => Date.now());
  const schedule = options.setInterval ?? ((callback, ms) => globalThis.setInterval(callback, ms));
  const cancel =
    options.clearInterval ?? ((handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>));
  const { activityStore, dismissStore, onVisibilityChange } = options;

  let handle: unknown = null;
  let visible = false;
  let lastWrite = Number.NEGATIVE_INFINITY;
  let localLastActivity = now();

  function lastActivity(): number {
    const stored = Number(safeGet(activityStore, LAST_ACTIVITY_KEY));
    // Another tab may have seen more recent activity than this one.
    return Number.isFinite(stored) && stored > localLastActivity ? stored : localLastActivity;
  }

  function setVisible(next: boolean): void {
    if (visible === next) return;
    visible = next;
    onVisibilityChange?.(next);
  }

  function isDismissed(): boolean {
    return safeGet(dismissStore, DISMISSED_KEY) === 'true';
  }

  function check(): void {
    if (isDismissed()) {
      setVisible(false);
      return;
    }
    if (!visible && isIdle(lastActivity(), now())) setVisible(true);
  }

  return {
    start() {
      if (handle !== null) return;
      // A timestamp left by an earlier page load is real history; only a first visit starts the clock now.
      const stored = Number(safeGet(activityStore, LAST_ACTIVITY_KEY));
      if (safeGet(activityStore, LAST_ACTIVITY_KEY) !== null && Number.isFinite(stored)) {
        localLastActivity = stored;
      } else {
        localLastActivity = now();
        safeSet(activityStore, LAST_ACTIVITY_KEY, String(localLastActivity));
      }
      handle = schedule(check, CHECK_INTERVAL_MS);
    },
    stop() {
      if (handle === null) return;
      cancel(handle);
      handle = null;
    },
    recordActivity() {
      const at = now();
      localLastActivity = at;
      if (at - lastWrite >= ACTIVITY_WRITE_INTERVAL_MS) {
        lastWrite = at;
        safeSet(activityStore, LAST_ACTIVITY_KEY, String(at));
      }
    },
    dismiss() {
      safeSet(dismissStore, DISMISSED_KEY, 'true');
      setVisible(false);
    },
    isVisible: () => visible,
    isDismissed,
  };
}
