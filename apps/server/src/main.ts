// The server's entry point (`npm start`, the Docker image: dist/main.js). V8's optimizing compiler is held
// back before any module of the server, its npm packages included, is evaluated, and turned on by its first
// work (docs/decisions/105); so the server itself is imported only after that. DuckDB's allocator settings
// (ADR 163) must be in the environment before its binding loads: the server bundle's npm imports are evaluated
// before any of its own code, so they are set here.
import { deferOptimizingCompiler } from './lib/optimizing-compiler.ts';
import './modules/event-store/duckdb/allocator.ts';

deferOptimizingCompiler();
await import('./server.ts');
