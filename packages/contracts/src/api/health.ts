import { type Static, Type } from '@sinclair/typebox';

/** GET /api/health (api.md, "Health"; README, API notes): answered 200 when all is up, 503 with the same shape otherwise. */

export const UpDown = Type.Union([Type.Literal('up'), Type.Literal('down')]);
export type UpDown = Static<typeof UpDown>;

export const HealthReply = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  /** Each service by name: did its readiness answer "ready". */
  services: Type.Record(Type.String(), UpDown),
  /** Each service's own dependencies (mongo, redis, kafka, s3) as its readiness reported them; absent for a service that did not answer. */
  dependencies: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), UpDown))),
});
export type HealthReply = Static<typeof HealthReply>;
