import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHECK_INTERVAL_MS,
  DISMISSED_KEY,
  IDLE_THRESHOLD_MS,
  type KeyValueStore,
  LAST_ACTIVITY_KEY,
  createIdleTimer,
} from './idleTimer';

function memoryStore(): KeyValueStore & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => {
      values.set(key, value);
    },
  };
}

const MINUTE = 60_000;

let activityStore: ReturnType<typeof memoryStore>;
let dismissStore: ReturnType<typeof memoryStore>;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2025-01-15T12:00:00Z'));
  activityStore = memoryStore();
  dismissStore = memoryStore();
});

afterEach(() => {
  vi.useRealTimers();
});

function startTimer(onVisibilityChange?: (visible: boolean) => void) {
  const timer = createIdleTimer({ activityStore, dismissStore, onVisibilityChange });
  timer.start();
  return timer;
}

describe('help button idle timer', () => {
  it('uses the specified threshold and check interval', () => {
    expect(IDLE_THRESHOLD_MS).toBe(600_000);
    expect(CHECK_INTERVAL_MS).toBe(30_000);
  });

  it('is not visible before 10 minutes without activity', () => {
    const timer = startTimer();

    vi.advanceTimersByTime(9 * MINUTE + 59_000);

    expect(timer.isVisible()).toBe(false);
  });

  it('becomes visible at the first check after 10 minutes without activity', () => {
    const onChange = vi.fn();
    const timer = startTimer(onChange);

    vi.advanceTimersByTime(10 * MINUTE);

    expect(timer.isVisible()).toBe(true);
    expect(onChange).toHaveBeenCalledWith(true);
  });

  it('only looks every 30 seconds, so it shows at the check that follows the threshold', () => {
    const timer = startTimer();
    vi.advanceTimersByTime(10_000);
    timer.recordActivity();
    // Idle threshold reached at 10:10 after start; checks run at 10:00 and 10:30.
    vi.advanceTimersByTime(10 * MINUTE - 10_000 + 15_000);
    expect(timer.isVisible()).toBe(false);

    vi.advanceTimersByTime(15_000);
    expect(timer.isVisible()).toBe(true);
  });

  it('records the start of the idle period in local storage under lastActivity', () => {
    startTimer();

    expect(activityStore.values.get(LAST_ACTIVITY_KEY)).toBe(String(Date.now()));
  });

  it('activity restarts the 10-minute countdown', () => {
    const timer = startTimer();

    vi.advanceTimersByTime(9 * MINUTE);
    timer.recordActivity();
    vi.advanceTimersByTime(5 * MINUTE);
    expect(timer.isVisible()).toBe(false);
    expect(activityStore.values.get(LAST_ACTIVITY_KEY)).toBe(String(Date.now() - 5 * MINUTE));

    vi.advanceTimersByTime(5 * MINUTE);
    expect(timer.isVisible()).toBe(true);
  });

  it('activity seen by another tab (shared local storage) also restarts the countdown', () => {
    const timer = startTimer();

    vi.advanceTimersByTime(8 * MINUTE);
    activityStore.setItem(LAST_ACTIVITY_KEY, String(Date.now()));
    vi.advanceTimersByTime(5 * MINUTE);

    expect(timer.isVisible()).toBe(false);
  });

  it('a stale last-activity time left by an earlier visit shows the button at the first check', () => {
    activityStore.setItem(LAST_ACTIVITY_KEY, String(Date.now() - 20 * MINUTE));
    const timer = startTimer();

    vi.advanceTimersByTime(CHECK_INTERVAL_MS);

    expect(timer.isVisible()).toBe(true);
  });

  it('once visible it stays visible when the returning visitor moves the mouse', () => {
    const timer = startTimer();
    vi.advanceTimersByTime(10 * MINUTE);

    timer.recordActivity();
    vi.advanceTimersByTime(CHECK_INTERVAL_MS);

    expect(timer.isVisible()).toBe(true);
  });

  it('dismissing hides it and stores the flag in session storage', () => {
    const timer = startTimer();
    vi.advanceTimersByTime(10 * MINUTE);

    timer.dismiss();

    expect(timer.isVisible()).toBe(false);
    expect(dismissStore.values.get(DISMISSED_KEY)).toBe('true');
  });

  it('a dismissed button stays hidden however long the visitor is idle', () => {
    const timer = startTimer();
    timer.dismiss();

    vi.advanceTimersByTime(60 * MINUTE);

    expect(timer.isVisible()).toBe(false);
  });

  it('a dismissal earlier in the browser session keeps a new page hidden', () => {
    dismissStore.setItem(DISMISSED_KEY, 'true');
    const timer = startTimer();

    vi.advanceTimersByTime(30 * MINUTE);

    expect(timer.isVisible()).toBe(false);
    expect(timer.isDismissed()).toBe(true);
  });

  it('stops checking once stopped', () => {
    const timer = startTimer();
    timer.stop();

    vi.advanceTimersByTime(30 * MINUTE);

    expect(timer.isVisible()).toBe(false);
  });

  it('accepts an injected clock and scheduler', () => {
    let clock = 0;
    let tick: () => void = () => {};
    const timer = createIdleTimer({
      now: () => clock,
      setInterval: (callback) => {
        tick = callback;
        return 1;
      },
      clearInterval: () => {},
    });
    timer.start();

    clock = IDLE_THRESHOLD_MS - 1;
    tick();
    expect(timer.isVisible()).toBe(false);

    clock = IDLE_THRESHOLD_MS;
    tick();
    expect(timer.isVisible()).toBe(true);
  });
});
