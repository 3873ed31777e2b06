export const HEAP_SHARE_OF_LIMIT: number;
export const MIN_HEAP_MIB: number;
/** The heap, in MiB, for a container limit in MiB. */
export function heapMib(limitMib: number): number;
/** `--max-heap-size=<MiB>` for a limit in MiB; none without one. */
export function heapFlagsFor(limitMib: number | undefined): string[];
export function cgroupLimitMib(read?: (path: string) => string): number | undefined;
export function containerLimitMib(
  env?: Record<string, string | undefined>,
  read?: (path: string) => string,
): number | undefined;
export function heapFlags(env?: Record<string, string | undefined>, read?: (path: string) => string): string[];
