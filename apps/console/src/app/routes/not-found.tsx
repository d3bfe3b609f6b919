import { Link } from 'react-router';
import { Card } from '../../components/ui/card';
import { useDocumentTitle } from '../../hooks/use-document-title';

export function NotFoundRoute() {
  useDocumentTitle('Page not found');
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <Card className="max-w-md text-center">
        <p className="text-xs font-semibold uppercase tracking-widest text-indigo-600">404</p>
        <h1 className="mt-1 text-xl font-bold text-slate-900">This page does not exist</h1>
        <Link to="/" className="mt-4 inline-block font-semibold text-indigo-700 underline">
          Go to the start page
        </Link>
      </Card>
    </main>
  );
}
