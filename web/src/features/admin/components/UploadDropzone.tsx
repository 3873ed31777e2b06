import { type DragEvent, useId, useState } from 'react';
import { Icon } from '../../../components/Icon';
import { Spinner } from '../../../components/Spinner';
import { ACCEPT_ATTRIBUTE } from '../reportFiles';

/**
 * Drop files here or click to choose them; several at once. The picker is disabled while an
 * upload runs, and choosing nothing does nothing (spec section 5).
 */
export function UploadDropzone({
  uploading,
  onFiles,
}: {
  uploading: boolean;
  onFiles: (files: File[]) => void;
}) {
  const inputId = useId();
  const [dragging, setDragging] = useState(false);

  function take(list: FileList | null | undefined) {
    const files = list ? Array.from(list) : [];
    if (files.length > 0) onFiles(files);
  }

  function onDragOver(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    if (!uploading) {
      event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    } else {
      event.dataTransfer.dropEffect = 'none';
    }
  }

  function onDrop(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    setDragging(false);
    if (!uploading) take(event.dataTransfer?.files);
  }

  return (
    <label
      htmlFor={inputId}
      className={`dropzone${dragging ? ' dropzone-active' : ''}${uploading ? ' dropzone-busy' : ''}`}
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid="upload-dropzone"
    >
      <input
        id={inputId}
        type="file"
        multiple
        accept={ACCEPT_ATTRIBUTE}
        disabled={uploading}
        className="visually-hidden"
        onChange={(event) => {
          take(event.target.files);
          // Choosing the same file again must fire a change.
          event.target.value = '';
        }}
        data-testid="upload-input"
      />
      {uploading ? (
        <>
          <Spinner label="Uploading" />
          <strong>Uploading files…</strong>
        </>
      ) : (
        <>
          <span className="icon-badge icon-badge-lg">
            <Icon name="file" size={28} />
          </span>
          <strong>Drag and drop report files here, or click to choose</strong>
          <span className="muted">PDF, DOC or DOCX; several files at once</span>
        </>
      )}
    </label>
  );
}
