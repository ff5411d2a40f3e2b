import { Link, useLocation } from 'react-router';

/** Any address the app does not know (the server answers such a browser request with 404 and this page). */
export default function NotFoundPage() {
  const location = useLocation();
  return (
    <main id="main" className="centered not-found">
      <p className="brand-line">
        <img src="/favicon.svg" alt="" width={32} height={32} /> Tocsin
      </p>
      <h1>Page not found</h1>
      <p>
        There is no page at <code>{location.pathname}</code>. The link may be old, or the page may have moved.
      </p>
      <p>
        <Link className="button primary" to="/">
          Go to the overview
        </Link>{' '}
        <Link className="button" to="/monitors">
          Monitors
        </Link>
      </p>
    </main>
  );
}
