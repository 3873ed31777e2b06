import { Topics, type ZipWatchAlerted } from '@homereport/contracts';
import { type OutboxEntry, createEvent } from '@homereport/kit';

/**
 * The zipcodes service's events. zip-watch-alerted is keyed by the user id and has an id of its
 * own per import and watcher, so however often it is written or delivered, one email goes out.
 */
export const zipWatchAlertId = (importId: string, userId: string) => `zip-watch-alert:${importId}:${userId}`;

export const zipWatchAlerted = (data: ZipWatchAlerted): OutboxEntry<ZipWatchAlerted> => ({
  ...createEvent(Topics.zipWatchAlerted, data, { source: 'zipcodes', key: data.userId }),
  id: zipWatchAlertId(data.importId, data.userId),
});

/** Alerts are written in groups (one outbox marker per group; the kit's batch outbox). */
export const ZIP_ALERT_BATCHES = { collection: 'zip_alerts', markers: 'zip_alert_batches' };
