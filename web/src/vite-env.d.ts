/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SUPPORT_EMAIL?: string;
  readonly VITE_SUPPORT_PHONE?: string;
  readonly VITE_OFFICE_ADDRESS?: string;
  readonly VITE_LIVE_CHAT_URL?: string;
  readonly VITE_PRIVACY_EMAIL?: string;
  readonly VITE_DPO_EMAIL?: string;
  readonly VITE_SUBSCRIBE_URL?: string;
  readonly VITE_API_PROXY?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
