// Placeholder created by the issue-10 web work so /admin can lazy-load this section. The Leads
// issue (11) owns this file and replaces it with the real Webhook Keys and Leads tabs; keep the
// named export `WebhookManagement` (src/features/admin/routes/AdminDashboardPage.tsx imports it).
export function WebhookManagement() {
  return (
    <section className="card" data-testid="webhook-management">
      <h2 className="card-title">Webhook Management</h2>
      <p className="muted">Webhook keys and leads arrive with the Leads issue.</p>
    </section>
  );
}
