import { type Span, SpanKind } from '@opentelemetry/api';
import type { MongoClient } from 'mongodb';
import { currentTrace } from './context.js';
import { endSpan, startSpan, tracesExported } from './export.js';

/**
 * A client span for one call of a dependency (`redis GET`, `mongo find`, `smtp send`), a child of
 * the current trace; null when tracing is off or the call belongs to no trace (a relay sweep).
 */
export function startDependencySpan(dependency: string, operation: string): Span | null {
  if (!tracesExported()) return null;
  const parent = currentTrace();
  if (!parent) return null;
  return (
    startSpan(`${dependency} ${operation}`, SpanKind.CLIENT, parent, {
      'peer.service': dependency,
      'db.operation.name': operation,
    })?.span ?? null
  );
}

/** Runs `call` in a dependency span (see startDependencySpan); `call` alone when there is none. */
export async function traceDependency<T>(dependency: string, operation: string, call: () => Promise<T>): Promise<T> {
  const span = startDependencySpan(dependency, operation);
  if (!span) return call();
  try {
    const result = await call();
    endSpan(span);
    return result;
  } catch (err) {
    endSpan(span, err);
    throw err;
  }
}

/**
 * MongoDB spans from the driver's command monitoring (the connection opens with
 * `monitorCommands`): a command starts in its caller's async context, so its span joins the
 * caller's trace; it ends when the server answers.
 */
export function traceMongo(client: MongoClient): void {
  if (!tracesExported()) return;
  const open = new Map<number, Span>();
  client.on('commandStarted', (event) => {
    const span = startDependencySpan('mongo', event.commandName);
    if (span) open.set(event.requestId, span);
  });
  const finish = (event: { requestId: number }, err?: unknown) => {
    const span = open.get(event.requestId);
    if (!span) return;
    open.delete(event.requestId);
    endSpan(span, err);
  };
  client.on('commandSucceeded', (event) => finish(event));
  client.on('commandFailed', (event) => finish(event, event.failure));
}
