/**
 * Shapes of the HTTP contract (shared/design/api.md) as the web app names them. They come from
 * packages/contracts, where the services' schemas live: nothing here is declared a second time.
 * Type-only imports, so none of TypeBox reaches the browser bundle.
 */
import type { ContactBody, MeReply, MessageReply, PublicUser, SessionReply, UserRole } from '@homereport/contracts';

export type Role = UserRole;
export type User = PublicUser;
export type AuthResponse = SessionReply;
export type MeResponse = MeReply;
export type MessageResponse = MessageReply;
export type ContactMessage = ContactBody;
