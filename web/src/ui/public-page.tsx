import type { ReactNode } from 'react';

/** The frame of the pages before sign-in. */
export function PublicPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="public-page">
      <div className="card narrow">
        <p className="brand">
          <img src="/favicon.svg" alt="" width={24} height={24} /> Tocsin
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
