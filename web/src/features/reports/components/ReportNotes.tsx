/** The staff's free-text notes on a report, when it has any. */
export function ReportNotes({ notes }: { notes: string | null | undefined }) {
  if (!notes) return null;
  return (
    <section className="card report-notes" data-testid="report-notes">
      <h2 className="card-title">Additional Notes</h2>
      <p>{notes}</p>
    </section>
  );
}
