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
 * Starts the parts one after the other, so a failed start stops the ones already running. The project
 * has an API key and the given whitelisted domains; the dapp loads the SDK from the server with it.
 */
export async function startSdkStack(domains: string[] = ['localhost']): Promise<SdkStack> {
  const started: Partial<SdkStack> = {};
  try {
    started.chain = await startChain();
    started.polyflow = await startPolyflow();
    started.project = await createProject(started.polyflow, domains);
    started.demo = await startDemoDapp({
      polyflowUrl: started.polyflow.url,
      apiKey: started.project.apiKey,
      port: 0,
      rpcUrl: started.chain.rpcUrl,
    });
    return started as SdkStack;
  } catch (error) {
    await stopSdkStack(started);
    throw error;
  }
}
