import { Component, type ErrorInfo, type ReactNode } from 'react';
import { documentTitle } from '../../hooks/use-document-title';

interface State {
  error: Error | null;
}

/** Last resort for a screen that failed to load or render (e.g. a chunk missing after a redeploy). */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Console screen failed', error, info.componentStack);
    // The tab and a screen reader's first words say what the page now is, not the screen that failed.
    document.title = documentTitle('Something went wrong');
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <main className="flex min-h-screen items-center justify-center p-4">
        <div className="max-w-md rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-900/5">
          <h1 className="text-xl font-bold text-slate-900">Something went wrong</h1>
          <p className="mt-2 text-sm text-slate-600">{this.state.error.message}</p>
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="mt-4 rounded-lg bg-indigo-700 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          >
            Reload the page
          </button>
        </div>
      </main>
    );
  }
}
