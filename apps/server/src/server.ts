import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { releaseMemoryWhenIdle } from './http/idle-memory.ts';
import { enableOptimizingCompilerOnFirstWork } from './lib/optimizing-compiler.ts';
import { GeoIpDatabaseError } from './modules/ingestion/enrich.ts';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const app = await buildApp(config);
  const idleMemory = releaseMemoryWhenIdle(app);
  enableOptimizingCompilerOnFirstWork(app);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  app.log.info(`Polyflow listening on http://${config.host}:${port}`);

  let isClosing = false;
  const shutdown = (signal: string) => {
    if (isClosing) return;
    isClosing = true;
    idleMemory.stop();
    app.log.info({ signal }, 'shutting down');
    // A stuck connection must not keep the process alive forever.
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** Start-up failures a person can fix, said in their words rather than as a stack trace. */
function explainStartupError(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  if (/Could not set lock on file/i.test(message)) {
    return 'Another Polyflow process (a server or the demo seeder) is using this DATA_DIR: stop it, or start this one with another DATA_DIR.';
  }
  if (error instanceof GeoIpDatabaseError) return `GEOIP_DB: ${error.message}`;
  if ((error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE') {
    return 'The port is already in use: stop the other server or set PORT to a free port.';
  }
  return undefined;
}

main().catch((error: unknown) => {
  const explanation = explainStartupError(error);
  console.error(explanation ? `Polyflow could not start. ${explanation}` : error);
  process.exit(1);
});
