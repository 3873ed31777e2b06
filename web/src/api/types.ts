/** Shapes from the HTTP contract (shared/design/api.md). */

export type Role = 'user' | 'admin';

export type User = {
  id: string;
  email: string;
  role: Role;
  emailVerified: boolean;
  created_at: string;
};

export type AuthResponse = { token: string; user: User };
export type MeResponse = { user: User };
export type MessageResponse = { message: string };

export type ContactMessage = { name: string; email: string; subject: string; message: string };
