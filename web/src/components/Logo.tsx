import { Link } from 'react-router-dom';

export function LogoMark({ size = 34 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 40 40" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="logo-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#2563eb" />
          <stop offset="1" stopColor="#0d9488" />
        </linearGradient>
      </defs>
      <rect width="40" height="40" rx="10" fill="url(#logo-gradient)" />
      <path
        d="M10 19.5 20 11l10 8.5"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path d="M13.5 18v10.5h13V18" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinejoin="round" />
      <path d="M17 25.5v-3M20 25.5v-5.5M23 25.5v-4" stroke="#fff" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

export function Logo({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} className="logo" aria-label="HomeReport home">
      <LogoMark />
      <span className="logo-text">
        Home<span>Report</span>
      </span>
    </Link>
  );
}
