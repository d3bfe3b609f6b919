// The server's entry point (`npm start`, the Docker image: dist/main.js). V8's optimizing compiler is held
// back before any module of the server, its npm packages included, is evaluated, and turned on by its first
// work (docs/decisions/105); so the server itself is imported only after that.
import { deferOptimizingCompiler } from './lib/optimizing-compiler.ts';

deferOptimizingCompiler();
await import('./server.ts');
