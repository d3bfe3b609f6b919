import { type DemoDapp, startDemoDapp } from '../../../examples/demo-dapp/src/demo-server.mjs';
import { startChain, type TestChain } from '../../support/chain.ts';
import {
  createProject,
  type OwnedProject,
  type PolyflowInstance,
  removeInstanceData,
  startPolyflow,
} from './polyflow-instance.ts';

/** Everything an SDK journey runs against: a local chain, a Polyflow server of its own, the demo dapp. */
export interface SdkStack {
  chain: TestChain;
  polyflow: PolyflowInstance;
  project: OwnedProject;
  demo: DemoDapp;
}

/** Stops whatever parts were started, in reverse order, and removes the server's data. */
export async function stopSdkStack({ chain, polyflow, demo }: Partial<SdkStack>): Promise<void> {
  await demo?.close();
  await polyflow?.stop();
  await chain?.stop();
  if (polyflow) removeInstanceData(polyflow);
}

/**
 * Starts the chain and the server side by side (each waits on its own process), then the project and the
 * dapp; a failed start stops the parts already running. The project has an API key and the given
 * whitelisted domains; the dapp loads the SDK from the server with it.
 */
export async function startSdkStack(domains: string[] = ['localhost']): Promise<SdkStack> {
  const started: Partial<SdkStack> = {};
  try {
    const [chain, polyflow] = await Promise.allSettled([
      startChain().then((value) => (started.chain = value)),
      startPolyflow().then((value) => (started.polyflow = value)),
    ]);
    for (const result of [chain, polyflow]) if (result.status === 'rejected') throw result.reason;
    started.project = await createProject(started.polyflow as PolyflowInstance, domains);
    started.demo = await startDemoDapp({
      polyflowUrl: (started.polyflow as PolyflowInstance).url,
      apiKey: started.project.apiKey,
      port: 0,
      rpcUrl: (started.chain as TestChain).rpcUrl,
    });
    return started as SdkStack;
  } catch (error) {
    await stopSdkStack(started);
    throw error;
  }
}
