// Plain JavaScript: the benchmarks (bench/support.mjs) run it without a TypeScript loader.

/** Runs fn(0) … fn(count - 1), at most `concurrency` at a time; resolves with their results in order. */
export async function pool(count, concurrency, fn) {
  let next = 0;
  const results = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await fn(i);
      }
    }),
  );
  return results;
}
