import { useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useLiveUpdates } from '../api/live';
import { can, useSession } from '../api/session';
import { setTheme, storedTheme, type Theme } from './theme';
import { Toaster } from './toasts';

/** How long after a navigation the new page's heading is waited for (pages load as their own chunks). */
const HEADING_WAIT_MS = 3000;

/**
 * After a move to another page, focus goes to its h1 (as a screen-reader user expects from a page load); not on
 * the first page, and not when only the query changes (filters, periods).
 */
function useFocusHeadingOnNavigation(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const started = Date.now();
    const timer = setInterval(() => {
      const heading = document.querySelector<HTMLElement>('main h1');
      if (heading || Date.now() - started > HEADING_WAIT_MS) clearInterval(timer);
      if (!heading) return;
      // Someone already working in the new page (a field focused by a page or a keyboard user) keeps their place.
      const active = document.activeElement;
      const main = document.getElementById('main');
      if (active && active !== document.body && active !== main && main?.contains(active)) return;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus();
    }, 50);
    return () => clearInterval(timer);
  }, [pathname]);
}

/**
 * A disclosure that closes when a link in it is followed, on Escape (focus back on its button) and on a click
 * outside it.
 */
function useDisclosure(pathname: string) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      ref.current?.querySelector<HTMLButtonElement>('button')?.focus();
    };
    document.addEventListener('mousedown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('mousedown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  return { open, ref, toggle: () => setOpen(!open) };
}

const NEXT_THEME: Record<Theme, Theme> = { system: 'dark', dark: 'light', light: 'system' };

export function Layout() {
  const state = useSession();
  const session = state.session;
  const navigate = useNavigate();
  const live = useLiveUpdates(true);
  const [theme, setThemeState] = useState<Theme>(storedTheme);
  const allowed = can(session.role);
  const { pathname } = useLocation();
  // The narrow screen's menu: open until a link is followed.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [pathname]);
  const account = useDisclosure(pathname);
  useFocusHeadingOnNavigation();
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
  ];
  // The organization's pages sit in the account menu: twelve links and the account controls do not fit one line
  // at 1280 px.
  const organization: [string, string][] = [
    ['/members', 'Members'],
    ['/api-keys', 'API keys'],
    ['/settings', 'Settings'],
  ];
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className={`topbar${menuOpen ? ' menu-open' : ''}`}>
        <NavLink to="/" className="brand" aria-label="Tocsin overview">
          <img src="/favicon.svg" alt="" width={24} height={24} /> Tocsin
        </NavLink>
        <button
          type="button"
          className="ghost menu-button"
          aria-expanded={menuOpen}
          aria-controls="main-menu"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span aria-hidden="true">{menuOpen ? '✕' : '☰'}</span> Menu
        </button>
        <div className="topbar-menu" id="main-menu">
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
            <div className={`account${account.open ? ' open' : ''}`} ref={account.ref}>
              <button
                type="button"
                className="ghost account-button"
                aria-expanded={account.open}
                aria-controls="account-panel"
                onClick={account.toggle}
              >
                <span className="account-name">{session.user.name ?? session.user.email}</span>{' '}
                <span aria-hidden="true">▾</span>
              </button>
              <div className="account-panel" id="account-panel">
                <p className="account-who">
                  {session.user.email} <span className="role">({session.role})</span>
                </p>
                <ul>
                  <li>
                    <NavLink to="/profile">Profile</NavLink>
                  </li>
                  {organization.map(([to, label]) => (
                    <li key={to}>
                      <NavLink to={to}>{label}</NavLink>
                    </li>
                  ))}
                </ul>
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
                  {theme === 'dark' ? '☾' : theme === 'light' ? '☀' : '◐'} Theme: {theme}
                </button>
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
            </div>
          </div>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Toaster />
    </div>
  );
}
