import { useState } from 'react';
import { NavLink, Outlet, useNavigate } from 'react-router';
import { useLiveUpdates } from '../api/live';
import { can, useSession } from '../api/session';
import { setTheme, storedTheme, type Theme } from './theme';

const NEXT_THEME: Record<Theme, Theme> = { system: 'dark', dark: 'light', light: 'system' };

export function Layout() {
  const state = useSession();
  const session = state.session;
  const navigate = useNavigate();
  const live = useLiveUpdates(true);
  const [theme, setThemeState] = useState<Theme>(storedTheme);
  const allowed = can(session.role);
  const links: [string, string][] = [
    ['/', 'Overview'],
    ['/monitors', 'Monitors'],
    ['/incidents', 'Incidents'],
    ['/status-pages', 'Status pages'],
    ['/maintenance-windows', 'Maintenance'],
    ['/reports', 'Reports'],
    ['/intelligence', 'Intelligence'],
    ...(allowed.admin ? ([['/destinations', 'Destinations']] as [string, string][]) : []),
    ['/silences', 'Silences'],
    ['/members', 'Members'],
    ['/api-keys', 'API keys'],
    ['/settings', 'Settings'],
  ];
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <NavLink to="/" className="brand" aria-label="Tocsin overview">
          <img src="/favicon.svg" alt="" width={24} height={24} /> Tocsin
        </NavLink>
        <nav aria-label="Main">
          <ul>
            {links.map(([to, label]) => (
              <li key={to}>
                <NavLink to={to} end={to === '/'}>
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="topbar-end">
          <span className={`live live-${live}`} role="status" title="How this page stays current">
            {live === 'live' ? '● Live' : live === 'polling' ? '↻ Polling' : '… Connecting'}
          </span>
          <button
            type="button"
            className="ghost"
            aria-label={`Theme: ${theme}. Switch to ${NEXT_THEME[theme]}`}
            onClick={() => {
              const next = NEXT_THEME[theme];
              setTheme(next);
              setThemeState(next);
            }}
          >
            {theme === 'dark' ? '☾' : theme === 'light' ? '☀' : '◐'} <span className="hide-narrow">{theme}</span>
          </button>
          <NavLink to="/profile" className="who">
            {session.user.name ?? session.user.email} <span className="role">({session.role})</span>
          </NavLink>
          <button
            type="button"
            className="ghost"
            onClick={() => {
              void state.signOut().then(() => navigate('/sign-in'));
            }}
          >
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
