import type { ZipImportReport } from '@homereport/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../api/client';
import { type UploadProgress, uploadWithProgress } from '../../../api/upload';
import { queryKeys } from '../../../lib/queryKeys';

/**
 * POST /api/admin/zipcodes/import with the chosen file as its body, and how far the upload has
 * gone (`progress`, null before the first byte and after the answer). The file is sent as it is:
 * the server checks every record and answers which it stored and which it refused, and why.
 */
export function useZipImport() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const mutation = useMutation({
    mutationFn: async (file: File): Promise<ZipImportReport> => {
      setProgress({ loaded: 0, total: file.size });
      try {
        const result = await uploadWithProgress<ZipImportReport>('/api/admin/zipcodes/import', file, {
          contentType: 'application/json',
          fallbackError: 'The import failed.',
          networkError: 'The upload was interrupted before the server answered.',
          onProgress: setProgress,
        });
        if (!result.ok) throw new ApiError(result);
        return result.data;
      } finally {
        setProgress(null);
      }
    },
    // Whatever was stored shows in /zip and the ZIP pages at once (the gateway drops its copy too).
    onSuccess: (report) =>
      report.imported.length > 0 ? queryClient.invalidateQueries({ queryKey: queryKeys.zipcodes }) : undefined,
  });
  return { ...mutation, progress };
}
