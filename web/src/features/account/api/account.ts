import type { AccountExport, ChangePasswordBody, DeleteAccountBody, MessageReply } from '@homereport/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { saveFile } from '../../../lib/saveFile';

/**
 * The name the export is saved under: the one auth's content-disposition gives
 * (ACCOUNT_EXPORT_FILE_NAME in packages/contracts; only types are imported here, so no TypeBox
 * reaches the bundle).
 */
export const EXPORT_FILE_NAME = 'homereport-data.json';

/** POST /api/auth/change-password: every other session of the user ends, this one stays. */
export function changePassword(body: ChangePasswordBody): Promise<MessageReply> {
  return apiCall<MessageReply>('/api/auth/change-password', {
    method: 'POST',
    body,
    fallbackError: 'Your password could not be changed. Please try again.',
  });
}

export const useChangePassword = () => useMutation({ mutationFn: changePassword });

/** GET /api/auth/account/export: everything we hold about the signed-in user, as JSON. */
export function fetchAccountExport(): Promise<AccountExport> {
  return apiCall<AccountExport>('/api/auth/account/export', {
    fallbackError: 'Your data could not be gathered. Please try again.',
  });
}

/** Saves the export as `homereport-data.json` (lib/saveFile: the call needs the bearer token). */
export async function downloadAccountData(): Promise<void> {
  const data = await fetchAccountExport();
  saveFile(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }), EXPORT_FILE_NAME);
}

export const useDownloadAccountData = () => useMutation({ mutationFn: downloadAccountData });

/** DELETE /api/auth/account: 204; every session ends and every service forgets the user. */
export async function deleteAccount(body: DeleteAccountBody): Promise<void> {
  await apiCall<void>('/api/auth/account', {
    method: 'DELETE',
    body,
    fallbackError: 'Your account could not be deleted. Please try again.',
  });
}

export const useDeleteAccount = () => useMutation({ mutationFn: deleteAccount });
