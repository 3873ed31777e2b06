export const SERVICES: string[];
export function stackPorts(profile: 'dev' | 'test'): { services: Record<string, number>; gateway: number };
export function startStack(options: {
  profile: 'dev' | 'test';
  settings: Record<string, string>;
  logDir?: string;
  pretty: boolean;
  log?: (m: string) => void;
}): Promise<{ ports: { services: Record<string, number>; gateway: number }; url: string; stop(): Promise<void> }>;
