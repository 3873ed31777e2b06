/** Runs fn(0) … fn(count - 1), at most `concurrency` at a time; resolves with their results in order. */
export function pool<T>(count: number, concurrency: number, fn: (i: number) => Promise<T>): Promise<T[]>;
