import type {
  CreateWebhookKeyBody,
  CreateWebhookKeyReply,
  ToggleWebhookKeyReply,
  WebhookKeysReply,
} from '@homereport/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../api/client';
import { leadsKeys } from './queryKeys';

/** GET /api/admin/webhook-keys: every key (never a secret) and the one webhook URL. */
export function useWebhookKeys() {
  return useQuery({
    queryKey: leadsKeys.webhookKeys,
    queryFn: () =>
      apiCall<WebhookKeysReply>('/api/admin/webhook-keys', { fallbackError: 'Failed to load webhook keys' }),
    staleTime: 0,
  });
}

/** POST /api/admin/webhook-keys: the reply holds the secret, shown this once; the list reloads. */
export function useCreateWebhookKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyName: string) =>
      apiCall<CreateWebhookKeyReply>('/api/admin/webhook-keys', {
        method: 'POST',
        body: { key_name: keyName } satisfies CreateWebhookKeyBody,
        fallbackError: 'Failed to create the webhook key',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: leadsKeys.webhookKeys }),
  });
}

/** PUT /api/admin/webhook-keys/:key_name/toggle; the list reloads. */
export function useToggleWebhookKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyName: string) =>
      apiCall<ToggleWebhookKeyReply>(`/api/admin/webhook-keys/${encodeURIComponent(keyName)}/toggle`, {
        method: 'PUT',
        fallbackError: 'Failed to switch the webhook key',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: leadsKeys.webhookKeys }),
  });
}
