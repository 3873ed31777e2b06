import type { AccountExport, ChangePasswordBody, DeleteAccountBody, MessageReply } from '@homereport/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';

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

/**
 * Saves the export as `homereport-data.json`. The call needs the bearer token, which a plain
 * link cannot send, so the file is fetched here and handed to the browser as a download.
 */
export async function downloadAccountData(): Promise<void> {
  const data = await fetchAccountExport();
  const blob = new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = EXPORT_FILE_NAME;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click the browser holds the file; the address can go at the next turn.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
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
